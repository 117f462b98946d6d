// A versus's verdict in words, beside its chart. Pure.
import { formatPercentWord } from "@/lib/format";
import type { VersusResult } from "@/lib/experiments/contract";

/** Whether the difference stands out from the runs' spread, in words; null while a side has no rate. */
export function versusClearWords(result: VersusResult): string | null {
  const { differencePercent, clear, pairsAgreeing, pairs } = result;
  if (differencePercent === null) return null;
  if (differencePercent === 0) return "No difference: A's and B's medians are the same.";
  const pairWords = `${pairsAgreeing} of ${pairs} ${pairs === 1 ? "pair" : "pairs"} (A then B) went that way`;
  const way = differencePercent > 0 ? "faster" : "slower";
  return clear
    ? `A clear difference: B's runs are ${way} than A's beyond their run-to-run spread; ${pairWords}.`
    : `Not a clear difference: A's and B's runs overlap, so B being ${formatPercentWord(Math.abs(differencePercent))} ${way} may be noise; ${pairWords}.`;
}
