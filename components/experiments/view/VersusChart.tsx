"use client";

import { COMPARE_COLORS } from "@/components/charts/colors";
import { useRateUnit } from "@/components/units/useRateUnit";
import { formatRate } from "@/lib/format";
import type { VersusResult } from "@/lib/experiments/contract";
import { versusClearWords } from "./versus-words";

type Props = { result: VersusResult; lineRateBitsPerSecond: number | null };

const SIDE_COLORS = { A: COMPARE_COLORS[0], B: COMPARE_COLORS[1] } as const;

/**
 * A against B: for each side the range of its runs (min to max) as a band and its median as a mark,
 * on one scale from 0 (to the line rate, where the runs stay below it); the figures in text beside;
 * then whether the difference is clear, in words.
 */
export function VersusChart({ result, lineRateBitsPerSecond }: Props) {
  const [unit] = useRateUnit();
  const top = Math.max(lineRateBitsPerSecond ?? 0, ...result.sides.map((side) => side.maxBitsPerSecond ?? 0));
  const at = (bitsPerSecond: number) => `${top > 0 ? (bitsPerSecond / top) * 100 : 0}%`;
  const clearWords = versusClearWords(result);
  return (
    <figure className="space-y-3" data-testid="versus-chart">
      <figcaption className="text-sm font-medium">
        Received rate of each side&apos;s runs: median, min and max
      </figcaption>
      <dl className="space-y-3">
        {result.sides.map((side) => {
          const color = SIDE_COLORS[side.side];
          const hasRange = side.minBitsPerSecond !== null && side.maxBitsPerSecond !== null;
          return (
            <div key={side.side} data-testid={`versus-side-${side.side}`}>
              <dt className="flex flex-wrap items-baseline gap-x-2 text-sm">
                <span className="font-semibold">{side.side}</span>
                <span className="break-all">{side.name}</span>
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {side.runIds.length} {side.runIds.length === 1 ? "run" : "runs"}
                </span>
              </dt>
              <dd>
                <div aria-hidden className="relative mt-1 h-5 rounded bg-slate-100 dark:bg-slate-800">
                  {hasRange ? (
                    <div
                      className="absolute inset-y-1 rounded-sm opacity-40"
                      style={{
                        left: at(side.minBitsPerSecond!),
                        width: `max(3px, calc(${at(side.maxBitsPerSecond!)} - ${at(side.minBitsPerSecond!)}))`,
                        backgroundColor: color,
                      }}
                    />
                  ) : null}
                  {side.medianBitsPerSecond !== null ? (
                    <div
                      className="absolute inset-y-0 w-1 -translate-x-1/2 rounded-sm"
                      style={{ left: at(side.medianBitsPerSecond), backgroundColor: color }}
                    />
                  ) : null}
                </div>
                <p className="mt-1 text-xs tabular-nums text-slate-700 dark:text-slate-300">
                  median <span className="font-semibold">{formatRate(side.medianBitsPerSecond, unit)}</span> · min{" "}
                  {formatRate(side.minBitsPerSecond, unit)} · max {formatRate(side.maxBitsPerSecond, unit)}
                </p>
              </dd>
            </div>
          );
        })}
      </dl>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Scale: 0 to {formatRate(top, unit)}
        {lineRateBitsPerSecond && top === lineRateBitsPerSecond ? " (the line rate)" : ""}. The band spans a side&apos;s
        slowest to fastest run, the mark is its median.
      </p>
      {clearWords ? (
        <p className="text-sm font-medium" data-testid="versus-clear" data-clear={result.clear}>
          {clearWords}
        </p>
      ) : null}
    </figure>
  );
}
