"use client";

import { useSyncExternalStore } from "react";

// One clock for every RelativeTime on the page, ticking each 30 s; null on the server,
// so the text is written in the viewer's browser (their zone and language).
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function formatRelativeTime(date: Date, nowMs: number): string {
  const seconds = Math.round((date.getTime() - nowMs) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), "minute");
}

/** A time as relative text, with the full date in the viewer's zone as its tooltip. */
export function RelativeTime({ date, fallback = "never" }: { date: Date | string | null; fallback?: string }) {
  const current = useSyncExternalStore(subscribe, () => now, () => null);
  if (!date) return <span className="text-slate-600 dark:text-slate-400">{fallback}</span>;
  const value = typeof date === "string" ? new Date(date) : date;
  const iso = value.toISOString();
  if (current === null) return <time dateTime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;
  const full = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" }).format(value);
  return (
    <time dateTime={iso} title={full}>
      {formatRelativeTime(value, current)}
    </time>
  );
}
