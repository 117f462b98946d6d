// Shared bottleneck: a concurrent experiment's links gave less together than alone, so
// something on their way is shared (the slot of a multi-port card, a bus, an uplink, a CPU).
import type { Hint } from "@/lib/diagnosis/contract";
import type { ConcurrentResult } from "@/lib/experiments/contract";
import { pcieSlotRule } from "./pcie-slot";
import { countWord, hint } from "./shared";
import type { ExperimentEvidence } from "./types";
import { formatBitRate, formatPercentWord } from "@/lib/format";

export const SHARED_BOTTLENECK_TITLE = "The links share a bottleneck";

/** The experiment's result when it is a concurrent one (the stored JSON is checked, not trusted). */
function concurrentResultOf(experiment: ExperimentEvidence): ConcurrentResult | null {
  if (experiment.kind !== "concurrent") return null;
  const result = experiment.result as Partial<ConcurrentResult> | null;
  if (typeof result !== "object" || result === null || !Array.isArray(result.rows)) return null;
  return result as ConcurrentResult;
}

export function sharedBottleneckRule(experiment: ExperimentEvidence): Hint | null {
  const result = concurrentResultOf(experiment);
  if (!result?.sharedBottleneck || result.aggregateBitsPerSecond === null) return null;
  const alone = result.rows.reduce((total, row) => total + (row.aloneBitsPerSecond ?? 0), 0);
  const links = countWord(result.rows.length, "link");
  const evidence =
    `Together the ${links} gave ${formatBitRate(result.aggregateBitsPerSecond)}` +
    (result.aggregatePercentOfAlone !== null
      ? `, ${formatPercentWord(result.aggregatePercentOfAlone)} of the ${formatBitRate(alone)} they gave one at a time`
      : "") +
    (result.lineRateSumBitsPerSecond > 0
      ? ` (their line rates add up to ${formatBitRate(result.lineRateSumBitsPerSecond)}).`
      : ".");
  const slotFound = experiment.runs.some((run) => pcieSlotRule(run) !== null);
  const suggestion = slotFound
    ? "Start with the card's PCIe slot (its own finding says why), then look for any other bus, switch uplink or CPU the links share."
    : "Find what the links share and split it: the PCIe slot of a multi-port card (PCIe 2.0 x4 carries about 16 Gbit/s), " +
      "the chipset link behind a slot, a switch uplink, or the CPU of a host at both ends; move one link's card or cable and measure again.";
  return hint("shared-bottleneck", "critical", SHARED_BOTTLENECK_TITLE, evidence, suggestion);
}
