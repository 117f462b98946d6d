// An experiment's plan in a line, for its page's heading. Pure.
import type { ExperimentPlan } from "@/lib/experiments/contract";
import { directionWord } from "@/lib/experiments/kinds/figures";
import { SWEEP_FACTOR_LABELS, sweepValueText } from "@/lib/experiments/kinds/sweep";
import { UDP_CEILING } from "@/lib/experiments/kinds/udp-ceiling";
import { parseStoredOptions, RUN_DIRECTIONS, type RunDirection } from "@/lib/runs/contract";
import { describeOptions } from "@/lib/runs/describe";
import { formatBitRate } from "@/lib/format";

/** What the plan steps through: "Streams 1, 2, 4 · 3 runs each · knee at 95 % of the best". */
export function describePlanSteps(plan: ExperimentPlan): string {
  switch (plan.kind) {
    case "sweep":
      return [
        `${SWEEP_FACTOR_LABELS[plan.factor]} ${plan.values.map((value) => sweepValueText(plan.factor, value)).join(", ")}`,
        plan.repeats > 1 ? `${plan.repeats} runs each` : null,
        `knee at ${plan.kneePercent} % of the best`,
      ]
        .filter(Boolean)
        .join(" · ");
    case "matrix":
      return (
        `${plan.protocols.map((protocol) => protocol.toUpperCase()).join(" and ")} × ` +
        `${plan.directions.map(directionWord).join(", ")} × client on ${plan.clientSides.join(" and ")}`
      );
    case "concurrent":
      return `${plan.linkIds.length} links at once${plan.baseline ? ", each alone first" : ""}`;
    case "channels":
      return `${plan.channels} iperf3 pairs on ${plan.channels} ports at once${plan.affinity ? ", each pinned to a CPU" : ""}`;
    case "udp-ceiling":
      return (
        `Highest UDP bitrate with loss ≤ ${plan.lossPercent} %, ` +
        `from ${plan.low ? formatBitRate(plan.low) : `${UDP_CEILING.defaultLowShare * 100} % of the top`} ` +
        `up to ${plan.high ? formatBitRate(plan.high) : "the line rate"}`
      );
    case "mesh":
      return `${plan.hostIds ? `Every link among ${plan.hostIds.length} hosts` : `${plan.linkIds.length} links`}, each both ways, one run at a time`;
    case "interference": {
      const count = plan.linkIds.length;
      return `${count} links each alone, then the ${(count * (count - 1)) / 2} pairs of them together`;
    }
    case "versus": {
      const [a, b] = plan.variants?.map((variant) => variant.name) ?? ["link A", "link B"];
      return `A (${a}) against B (${b}), alternately, ${plan.repeats} runs each`;
    }
  }
}

/** The options every run shares: "TCP 2s →", as the runs table writes them; a matrix's cells set their own protocol and direction, a mesh's runs their direction. */
export function describeBaseOptions(plan: ExperimentPlan): string {
  const options = parseStoredOptions(plan.options);
  // The runs table's words without the arrow (last), and a matrix's without the protocol (first) too.
  if (plan.kind === "matrix" || plan.kind === "mesh") {
    const words = describeOptions({ ...options, latency: false }, "a-to-b")
      .split(" ")
      .slice(plan.kind === "matrix" ? 1 : 0, -1)
      .join(" ");
    return options.latency ? `${words} + latency` : words;
  }
  const direction: RunDirection = (RUN_DIRECTIONS as readonly unknown[]).includes(plan.options.direction)
    ? (plan.options.direction as RunDirection)
    : "a-to-b";
  return describeOptions(plan.kind === "udp-ceiling" ? { ...options, protocol: "udp" } : options, direction);
}
