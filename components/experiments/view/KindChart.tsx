"use client";

import { COMPARE_COLORS } from "@/components/charts/colors";
import { DownloadChart } from "@/components/charts/DownloadChart";
import type { ExperimentJson, ResultOf } from "@/lib/experiments/contract";
import { directionWord } from "@/lib/experiments/kinds/figures";
import { InterferenceHeatmap } from "./InterferenceHeatmap";
import { MeshGrid } from "./MeshGrid";
import { RateBars } from "./RateBars";
import { SweepChart } from "./SweepChart";
import { UdpCeilingChart } from "./UdpCeilingChart";
import { VersusChart } from "./VersusChart";

const LINE_RATE_COLOR = "#94a3b8";

// The kinds whose result is drawn in HTML (a grid or a heatmap of pairs as a table, a versus's two
// bands), not as a chart's SVG: nothing for Download chart to draw.
const HTML_KINDS: ReadonlySet<string> = new Set(["mesh", "interference", "versus"]);

/**
 * The kind's chart in its card, with Download chart under a drawn one, or nothing while no step
 * measured a rate (a run cancelled before its summary).
 */
export function KindChart({ experiment }: { experiment: ExperimentJson }) {
  const chart = kindChartOf(experiment);
  if (!chart) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      {HTML_KINDS.has(experiment.plan.kind) ? (
        chart
      ) : (
        <DownloadChart
          fileName={`wirespeed-experiment-${experiment.id}.png`}
          title={`Wirespeed experiment #${experiment.id}: ${experiment.name || experiment.plan.kind}`}
        >
          {chart}
        </DownloadChart>
      )}
    </div>
  );
}

const hasAny = (values: (number | null)[]) => values.some((value) => value !== null);

/**
 * The chart that reads each kind's result best: a knee curve, bars per cell, link or channel, the
 * bitrates tried, a heatmap of pairs, A against B.
 */
function kindChartOf(experiment: ExperimentJson) {
  const { plan, result, links } = experiment;
  if (!result) return null;
  const lineRate = (links[0]?.speedMbps ?? 0) * 1e6;
  const linkName = (id: number) => links.find((link) => link.id === id)?.name ?? `link #${id}`;
  switch (plan.kind) {
    case "sweep": {
      const sweep = result as ResultOf<"sweep">;
      return hasAny(sweep.rows.map((row) => row.receivedBitsPerSecond)) ? (
        <SweepChart result={sweep} lineRateBitsPerSecond={lineRate} kneePercent={plan.kneePercent} />
      ) : null;
    }
    case "matrix": {
      const { rows } = result as ResultOf<"matrix">;
      const hasBack = rows.some((row) => row.reverseReceivedBitsPerSecond !== null);
      // Short labels, so that they fit beside the bars on a phone: the client side only when it varies.
      const hasBothSides = plan.clientSides.length > 1;
      return hasAny(rows.flatMap((row) => [row.receivedBitsPerSecond, row.reverseReceivedBitsPerSecond])) ? (
        <RateBars
          testId="matrix-chart"
          label={`Received rate of each of the ${rows.length} cells`}
          lineRateBitsPerSecond={lineRate}
          series={[
            { key: "received", label: hasBack ? "received (a⇄b: forward)" : "received", color: COMPARE_COLORS[0] },
            ...(hasBack ? [{ key: "back", label: "received back (a⇄b)", color: COMPARE_COLORS[7] }] : []),
          ]}
          groups={rows.map((row) => ({
            label: `${row.protocol.toUpperCase()} ${directionWord(row.direction)}${hasBothSides ? `, client ${row.clientSide}` : ""}`,
            values: { received: row.receivedBitsPerSecond, back: row.reverseReceivedBitsPerSecond },
          }))}
        />
      ) : null;
    }
    case "concurrent": {
      const concurrent = result as ResultOf<"concurrent">;
      const aloneSum = concurrent.rows.every((row) => row.aloneBitsPerSecond !== null)
        ? concurrent.rows.reduce((sum, row) => sum + (row.aloneBitsPerSecond ?? 0), 0)
        : null;
      return hasAny(concurrent.rows.flatMap((row) => [row.aloneBitsPerSecond, row.togetherBitsPerSecond])) ? (
        <RateBars
          testId="concurrent-chart"
          label={`Each link alone and together, and all ${concurrent.rows.length} links summed against their line rates`}
          series={[
            { key: "lineRate", label: "line rate", color: LINE_RATE_COLOR },
            ...(plan.baseline ? [{ key: "alone", label: "alone", color: COMPARE_COLORS[0] }] : []),
            { key: "together", label: "together", color: COMPARE_COLORS[1] },
          ]}
          groups={[
            ...concurrent.rows.map((row) => ({
              label: linkName(row.linkId),
              values: {
                lineRate: (links.find((link) => link.id === row.linkId)?.speedMbps ?? 0) * 1e6 || null,
                alone: row.aloneBitsPerSecond,
                together: row.togetherBitsPerSecond,
              },
            })),
            {
              label: "All links",
              values: {
                lineRate: concurrent.lineRateSumBitsPerSecond || null,
                alone: aloneSum,
                together: concurrent.aggregateBitsPerSecond,
              },
            },
          ]}
        />
      ) : null;
    }
    case "channels": {
      const channels = result as ResultOf<"channels">;
      return hasAny(channels.rows.flatMap((row) => [row.sentBitsPerSecond, row.receivedBitsPerSecond])) ? (
        <RateBars
          testId="channels-chart"
          label={`Sent and received by each of the ${channels.rows.length} channels`}
          series={[
            { key: "sent", label: "sent", color: COMPARE_COLORS[5] },
            { key: "received", label: "received", color: COMPARE_COLORS[0] },
          ]}
          groups={channels.rows.map((row) => ({
            label: `channel ${row.channel}`,
            values: { sent: row.sentBitsPerSecond, received: row.receivedBitsPerSecond },
          }))}
        />
      ) : null;
    }
    case "udp-ceiling": {
      const ceiling = result as ResultOf<"udp-ceiling">;
      return hasAny(ceiling.steps.map((step) => step.receivedBitsPerSecond)) ? (
        <UdpCeilingChart result={ceiling} lossPercent={plan.lossPercent} lineRateBitsPerSecond={lineRate} />
      ) : null;
    }
    case "mesh": {
      const mesh = result as ResultOf<"mesh">;
      return mesh.grid.hosts.length > 0 ? <MeshGrid grid={mesh.grid} /> : null;
    }
    case "interference": {
      const interference = result as ResultOf<"interference">;
      // The plan's order, and every link of it, measured or not yet.
      const planLinks = plan.linkIds.map((id) => ({ id, name: linkName(id) }));
      return <InterferenceHeatmap result={interference} links={planLinks} />;
    }
    case "versus": {
      const versus = result as ResultOf<"versus">;
      const fastest = Math.max(0, ...links.map((link) => link.speedMbps)) * 1e6;
      return hasAny(versus.sides.map((side) => side.medianBitsPerSecond)) ? (
        <VersusChart result={versus} lineRateBitsPerSecond={fastest || null} />
      ) : null;
    }
  }
}
