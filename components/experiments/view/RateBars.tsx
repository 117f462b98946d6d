"use client";

import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, GRID_PROPS, LINE_RATE_LINE, rateAxisProps } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { TooltipBox } from "@/components/charts/ChartTooltip";
import { formatRate, rateScale } from "@/lib/format";
import { useRateUnit } from "@/components/units/useRateUnit";
import { ChartKey } from "./ChartKey";

export type RateBarSeries = { key: string; label: string; color: string };
export type RateBarGroup = { label: string; values: Record<string, number | null> };

type Props = {
  groups: RateBarGroup[];
  series: RateBarSeries[];
  /** a dashed line across the bars: the line rate they are measured against */
  lineRateBitsPerSecond?: number | null;
  label: string;
  testId: string;
};

const BAR_HEIGHT = 14;

/**
 * Rates as horizontal bars, one group per row of the result (a matrix cell, a link, a channel),
 * one bar per series: the names stay readable on a phone, where upright bars would squeeze them.
 */
export function RateBars({ groups, series, lineRateBitsPerSecond, label, testId }: Props) {
  const [unit] = useRateUnit();
  const peak = Math.max(
    lineRateBitsPerSecond ?? 0,
    ...groups.flatMap((group) => series.map((entry) => group.values[entry.key] ?? 0)),
  );
  const scale = rateScale(peak, unit);
  // The rate axis of the time charts, turned on its side: its ticks, colours and unit.
  const { stroke, strokeOpacity, tickFormatter } = rateAxisProps(scale, [0, "auto"]);
  const data = groups.map((group) => ({ label: group.label, ...group.values }));
  const labelWidth = Math.min(170, Math.max(56, ...groups.map((group) => group.label.length * 8 + 16)));
  const height = groups.length * (series.length * BAR_HEIGHT + 18) + 48;
  return (
    <div>
      <ChartFrame size="fitted" height={height} label={label} data-testid={testId} data-group-count={groups.length}>
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 4, right: 16, bottom: 18, left: 4 }}
          barGap={2}
          barCategoryGap={10}
        >
          <CartesianGrid {...GRID_PROPS} horizontal={false} />
          <XAxis
            type="number"
            domain={[0, "auto"]}
            tick={{ fill: "currentColor", fontSize: 12 }}
            stroke={stroke}
            strokeOpacity={strokeOpacity}
            tickFormatter={tickFormatter}
            label={{
              value: scale.label,
              position: "insideBottomRight",
              offset: -12,
              fill: "currentColor",
              fontSize: 12,
            }}
          />
          <YAxis {...AXIS_STYLE} type="category" dataKey="label" width={labelWidth} interval={0} />
          {lineRateBitsPerSecond ? (
            <ReferenceLine
              {...LINE_RATE_LINE}
              x={lineRateBitsPerSecond}
              ifOverflow="extendDomain"
              label={{ value: "line rate", position: "insideTopRight", fill: "currentColor", fontSize: 11 }}
            />
          ) : null}
          {series.map((entry) => (
            <Bar
              key={entry.key}
              dataKey={entry.key}
              name={entry.label}
              fill={entry.color}
              barSize={BAR_HEIGHT}
              isAnimationActive={false}
            />
          ))}
          <Tooltip
            isAnimationActive={false}
            cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
            content={({ active, payload, label: groupLabel }) =>
              active && payload?.length ? (
                <TooltipBox
                  title={String(groupLabel)}
                  rows={payload.map((item) => ({
                    label: String(item.name),
                    value: formatRate(item.value as number | null, unit),
                    color: item.color,
                  }))}
                />
              ) : null
            }
          />
        </BarChart>
      </ChartFrame>
      <ChartKey
        items={[
          ...series.map((entry) => ({ label: entry.label, color: entry.color })),
          ...(lineRateBitsPerSecond ? [{ label: "line rate", color: "currentColor", shape: "dashed" as const }] : []),
        ]}
      />
    </div>
  );
}
