"use client";

import { useEffect, useRef, useState } from "react";
import { useRateUnit } from "@/components/units/useRateUnit";
import { formatRate } from "@/lib/format";
import type { SeriesPoint } from "@/lib/runs/series";

// The text alternative of a live chart. A chart redraws four times a second; a screen reader
// that read every redraw would say nothing else, so the sentence it is given changes at most
// every ANNOUNCE_EVERY_MS, in a polite status region: read when the reader is idle, never
// interrupting. The first sentence is in the region from the start (read when reached), and
// the latest one always gets through once the interval has passed.

export const ANNOUNCE_EVERY_MS = 5_000;

/** "941 Mbit/s now, 23 intervals" (and the reverse direction's rate when there is one). */
export function describeLiveRate(
  point: SeriesPoint | undefined,
  sampleCount: number,
  unit: Parameters<typeof formatRate>[1],
): string {
  const intervals = `${sampleCount} interval${sampleCount === 1 ? "" : "s"}`;
  if (!point || point.bps === null) return `No rate yet, ${intervals}`;
  const reverse = point.reverseBps !== null ? ` and ${formatRate(point.reverseBps, unit)} in reverse` : "";
  return `${formatRate(point.bps, unit)}${reverse} now, ${intervals}`;
}

/** A polite, throttled status line: `message` as it stands, at most every ANNOUNCE_EVERY_MS. */
export function LiveAnnouncer({ message, testId = "live-announcement" }: { message: string; testId?: string }) {
  const [announced, setAnnounced] = useState(message);
  const lastAt = useRef(0);
  // When the region last changed in the page (the first sentence at mount included): stamped
  // after the commit, not when the timer fires, so a busy main thread that delays one commit
  // cannot bring the next one closer than ANNOUNCE_EVERY_MS. Declared first: it runs before the
  // effect below reads it.
  useEffect(() => {
    lastAt.current = Date.now();
  }, [announced]);
  useEffect(() => {
    if (message === announced) return;
    // A deadline from the last change, not from this message: a newer one replaces the pending one
    // without putting it off.
    const timer = setTimeout(() => setAnnounced(message), Math.max(0, lastAt.current + ANNOUNCE_EVERY_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [message, announced]);
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid={testId}>
      {announced}
    </p>
  );
}

/** The live rate of a chart's last point, announced as LiveAnnouncer does. */
export function LiveRateAnnouncer({
  points,
  sampleCount,
  prefix = "",
}: {
  points: SeriesPoint[];
  sampleCount: number;
  prefix?: string;
}) {
  const [unit] = useRateUnit();
  return <LiveAnnouncer message={`${prefix}${describeLiveRate(points.at(-1), sampleCount, unit)}`} />;
}
