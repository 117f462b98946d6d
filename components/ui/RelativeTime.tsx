"use client";

import { LocalTime } from "@/components/units/LocalTime";

/**
 * A time as relative text ("3 minutes ago"), with the full date in the viewer's zone as
 * its tooltip, or `fallback` when there is none. The clock and the wording are LocalTime's.
 */
export function RelativeTime({ date, fallback = "never" }: { date: Date | string | null; fallback?: string }) {
  if (!date) return <span className="text-slate-600 dark:text-slate-400">{fallback}</span>;
  return <LocalTime iso={typeof date === "string" ? date : date.toISOString()} isRelativeOnly />;
}
