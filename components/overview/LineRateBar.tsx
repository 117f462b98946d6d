import { formatPercent } from "@/lib/format";
import type { LineRateThresholds } from "@/lib/overview/reads";

export type LineRateLevel = "good" | "warn" | "bad";

export function lineRateLevel(percent: number, thresholds: LineRateThresholds): LineRateLevel {
  return percent < thresholds.badPercent ? "bad" : percent < thresholds.warnPercent ? "warn" : "good";
}

const BAR_CLASSES: Record<LineRateLevel, string> = {
  good: "bg-emerald-500 dark:bg-emerald-400",
  warn: "bg-amber-500 dark:bg-amber-400",
  bad: "bg-red-600 dark:bg-red-500",
};

const LEVEL_WORDS: Record<LineRateLevel, string> = { good: "", warn: " (below expectations)", bad: " (poor)" };

/** Share of line rate as a bar: green, amber below the warn threshold, red below the bad one. */
export function LineRateBar({ percent, thresholds }: { percent: number; thresholds: LineRateThresholds }) {
  const level = lineRateLevel(percent, thresholds);
  return (
    <div>
      <div className="flex items-baseline justify-between text-xs text-slate-600 dark:text-slate-300">
        <span>of line rate{LEVEL_WORDS[level]}</span>
        <span
          className="font-mono font-medium tabular-nums text-slate-900 dark:text-slate-100"
          data-testid="line-rate-percent"
        >
          {formatPercent(percent)}
        </span>
      </div>
      <div
        role="meter"
        aria-label="Share of line rate"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, percent)}
        aria-valuetext={`${formatPercent(percent)} of line rate`}
        className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          data-testid="line-rate-bar"
          data-level={level}
          className={`h-full rounded-full ${BAR_CLASSES[level]}`}
          style={{ width: `${Math.max(1, Math.min(100, percent))}%` }}
        />
      </div>
    </div>
  );
}
