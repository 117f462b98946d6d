"use client";

import type { TimelineRange } from "@/lib/overview/contract";

const RANGES = [
  ["1h", "1 hour"],
  ["6h", "6 hours"],
  ["24h", "24 hours"],
  ["7d", "7 days"],
] as const satisfies ReadonlyArray<readonly [TimelineRange, string]>;

/**
 * The timeline's range as links (?range=), so it works without JavaScript and survives a reload;
 * `onSelect` switches it in place. Either way a zoom (?from=&to=) is dropped.
 */
export function RangeSwitch({ current, onSelect }: { current: string; onSelect?: (range: TimelineRange) => void }) {
  return (
    <nav
      aria-label="Timeline range"
      className="inline-flex overflow-hidden rounded-md border border-slate-300 text-sm dark:border-slate-700"
    >
      {RANGES.map(([value, label]) => (
        <a
          key={value}
          href={`/?range=${value}`}
          onClick={(event) => {
            if (!onSelect || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            onSelect(value);
          }}
          aria-current={current === value ? "true" : undefined}
          className={`px-2.5 py-1 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500 ${
            current === value
              ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
              : "bg-white text-slate-700 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
          }`}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}
