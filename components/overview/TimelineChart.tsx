"use client";

import { Area, CartesianGrid, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { TooltipBox } from "@/components/charts/ChartTooltip";
import { formatNumber, formatRate, rateScale } from "@/components/units/rate";
import { useRateUnit } from "@/components/units/useRateUnit";

export type TimelineSeries = { linkId: number; name: string; color: string; points: Array<[number, number]> };

type PlotPoint = { x: number; y: number };

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric" });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** Ticks on whole hours (6 h: every hour, 24 h: every 4) or local midnights (7 days). */
function timeTicks(from: number, to: number): number[] {
  const span = to - from;
  const ticks: number[] = [];
  if (span > 36 * 3600 * 1000) {
    const day = new Date(from);
    day.setHours(24, 0, 0, 0);
    for (; day.getTime() <= to; day.setDate(day.getDate() + 1)) ticks.push(day.getTime());
    return ticks;
  }
  const stepHours = span > 8 * 3600 * 1000 ? 4 : 1;
  const tick = new Date(from);
  tick.setMinutes(0, 0, 0);
  tick.setHours(Math.ceil((tick.getHours() + (tick.getTime() < from ? 1 : 0)) / stepHours) * stepHours);
  for (; tick.getTime() <= to; tick.setHours(tick.getHours() + stepHours)) ticks.push(tick.getTime());
  return ticks;
}

/** Throughput of every link over wall-clock time: each run its intervals, one colour per link. */
export function TimelineChart({ series, from, to }: { series: TimelineSeries[]; from: number; to: number }) {
  const [unit] = useRateUnit();
  const peak = Math.max(1, ...series.flatMap((entry) => entry.points.map(([, y]) => y)));
  const scale = rateScale(peak, unit);
  const tickFormat = to - from > 36 * 3600 * 1000 ? dayFormat : timeFormat;
  const pointCount = series.reduce((sum, entry) => sum + entry.points.length, 0);
  return (
    <div>
      <div className="h-56 w-full text-slate-600 sm:h-64 dark:text-slate-300" data-testid="timeline-chart" data-point-count={pointCount} role="img" aria-label={`Throughput of ${series.length} links over time`}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
            <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
            <XAxis
              dataKey="x"
              type="number"
              scale="time"
              domain={[from, to]}
              allowDataOverflow
              ticks={timeTicks(from, to)}
              interval="preserveStartEnd"
              minTickGap={16}
              tick={{ fill: "currentColor", fontSize: 12 }}
              stroke="currentColor"
              strokeOpacity={0.4}
              tickFormatter={(value: number) => tickFormat.format(new Date(value))}
            />
            <YAxis
              dataKey="y"
              type="number"
              width={56}
              domain={[0, "auto"]}
              tick={{ fill: "currentColor", fontSize: 12 }}
              stroke="currentColor"
              strokeOpacity={0.4}
              tickFormatter={(value: number) => formatNumber(value / scale.divisor)}
              label={{ value: scale.label, angle: -90, position: "insideLeft", fill: "currentColor", fontSize: 12, dx: 4 }}
            />
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
                const items = active ? (payload ?? []).filter((item) => typeof (item.payload as PlotPoint | undefined)?.y === "number") : [];
                if (items.length === 0) return null;
                const x = (items[0]!.payload as PlotPoint).x;
                return (
                  <TooltipBox
                    title={fullFormat.format(new Date(x))}
                    rows={items.map((item) => ({ label: String(item.name), value: formatRate((item.payload as PlotPoint).y, unit), color: String(item.color ?? item.stroke ?? "") }))}
                  />
                );
              }}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300" aria-label="Links on the timeline">
        {series.map((entry) => (
          <li key={entry.linkId} className="flex items-center gap-1.5" data-testid="timeline-series" data-link-name={entry.name} data-point-count={entry.points.length}>
            <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: entry.color }} />
            {entry.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
