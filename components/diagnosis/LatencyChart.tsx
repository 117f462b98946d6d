"use client";

import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { atSeconds, AXIS_STYLE, GRID_PROPS, secondsAxisProps, secondsTicks } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { pointTooltip, TooltipBox } from "@/components/charts/ChartTooltip";
import { formatNumber } from "@/lib/format";
import type { LatencySample, LatencySummary } from "@/lib/diagnosis/contract";
import { describeLatency, formatMs, latencyChartPoints, type LatencyPoint } from "./latency";

export const IDLE_COLOR = "#0d9488";
export const LOADED_COLOR = "#ea580c";
const LOST_COLOR = "#dc2626";

/** A lost ping: a small cross on the time axis, where the line has its gap. */
function LostMark({ cx, cy }: { cx?: number; cy?: number }) {
  if (cx == null || cy == null) return null;
  return (
    <path
      d={`M${cx - 4},${cy - 4}L${cx + 4},${cy + 4}M${cx - 4},${cy + 4}L${cx + 4},${cy - 4}`}
      stroke={LOST_COLOR}
      strokeWidth={2}
    />
  );
}

/**
 * Round-trip times of the pings under a run's throughput chart, on the same time axis: the idle
 * pings before the traffic (shaded, left of 0 s) and those under load, each phase a line of its
 * own colour, a lost ping a red cross where its line breaks. `rightInset` is the width of the
 * throughput chart's right axes, so that both plots span the same pixels.
 */
export function LatencyChart({
  samples,
  domain,
  rightInset,
  summary,
}: {
  samples: readonly LatencySample[];
  domain: [number, number];
  rightInset: number;
  summary: LatencySummary | null;
}) {
  const points = latencyChartPoints(samples);
  const peak = Math.max(1, ...points.map((point) => Math.max(point.idle ?? 0, point.loaded ?? 0)));
  const hasIdle = domain[0] < 0;
  // The shaded idle stretch is named where it is wide enough for the word: 5 s of a day's run is a hairline.
  const isIdleNamed = hasIdle && -domain[0] / (domain[1] - domain[0]) > 0.08;
  const isThinned = points.length < samples.length;
  return (
    <ChartFrame
      size="small"
      label={describeLatency(samples, summary)}
      data-testid="latency-chart"
      data-sample-count={samples.length}
      data-point-count={points.length}
    >
      <ComposedChart data={points} margin={{ top: 8, right: 4 + rightInset, bottom: 4, left: 4 }}>
        <CartesianGrid {...GRID_PROPS} vertical={false} />
        {hasIdle ? (
          <ReferenceArea
            x1={domain[0]}
            x2={0}
            fill={IDLE_COLOR}
            fillOpacity={0.1}
            stroke="none"
            label={
              isIdleNamed ? { value: "idle", position: "insideTopLeft", fill: IDLE_COLOR, fontSize: 11 } : undefined
            }
          />
        ) : null}
        {hasIdle ? <ReferenceLine x={0} stroke="currentColor" strokeOpacity={0.5} strokeDasharray="4 3" /> : null}
        <XAxis {...secondsAxisProps(domain[1])} domain={domain} ticks={secondsTicks(domain)} allowDataOverflow />
        <YAxis
          {...AXIS_STYLE}
          width={56}
          domain={[0, peak * 1.1]}
          tickFormatter={(value: number) => formatNumber(value)}
          label={{ value: "RTT, ms", angle: -90, position: "insideLeft", fill: "currentColor", fontSize: 12, dx: 4 }}
        />
        <Line
          dataKey="idle"
          name="idle"
          stroke={IDLE_COLOR}
          strokeWidth={2}
          dot={points.length <= 80 ? { r: 2 } : false}
          isAnimationActive={false}
          connectNulls={false}
        />
        <Line
          dataKey="loaded"
          name="under load"
          stroke={LOADED_COLOR}
          strokeWidth={2}
          dot={points.length <= 80 ? { r: 2 } : false}
          isAnimationActive={false}
          connectNulls={false}
        />
        <Scatter dataKey="lost" name="lost" fill={LOST_COLOR} shape={<LostMark />} isAnimationActive={false} />
        <Tooltip
          isAnimationActive={false}
          content={pointTooltip<LatencyPoint>((point) => {
            const rtt = point.idle ?? point.loaded;
            const rows: Array<{ label: string; value: string; color?: string }> = [
              {
                label: point.phase === "idle" ? "idle RTT" : "RTT under load",
                value: rtt === null ? "lost" : formatMs(rtt),
                color: point.phase === "idle" ? IDLE_COLOR : LOADED_COLOR,
              },
            ];
            if (point.count > 1) rows.push({ label: "pings", value: `${point.count}, the highest shown` });
            if (point.lostCount > 0 && rtt !== null)
              rows.push({ label: "lost", value: String(point.lostCount), color: LOST_COLOR });
            return <TooltipBox title={`${atSeconds(point.t)}${isThinned ? " (about)" : ""}`} rows={rows} />;
          })}
        />
      </ComposedChart>
    </ChartFrame>
  );
}

/** The colour key under the latency chart: the two phases in words, and the lost pings' mark. */
export function LatencyChartLegend({ isThinned }: { isThinned: boolean }) {
  return (
    <ul
      className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
      data-testid="latency-legend"
    >
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="18" height="6">
          <line x1="0" y1="3" x2="18" y2="3" stroke={IDLE_COLOR} strokeWidth={2.5} />
        </svg>
        idle, before the traffic (shaded)
      </li>
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="18" height="6">
          <line x1="0" y1="3" x2="18" y2="3" stroke={LOADED_COLOR} strokeWidth={2.5} />
        </svg>
        under load
      </li>
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="10" height="10">
          <path d="M1,1L9,9M1,9L9,1" stroke={LOST_COLOR} strokeWidth={2} />
        </svg>
        lost ping (a gap in the line)
      </li>
      {isThinned ? <li>each point: the highest of its stretch of pings</li> : null}
    </ul>
  );
}
