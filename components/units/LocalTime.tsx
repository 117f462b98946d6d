"use client";

import { useSyncExternalStore } from "react";
import { formatRelativeTime } from "@/lib/format";

// One shared clock for every relative time on the page, ticking twice a minute.
const listeners = new Set<() => void>();
let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      for (const listener of listeners) listener();
    }, 30_000);
  }
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function currentTime(): number {
  // Rounded to the tick so that React sees a stable snapshot between ticks.
  if (now === 0 || Date.now() - now > 30_000) now = Date.now();
  return now;
}

const absoluteFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A time in the viewer's zone with the relative time beside it. The server renders UTC
 * (it does not know the viewer's zone); the browser replaces it after hydration.
 */
export function LocalTime({ iso, isRelativeOnly = false }: { iso: string; isRelativeOnly?: boolean }) {
  const clock = useSyncExternalStore(subscribe, currentTime, () => 0);
  const date = new Date(iso);
  if (clock === 0) {
    return <time dateTime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;
  }
  const relative = formatRelativeTime(date, new Date(clock));
  const absolute = absoluteFormat.format(date);
  return (
    <time dateTime={iso} title={absolute}>
      {isRelativeOnly ? (
        relative
      ) : (
        <>
          {absolute} <span className="text-slate-500 dark:text-slate-400">({relative})</span>
        </>
      )}
    </time>
  );
}
