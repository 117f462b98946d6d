"use client";

import {
  CartesianGrid,
  ComposedChart,
  ErrorBar,
  Line,
  ReferenceDot,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { categoryAxisProps, GRID_PROPS, LINE_RATE_LINE, useRateAxis } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { pointTooltip, TooltipBox } from "@/components/charts/ChartTooltip";
import { COMPARE_COLORS } from "@/components/charts/colors";
import { formatRate } from "@/lib/format";
import type { SweepResult } from "@/lib/experiments/contract";
import { SWEEP_FACTOR_LABELS, sweepValueText } from "@/lib/experiments/kinds/sweep";
import { ChartKey } from "./ChartKey";

const MEDIAN_COLOR = COMPARE_COLORS[0];
const KNEE_COLOR = "#d97706";

type Point = {
  label: string;
  median: number | null;
  min: number | null;
  max: number | null;
  whisker: [number, number] | null;
  runs: number;
};

/** Median throughput against the swept value, min–max whiskers, the knee marked, the line rate above. */
export function SweepChart({
  result,
  lineRateBitsPerSecond,
  kneePercent,
}: {
  result: SweepResult;
  lineRateBitsPerSecond: number;
  kneePercent: number;
}) {
  const data: Point[] = result.rows.map((row) => ({
    label: sweepValueText(result.factor, row.value),
    median: row.receivedBitsPerSecond,
    min: row.minBitsPerSecond,
    max: row.maxBitsPerSecond,
    // ErrorBar reads the distances below and above the median.
    whisker:
      row.receivedBitsPerSecond !== null && row.minBitsPerSecond !== null && row.maxBitsPerSecond !== null
        ? [row.receivedBitsPerSecond - row.minBitsPerSecond, row.maxBitsPerSecond - row.receivedBitsPerSecond]
        : null,
    runs: row.runIds.length,
  }));
  const peak = Math.max(lineRateBitsPerSecond, ...data.map((point) => point.max ?? point.median ?? 0));
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const knee = result.knee
    ? { label: sweepValueText(result.factor, result.knee.value), bitsPerSecond: result.knee.receivedBitsPerSecond }
    : null;
  const hasWhiskers = data.some((point) => point.whisker && (point.whisker[0] > 0 || point.whisker[1] > 0));
  const factorLabel = SWEEP_FACTOR_LABELS[result.factor];
  return (
    <div>
      <ChartFrame
        size="tall"
        label={`Median throughput for each ${factorLabel.toLowerCase()} value${knee ? `; the knee is at ${knee.label}` : ""}`}
        data-testid="sweep-chart"
        data-knee={knee?.label ?? ""}
        data-point-count={data.length}
      >
        <ComposedChart data={data} margin={{ top: 16, right: 12, bottom: 18, left: 4 }}>
          <CartesianGrid {...GRID_PROPS} vertical={false} />
          <XAxis {...categoryAxisProps(factorLabel)} padding={{ left: 28, right: 28 }} />
          <YAxis {...rateAxis} />
          {lineRateBitsPerSecond > 0 ? (
            <ReferenceLine {...LINE_RATE_LINE} y={lineRateBitsPerSecond} ifOverflow="extendDomain" />
          ) : null}
          {knee ? (
            <ReferenceLine
              x={knee.label}
              stroke={KNEE_COLOR}
              strokeDasharray="3 3"
              strokeWidth={1.5}
              label={{ value: "knee", position: "top", fill: KNEE_COLOR, fontSize: 12, fontWeight: 600 }}
            />
          ) : null}
          <Line
            dataKey="median"
            name="median"
            stroke={MEDIAN_COLOR}
            strokeWidth={2.25}
            dot={{ r: 3.5, fill: MEDIAN_COLOR }}
            isAnimationActive={false}
            connectNulls
          >
            {hasWhiskers ? (
              <ErrorBar dataKey="whisker" width={8} strokeWidth={1.5} stroke={MEDIAN_COLOR} direction="y" />
            ) : null}
          </Line>
          {knee ? (
            <ReferenceDot
              x={knee.label}
              y={knee.bitsPerSecond}
              r={7}
              fill="none"
              stroke={KNEE_COLOR}
              strokeWidth={2.5}
            />
          ) : null}
          <Tooltip
            isAnimationActive={false}
            cursor={{ stroke: "currentColor", strokeOpacity: 0.2 }}
            content={pointTooltip<Point>((point) => {
              const rows = [{ label: "median", value: formatRate(point.median, unit), color: MEDIAN_COLOR }];
              if (point.runs > 1)
                rows.push(
                  { label: "min", value: formatRate(point.min, unit), color: MEDIAN_COLOR },
                  { label: "max", value: formatRate(point.max, unit), color: MEDIAN_COLOR },
                );
              return (
                <TooltipBox
                  title={`${factorLabel} ${point.label}${knee?.label === point.label ? " · knee" : ""}`}
                  rows={rows}
                />
              );
            })}
          />
        </ComposedChart>
      </ChartFrame>
      <ChartKey
        items={[
          { label: hasWhiskers ? "median, with min and max" : "median", color: MEDIAN_COLOR, shape: "line" },
          ...(knee
            ? [
                {
                  label: `knee: the first to reach ${kneePercent} % of the best`,
                  color: KNEE_COLOR,
                  shape: "dot" as const,
                },
              ]
            : []),
          ...(lineRateBitsPerSecond > 0
            ? [{ label: "line rate", color: "currentColor", shape: "dashed" as const }]
            : []),
        ]}
      />
    </div>
  );
}
