"use client";

import { useRouter } from "next/navigation";
import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { SERIES_COLORS } from "@/components/charts/colors";
import { DIRECTION_ARROWS } from "@/lib/runs/describe";
import { formatNumber, formatRate } from "@/components/units/rate";
import type { RunDirection } from "@/lib/runs/contract";
import { clockAxisProps, formatClockTime, GRID_PROPS, useRateAxis } from "./axes";
import { TooltipBox } from "./ChartTooltip";

export type HistoryPoint = { id: number; time: string; receivedBitsPerSecond: number; protocol: "tcp" | "udp"; direction: RunDirection; parallel: number; status: string };

type PlotPoint = HistoryPoint & { x: number; y: number };

const SERIES_LABELS: Record<keyof typeof SERIES_COLORS, string> = {
  "tcp:a-to-b": "TCP →",
  "tcp:b-to-a": "TCP ←",
  "tcp:bidir": "TCP ⇄",
  "udp:a-to-b": "UDP →",
  "udp:b-to-a": "UDP ←",
  "udp:bidir": "UDP ⇄",
};

/** Each run of a link as a point: received rate over time, coloured by protocol and direction; line rate as a reference line. */
export function LinkHistoryChart({ points, lineRateBitsPerSecond, aName, bName }: { points: HistoryPoint[]; lineRateBitsPerSecond: number; aName: string; bName: string }) {
  const router = useRouter();
  const peak = Math.max(lineRateBitsPerSecond, ...points.map((point) => point.receivedBitsPerSecond));
  const { unit, rateAxis } = useRateAxis(peak, [0, peak * 1.08]);
  const groups = new Map<keyof typeof SERIES_COLORS, PlotPoint[]>();
  for (const point of points) {
    const key = `${point.protocol}:${point.direction}` as keyof typeof SERIES_COLORS;
    const list = groups.get(key) ?? [];
    list.push({ ...point, x: Date.parse(point.time), y: point.receivedBitsPerSecond });
    groups.set(key, list);
  }
  const times = points.map((point) => Date.parse(point.time));
  const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
  const padding = Math.max(span * 0.03, 60_000);
  return (
    <div>
      <div className="h-64 w-full text-slate-600 sm:h-72 dark:text-slate-300" data-testid="history-chart" data-point-count={points.length} role="img" aria-label={`Received rate of ${points.length} runs over time`}>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
            <CartesianGrid {...GRID_PROPS} />
            <XAxis {...clockAxisProps(span)} name="time" domain={times.length ? [Math.min(...times) - padding, Math.max(...times) + padding] : ["auto", "auto"]} />
            <YAxis {...rateAxis} dataKey="y" type="number" />
            <ReferenceLine y={lineRateBitsPerSecond} stroke="currentColor" strokeDasharray="6 4" strokeOpacity={0.7} label={{ value: `line rate ${formatRate(lineRateBitsPerSecond, unit)}`, position: "insideBottomRight", fill: "currentColor", fontSize: 11 }} />
            {[...groups.entries()].map(([key, data]) => (
              <Scatter
                key={key}
                name={SERIES_LABELS[key]}
                data={data}
                fill={SERIES_COLORS[key]}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(entry) => {
                  const id = (entry as unknown as { payload?: PlotPoint }).payload?.id;
                  if (id) router.push(`/runs/${id}`);
                }}
              />
            ))}
            <Tooltip
              isAnimationActive={false}
              cursor={{ strokeDasharray: "3 3" }}
              content={({ active, payload }) => {
                const point = active ? (payload?.[0]?.payload as PlotPoint | undefined) : undefined;
                if (!point) return null;
                return (
                  <TooltipBox
                    title={`Run #${point.id} · ${formatClockTime(point.x)}`}
                    rows={[
                      { label: `${point.protocol.toUpperCase()}${point.parallel > 1 ? ` ×${point.parallel}` : ""} ${DIRECTION_ARROWS[point.direction]}`, value: formatRate(point.y, unit), color: SERIES_COLORS[`${point.protocol}:${point.direction}`] },
                      { label: "of line rate", value: lineRateBitsPerSecond > 0 ? `${formatNumber((point.y / lineRateBitsPerSecond) * 100)} %` : "–" },
                    ]}
                  />
                );
              }}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300" aria-label="Colours">
        {[...groups.keys()].map((key) => (
          <li key={key} className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: SERIES_COLORS[key] }} />
            {SERIES_LABELS[key].replace("→", `${aName} → ${bName}`).replace("←", `${bName} → ${aName}`).replace("⇄", "both ways")}
          </li>
        ))}
        <li className="flex items-center gap-1.5">
          <svg aria-hidden width="18" height="6">
            <line x1="0" y1="3" x2="18" y2="3" stroke="currentColor" strokeWidth={2} strokeDasharray="4 3" />
          </svg>
          line rate
        </li>
      </ul>
    </div>
  );
}
