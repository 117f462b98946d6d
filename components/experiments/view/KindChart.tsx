"use client";

import { COMPARE_COLORS } from "@/components/charts/colors";
import type { ExperimentJson, ResultOf } from "@/lib/experiments/contract";
import { directionWord } from "@/lib/experiments/kinds/figures";
import { RateBars } from "./RateBars";
import { SweepChart } from "./SweepChart";
import { UdpCeilingChart } from "./UdpCeilingChart";

const LINE_RATE_COLOR = "#94a3b8";

/** The chart that reads each kind's result best: a knee curve, bars per cell, link or channel, the bitrates tried. */
export function KindChart({ experiment }: { experiment: ExperimentJson }) {
  const { plan, result, links } = experiment;
  if (!result) return null;
  const lineRate = (links[0]?.speedMbps ?? 0) * 1e6;
  const linkName = (id: number) => links.find((link) => link.id === id)?.name ?? `link #${id}`;
  switch (plan.kind) {
    case "sweep": {
      const sweep = result as ResultOf<"sweep">;
      return sweep.rows.length ? <SweepChart result={sweep} lineRateBitsPerSecond={lineRate} kneePercent={plan.kneePercent} /> : null;
    }
    case "matrix": {
      const { rows } = result as ResultOf<"matrix">;
      const hasBack = rows.some((row) => row.reverseReceivedBitsPerSecond !== null);
      // Short labels, so that they fit beside the bars on a phone: the client side only when it varies.
      const hasBothSides = plan.clientSides.length > 1;
      return rows.length ? (
        <RateBars
          testId="matrix-chart"
          label={`Received rate of each of the ${rows.length} cells`}
          lineRateBitsPerSecond={lineRate}
          series={[{ key: "received", label: hasBack ? "received (a⇄b: forward)" : "received", color: COMPARE_COLORS[0] }, ...(hasBack ? [{ key: "back", label: "received back (a⇄b)", color: COMPARE_COLORS[7] }] : [])]}
          groups={rows.map((row) => ({ label: `${row.protocol.toUpperCase()} ${directionWord(row.direction)}${hasBothSides ? `, client ${row.clientSide}` : ""}`, values: { received: row.receivedBitsPerSecond, back: row.reverseReceivedBitsPerSecond } }))}
        />
      ) : null;
    }
    case "concurrent": {
      const concurrent = result as ResultOf<"concurrent">;
      const aloneSum = concurrent.rows.every((row) => row.aloneBitsPerSecond !== null) ? concurrent.rows.reduce((sum, row) => sum + (row.aloneBitsPerSecond ?? 0), 0) : null;
      return concurrent.rows.length ? (
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
              values: { lineRate: (links.find((link) => link.id === row.linkId)?.speedMbps ?? 0) * 1e6 || null, alone: row.aloneBitsPerSecond, together: row.togetherBitsPerSecond },
            })),
            { label: "All links", values: { lineRate: concurrent.lineRateSumBitsPerSecond || null, alone: aloneSum, together: concurrent.aggregateBitsPerSecond } },
          ]}
        />
      ) : null;
    }
    case "channels": {
      const channels = result as ResultOf<"channels">;
      return channels.rows.length ? (
        <RateBars
          testId="channels-chart"
          label={`Sent and received by each of the ${channels.rows.length} channels`}
          series={[
            { key: "sent", label: "sent", color: COMPARE_COLORS[5] },
            { key: "received", label: "received", color: COMPARE_COLORS[0] },
          ]}
          groups={channels.rows.map((row) => ({ label: `channel ${row.channel}`, values: { sent: row.sentBitsPerSecond, received: row.receivedBitsPerSecond } }))}
        />
      ) : null;
    }
    case "udp-ceiling": {
      const ceiling = result as ResultOf<"udp-ceiling">;
      return ceiling.steps.length ? <UdpCeilingChart result={ceiling} lossPercent={plan.lossPercent} lineRateBitsPerSecond={lineRate} /> : null;
    }
  }
}
