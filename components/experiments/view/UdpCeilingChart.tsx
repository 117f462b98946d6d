"use client";

import { Bar, CartesianGrid, Cell, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { categoryAxisProps, GRID_PROPS, rightAxisProps, useRateAxis } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { pointTooltip, TooltipBox } from "@/components/charts/ChartTooltip";
import { COMPARE_COLORS } from "@/components/charts/colors";
import { formatPercent, formatRate } from "@/lib/format";
import type { UdpCeilingResult } from "@/lib/experiments/contract";
import { ChartKey } from "./ChartKey";

const RECEIVED_COLOR = COMPARE_COLORS[0];
const CEILING_COLOR = COMPARE_COLORS[2];
const LOSS_COLOR = "#dc2626";

type Point = {
  label: string;
  bitrate: number;
  received: number | null;
  loss: number | null;
  isCeiling: boolean;
  order: number;
};

/** Each bitrate tried (in rising order): what arrived, as bars, and the loss, as a line on its own axis. */
export function UdpCeilingChart({
  result,
  lossPercent,
  lineRateBitsPerSecond,
}: {
  result: UdpCeilingResult;
  lossPercent: number;
  lineRateBitsPerSecond: number;
}) {
  const peak = Math.max(
    lineRateBitsPerSecond,
    ...result.steps.map((step) => Math.max(step.bitrate, step.receivedBitsPerSecond ?? 0)),
  );
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const data: Point[] = result.steps
    .map((step, index) => ({
      label: formatRate(step.bitrate, unit),
      bitrate: step.bitrate,
      received: step.receivedBitsPerSecond,
      loss: step.lostPercent,
      isCeiling: step.bitrate === result.bitsPerSecond,
      order: index + 1,
    }))
    .sort((a, b) => a.bitrate - b.bitrate);
  const maxLoss = Math.max(lossPercent * 2, ...data.map((point) => point.loss ?? 0));
  const isSlanted = data.length > 4;
  return (
    <div>
      <ChartFrame
        size="tall"
        label={`Received rate and loss for each of the ${data.length} bitrates tried`}
        data-testid="udp-ceiling-chart"
        data-point-count={data.length}
      >
        <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 18, left: 4 }}>
          <CartesianGrid {...GRID_PROPS} vertical={false} />
          <XAxis
            {...categoryAxisProps("bitrate tried")}
            interval={0}
            // Many bitrates side by side only fit a phone's width slanted.
            angle={isSlanted ? -35 : 0}
            textAnchor={isSlanted ? "end" : "middle"}
            height={isSlanted ? 64 : 30}
            tick={{ fill: "currentColor", fontSize: 11 }}
          />
          <YAxis yAxisId="rate" {...rateAxis} />
          <YAxis
            {...rightAxisProps(LOSS_COLOR, 44)}
            yAxisId="loss"
            domain={[0, maxLoss]}
            tickFormatter={(value: number) => `${Number(value.toFixed(2))}%`}
          />
          <ReferenceLine yAxisId="loss" y={lossPercent} stroke={LOSS_COLOR} strokeDasharray="4 3" strokeOpacity={0.8} />
          <Bar yAxisId="rate" dataKey="received" name="received" isAnimationActive={false} maxBarSize={48}>
            {data.map((point) => (
              <Cell key={point.bitrate} fill={point.isCeiling ? CEILING_COLOR : RECEIVED_COLOR} />
            ))}
          </Bar>
          <Line
            yAxisId="loss"
            dataKey="loss"
            name="loss"
            stroke={LOSS_COLOR}
            strokeWidth={1.75}
            dot={{ r: 3, fill: LOSS_COLOR }}
            isAnimationActive={false}
            connectNulls
          />
          <Tooltip
            isAnimationActive={false}
            cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
            content={pointTooltip<Point>((point) => (
              <TooltipBox
                title={`${formatRate(point.bitrate, unit)} (step ${point.order})${point.isCeiling ? " · the ceiling" : ""}`}
                rows={[
                  {
                    label: "received",
                    value: formatRate(point.received, unit),
                    color: point.isCeiling ? CEILING_COLOR : RECEIVED_COLOR,
                  },
                  { label: "loss", value: formatPercent(point.loss, 2), color: LOSS_COLOR },
                ]}
              />
            ))}
          />
        </ComposedChart>
      </ChartFrame>
      <ChartKey
        items={[
          { label: "received", color: RECEIVED_COLOR },
          { label: "the ceiling", color: CEILING_COLOR },
          { label: "loss, % (right axis)", color: LOSS_COLOR, shape: "line" },
          { label: `loss limit, ${lossPercent} %`, color: LOSS_COLOR, shape: "dashed" },
        ]}
      />
    </div>
  );
}
