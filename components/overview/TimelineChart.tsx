"use client";

import { Area, CartesianGrid, ComposedChart, Tooltip, XAxis, YAxis } from "recharts";
import { clockAxisProps, clockTicks, formatClockTime, GRID_PROPS, useRateAxis } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { TooltipBox } from "@/components/charts/ChartTooltip";
import { formatRate } from "@/lib/format";

export type TimelineSeries = { linkId: number; name: string; color: string; points: Array<[number, number]> };

type PlotPoint = { x: number; y: number };

/** Throughput of every link over wall-clock time: each run its intervals, one colour per link. */
export function TimelineChart({ series, from, to }: { series: TimelineSeries[]; from: number; to: number }) {
  const peak = Math.max(1, ...series.flatMap((entry) => entry.points.map(([, y]) => y)));
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const pointCount = series.reduce((sum, entry) => sum + entry.points.length, 0);
  return (
    <div>
      <ChartFrame
        size="medium"
        label={`Throughput of ${series.length} links over time`}
        data-testid="timeline-chart"
        data-point-count={pointCount}
      >
        <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid {...GRID_PROPS} />
          <XAxis
            {...clockAxisProps(to - from)}
            domain={[from, to]}
            allowDataOverflow
            ticks={clockTicks(from, to)}
            interval="preserveStartEnd"
            minTickGap={16}
          />
          <YAxis {...rateAxis} dataKey="y" type="number" />
          {series.map((entry) => (
            <Area
              key={entry.linkId}
              name={entry.name}
              data={entry.points.map(([x, y]): PlotPoint => ({ x, y }))}
              dataKey="y"
              type="linear"
              stroke={entry.color}
              strokeWidth={1.5}
              fill={entry.color}
              fillOpacity={0.18}
              dot={false}
              activeDot={{ r: 3 }}
              isAnimationActive={false}
            />
          ))}
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload }) => {
              const items = active
                ? (payload ?? []).filter((item) => typeof (item.payload as PlotPoint | undefined)?.y === "number")
                : [];
              if (items.length === 0) return null;
              const x = (items[0]!.payload as PlotPoint).x;
              return (
                <TooltipBox
                  title={formatClockTime(x)}
                  rows={items.map((item) => ({
                    label: String(item.name),
                    value: formatRate((item.payload as PlotPoint).y, unit),
                    color: String(item.color ?? item.stroke ?? ""),
                  }))}
                />
              );
            }}
          />
        </ComposedChart>
      </ChartFrame>
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
        aria-label="Links on the timeline"
      >
        {series.map((entry) => (
          <li
            key={entry.linkId}
            className="flex items-center gap-1.5"
            data-testid="timeline-series"
            data-link-name={entry.name}
            data-point-count={entry.points.length}
          >
            <span
              aria-hidden
              className="inline-block h-2.5 w-2.5 rounded-full"
              style={{ backgroundColor: entry.color }}
            />
            {entry.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
