"use client";

import { CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { atSeconds, GRID_PROPS, LINE_RATE_LINE, secondsAxisProps, useRateAxis } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { pointTooltip, TooltipBox } from "@/components/charts/ChartTooltip";
import { COMPARE_COLORS } from "@/components/charts/colors";
import { LiveRateAnnouncer } from "@/components/charts/LiveAnnouncer";
import { formatRate } from "@/lib/format";
import type { SeriesPoint } from "@/lib/runs/series";
import { ChartKey } from "./ChartKey";
import type { LiveLine, LiveStep } from "./live-series";

const REVERSE_COLOR = "#db2777";

type Props = {
  live: LiveStep;
  /** the experiment's links, to name the lines and add up their line rates */
  links: { id: number; name: string; speedMbps: number }[];
  /** the x axis end: the step's planned seconds, so the chart fills from the left */
  durationSeconds: number | null;
};

function lineLabel(line: LiveLine, links: Props["links"]): string {
  if (line.channel !== null) return `channel ${line.channel}`;
  return links.find((link) => link.id === line.linkId)?.name ?? `link #${line.linkId}`;
}

/** The current step as it runs: a line per link or channel, and their total (thick) when there are several. */
export function LiveStepChart({ live, links, durationSeconds }: Props) {
  const { points, lines } = live;
  const isSeveral = lines.length > 1;
  // The line rate the total is measured against: the sum over the step's distinct links.
  const lineRate = [...new Set(lines.map((line) => line.linkId))].reduce(
    (sum, linkId) => sum + (links.find((link) => link.id === linkId)?.speedMbps ?? 0) * 1e6,
    0,
  );
  const peak = Math.max(lineRate, ...points.map((point) => Math.max(point.bps ?? 0, point.reverseBps ?? 0)));
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const hasReverse = points.some((point) => point.reverseBps !== null);
  const end = Math.max(durationSeconds ?? 0, live.lastEnd, 1);
  const lineRateLabel = new Set(lines.map((line) => line.linkId)).size > 1 ? "line rates, summed" : "line rate";
  const totalLabel = isSeveral ? "total" : lines[0] ? lineLabel(lines[0], links) : "total";
  return (
    <div>
      <LiveRateAnnouncer points={points} sampleCount={live.sampleCount} prefix="This step: " />
      <ChartFrame
        size="large"
        label={`This step's throughput per interval: ${lines.length} run${lines.length === 1 ? "" : "s"}, ${live.sampleCount} intervals`}
        data-testid="live-step-chart"
        data-sample-count={live.sampleCount}
        data-line-count={lines.length}
      >
        <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
          <CartesianGrid {...GRID_PROPS} vertical={false} />
          <XAxis {...secondsAxisProps(end)} />
          <YAxis {...rateAxis} />
          {lineRate > 0 ? <ReferenceLine {...LINE_RATE_LINE} y={lineRate} ifOverflow="extendDomain" /> : null}
          {isSeveral
            ? lines.map((line, index) => (
                <Line
                  key={line.key}
                  dataKey={line.key}
                  name={lineLabel(line, links)}
                  stroke={COMPARE_COLORS[index % COMPARE_COLORS.length]}
                  strokeWidth={1.5}
                  dot={false}
                  isAnimationActive={false}
                  connectNulls
                />
              ))
            : null}
          <Line
            dataKey="bps"
            name={totalLabel}
            stroke="currentColor"
            className="text-slate-900 dark:text-slate-50"
            strokeWidth={2.5}
            dot={points.length <= 60 ? { r: 2.5 } : false}
            isAnimationActive={false}
            connectNulls
          />
          {hasReverse ? (
            <Line
              dataKey="reverseBps"
              name="reverse"
              stroke={REVERSE_COLOR}
              strokeWidth={2}
              strokeDasharray="5 3"
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ) : null}
          <Tooltip
            isAnimationActive={false}
            content={pointTooltip<SeriesPoint>((point) => {
              const rows = [{ label: totalLabel, value: formatRate(point.bps, unit) }];
              if (hasReverse) rows.push({ label: "reverse", value: formatRate(point.reverseBps, unit) });
              if (isSeveral)
                for (const line of lines)
                  rows.push({ label: lineLabel(line, links), value: formatRate(point[line.key], unit) });
              return (
                <TooltipBox title={`${atSeconds(point.t)}${point.omitted ? " (warm-up, omitted)" : ""}`} rows={rows} />
              );
            })}
          />
        </ComposedChart>
      </ChartFrame>
      <ChartKey
        items={[
          { label: totalLabel, color: "currentColor", shape: "line" },
          ...(hasReverse ? [{ label: "reverse", color: REVERSE_COLOR, shape: "dashed" as const }] : []),
          ...(isSeveral
            ? lines.map((line, index) => ({
                label: lineLabel(line, links),
                color: COMPARE_COLORS[index % COMPARE_COLORS.length]!,
                shape: "line" as const,
              }))
            : []),
          ...(lineRate > 0 ? [{ label: lineRateLabel, color: "currentColor", shape: "dashed" as const }] : []),
        ]}
      />
    </div>
  );
}
