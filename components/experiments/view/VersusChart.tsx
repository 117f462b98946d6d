"use client";

import { COMPARE_COLORS } from "@/components/charts/colors";
import { useRateUnit } from "@/components/units/useRateUnit";
import { formatPercentWord, formatRate } from "@/lib/format";
import type { VersusResult } from "@/lib/experiments/contract";

type Props = { result: VersusResult; lineRateBitsPerSecond: number | null };

const SIDE_COLORS = { A: COMPARE_COLORS[0], B: COMPARE_COLORS[1] } as const;

/** Whether the difference stands out from the runs' spread, in words; null while a side has no rate. */
export function versusClearWords(result: VersusResult): string | null {
  const { differencePercent, clear, pairsAgreeing, pairs } = result;
  if (differencePercent === null) return null;
  const pairWords = `${pairsAgreeing} of ${pairs} ${pairs === 1 ? "pair" : "pairs"} (A then B) went that way`;
  if (differencePercent === 0) return `No difference: the medians are the same. ${pairWords}.`;
  const way = differencePercent > 0 ? "faster" : "slower";
  return clear
    ? `A clear difference: B's runs are ${way} than A's beyond their run-to-run spread; ${pairWords}.`
    : `Not a clear difference: A's and B's runs overlap, so B being ${formatPercentWord(Math.abs(differencePercent))} ${way} may be noise; ${pairWords}.`;
}

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
