"use client";

import { useRateUnit } from "./useRateUnit";

/** Bits/s or bytes/s for every rate on the page; remembered in this browser. */
export function RateUnitSwitch() {
  const [unit, setUnit] = useRateUnit();
  return (
    <fieldset className="inline-flex items-center gap-2 text-sm">
      <legend className="sr-only">Show rates in</legend>
      <span aria-hidden className="text-slate-600 dark:text-slate-400">
        Units
      </span>
      <div className="inline-flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-700">
        {(
          [
            ["bits", "bit/s"],
            ["bytes", "MB/s"],
          ] as const
        ).map(([value, label]) => (
          <label
            key={value}
            className={`cursor-pointer px-2.5 py-1 font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 ${
              unit === value
                ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
                : "bg-white text-slate-700 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
            }`}
          >
            <input
              type="radio"
              name="rate-unit"
              value={value}
              checked={unit === value}
              onChange={() => setUnit(value)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
