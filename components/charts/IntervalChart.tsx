"use client";

import { CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber, formatRate, rateScale } from "@/lib/format";
import { useRateUnit } from "@/components/units/useRateUnit";
import {
  atSeconds,
  GRID_PROPS,
  LINE_RATE_LINE,
  rateAxisProps,
  rightAxisProps,
  secondsAxisProps,
  secondsTicks,
} from "./axes";
import { ChartFrame } from "./ChartFrame";
import { pointTooltip, TooltipBox } from "./ChartTooltip";
import type { SeriesPoint } from "@/lib/runs/series";

const TOTAL_COLOR = "#0284c7";
const REVERSE_COLOR = "#db2777";
const STREAM_COLOR = "#64748b";
const RETRANSMIT_COLOR = "#d97706";
const JITTER_COLOR = "#9333ea";
const LOSS_COLOR = "#dc2626";

type Props = {
  points: SeriesPoint[];
  streamCount: number;
  protocol: "tcp" | "udp";
  isBidir: boolean;
  lineRateBitsPerSecond: number;
  /** samples behind the points (more than points when thinned for display) */
  sampleCount: number;
  /** x axis end: the planned duration, so a live chart fills from the left */
  durationSeconds?: number;
  /** the whole x axis, when another chart shares it (latency under load starts at −5 s) */
  xDomain?: [number, number];
};

// The right axes' widths: a chart drawn under this one on the same time axis leaves the same room.
const RETRANSMIT_AXIS_WIDTH = 44;
const JITTER_AXIS_WIDTH = 44;
const LOSS_AXIS_WIDTH = 40;

function hasRetransmitsOf(protocol: "tcp" | "udp", points: SeriesPoint[]): boolean {
  return protocol === "tcp" && points.some((point) => point.retransmits != null);
}

/** How wide the right axes of the chart are: retransmits (TCP), jitter and loss (UDP), or none. */
export function intervalChartRightInset(protocol: "tcp" | "udp", points: SeriesPoint[]): number {
  if (protocol === "udp") return JITTER_AXIS_WIDTH + LOSS_AXIS_WIDTH;
  return hasRetransmitsOf(protocol, points) ? RETRANSMIT_AXIS_WIDTH : 0;
}

/**
 * Bits/s per interval (total, and a thin line per stream when -P > 1), with retransmits
 * (TCP) or jitter and loss (UDP) on a second axis. Points arrive thinned for display.
 */
export function IntervalChart({
  points,
  streamCount,
  protocol,
  isBidir,
  lineRateBitsPerSecond,
  sampleCount,
  durationSeconds,
  xDomain,
}: Props) {
  const [unit] = useRateUnit();
  const peak = Math.max(
    lineRateBitsPerSecond,
    ...points.map((point) => Math.max(point.bps ?? 0, point.reverseBps ?? 0)),
  );
  const scale = rateScale(peak, unit);
  const showStreams = streamCount > 1;
  const hasRetransmits = hasRetransmitsOf(protocol, points);
  const hasUdpQuality = protocol === "udp";
  const end = Math.max(durationSeconds ?? 0, points.at(-1)?.t ?? 0, 1);
  return (
    <ChartFrame
      size="tall"
      label={`Throughput per interval: ${sampleCount} intervals${points.length < sampleCount ? `, drawn as ${points.length} points` : ""}`}
      data-testid="interval-chart"
      data-sample-count={sampleCount}
      data-point-count={points.length}
    >
      <ComposedChart data={points} margin={{ top: 8, right: 4, bottom: 4, left: 4 }}>
        <CartesianGrid {...GRID_PROPS} vertical={false} />
        <XAxis
          {...secondsAxisProps(end)}
          domain={xDomain ?? [0, end]}
          ticks={xDomain ? secondsTicks(xDomain) : undefined}
          allowDataOverflow={xDomain !== undefined}
        />
        <YAxis
          {...rateAxisProps(scale, [0, (max: number) => Math.max(max, lineRateBitsPerSecond) * 1.05])}
          yAxisId="rate"
        />
        {hasRetransmits ? (
          <YAxis
            {...rightAxisProps(RETRANSMIT_COLOR, RETRANSMIT_AXIS_WIDTH, "retr")}
            yAxisId="retransmits"
            allowDecimals={false}
          />
        ) : null}
        {hasUdpQuality ? (
          <>
            <YAxis
              {...rightAxisProps(JITTER_COLOR, JITTER_AXIS_WIDTH, "ms")}
              yAxisId="jitter"
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <YAxis
              {...rightAxisProps(LOSS_COLOR, LOSS_AXIS_WIDTH)}
              yAxisId="loss"
              domain={[0, (max: number) => Math.max(1, max)]}
              tickFormatter={(value: number) => `${formatNumber(value)}%`}
            />
          </>
        ) : null}
        {lineRateBitsPerSecond > 0 ? (
          <ReferenceLine
            {...LINE_RATE_LINE}
            yAxisId="rate"
            y={lineRateBitsPerSecond}
            label={{ value: "line rate", position: "insideTopRight", fill: "currentColor", fontSize: 11 }}
          />
        ) : null}
        {showStreams
          ? Array.from({ length: streamCount }, (_, index) => (
              <Line
                key={index}
                yAxisId="rate"
                dataKey={`s${index}`}
                name={`stream ${index + 1}`}
                stroke={STREAM_COLOR}
                strokeOpacity={0.45}
                strokeWidth={1}
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ))
          : null}
        <Line
          yAxisId="rate"
          dataKey="bps"
          name={isBidir ? "forward" : "total"}
          stroke={TOTAL_COLOR}
          strokeWidth={2.25}
          dot={points.length <= 60 ? { r: 2.5 } : false}
          isAnimationActive={false}
          connectNulls
        />
        {isBidir ? (
          <Line
            yAxisId="rate"
            dataKey="reverseBps"
            name="reverse"
            stroke={REVERSE_COLOR}
            strokeWidth={2.25}
            dot={points.length <= 60 ? { r: 2.5 } : false}
            isAnimationActive={false}
            connectNulls
          />
        ) : null}
        {hasRetransmits ? (
          <Line
            yAxisId="retransmits"
            dataKey="retransmits"
            name="retransmits"
            stroke={RETRANSMIT_COLOR}
            strokeWidth={1.25}
            strokeDasharray="3 3"
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        ) : null}
        {hasUdpQuality ? (
          <>
            <Line
              yAxisId="jitter"
              dataKey="jitterMs"
              name="jitter"
              stroke={JITTER_COLOR}
              strokeWidth={1.25}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
            <Line
              yAxisId="loss"
              dataKey="lostPercent"
              name="loss"
              stroke={LOSS_COLOR}
              strokeWidth={1.25}
              strokeDasharray="3 3"
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          </>
        ) : null}
        <Tooltip
          isAnimationActive={false}
          content={pointTooltip<SeriesPoint>((point) => {
            const rows = [
              { label: isBidir ? "forward" : "total", value: formatRate(point.bps, unit), color: TOTAL_COLOR },
            ];
            if (isBidir)
              rows.push({ label: "reverse", value: formatRate(point.reverseBps, unit), color: REVERSE_COLOR });
            if (point.retransmits != null)
              rows.push({ label: "retransmits", value: String(point.retransmits), color: RETRANSMIT_COLOR });
            if (point.jitterMs != null)
              rows.push({ label: "jitter", value: `${formatNumber(point.jitterMs)} ms`, color: JITTER_COLOR });
            if (point.lostPercent != null)
              rows.push({ label: "loss", value: `${formatNumber(point.lostPercent)} %`, color: LOSS_COLOR });
            if (showStreams) {
              for (let index = 0; index < Math.min(streamCount, 8); index += 1)
                rows.push({
                  label: `stream ${index + 1}`,
                  value: formatRate(point[`s${index}`], unit),
                  color: STREAM_COLOR,
                });
            }
            return (
              <TooltipBox title={`${atSeconds(point.t)}${point.omitted ? " (warm-up, omitted)" : ""}`} rows={rows} />
            );
          })}
        />
      </ComposedChart>
    </ChartFrame>
  );
}

/** The colour key under the interval chart. */
export function IntervalChartLegend({
  protocol,
  isBidir,
  streamCount,
}: {
  protocol: "tcp" | "udp";
  isBidir: boolean;
  streamCount: number;
}) {
  const items: Array<{ label: string; color: string; isDashed?: boolean; isThin?: boolean }> = [
    { label: isBidir ? "forward" : "total", color: TOTAL_COLOR },
  ];
  if (isBidir) items.push({ label: "reverse", color: REVERSE_COLOR });
  if (streamCount > 1) items.push({ label: `each of ${streamCount} streams`, color: STREAM_COLOR, isThin: true });
  if (protocol === "tcp") items.push({ label: "retransmits (right axis)", color: RETRANSMIT_COLOR, isDashed: true });
  else
    items.push({ label: "jitter, ms", color: JITTER_COLOR }, { label: "loss, %", color: LOSS_COLOR, isDashed: true });
  items.push({ label: "line rate", color: "currentColor", isDashed: true });
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <svg aria-hidden width="18" height="6">
            <line
              x1="0"
              y1="3"
              x2="18"
              y2="3"
              stroke={item.color}
              strokeWidth={item.isThin ? 1 : 2.5}
              strokeDasharray={item.isDashed ? "4 3" : undefined}
            />
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
}
