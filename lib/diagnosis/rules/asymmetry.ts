// Asymmetry: one direction over the link is more than 10% slower than the other, in a --bidir
// run, against the latest comparable run the other way, or in a matrix. The slower direction's
// receiver is where to look.
import type { Hint } from "@/lib/diagnosis/contract";
import { ASYMMETRY_PERCENT, type MatrixResult } from "@/lib/experiments/contract";
import { compareDirections } from "@/lib/experiments/kinds/matrix";
import type { ClientSide } from "@/lib/runs/contract";
import { endNic, flowsOf, flowWord, hint, listWords, nicOf, ROLES, sideOf, type EndNic, type Flow } from "./shared";
import type { ExperimentEvidence, RunEvidence } from "./types";
import { formatBitRate, formatPercentWord } from "@/lib/format";

export const ASYMMETRY_TITLE = "One direction is slower";

/** How much slower the slower rate is, in % of the faster. */
function slowerPercent(a: number, b: number): number {
  const faster = Math.max(a, b);
  return faster > 0 ? (Math.abs(a - b) / faster) * 100 : 0;
}

/** What to look at on the end that receives the slower direction. */
function receivePath(side: ClientSide, nic: EndNic | null): string {
  const where = nic ? `end ${side} (${endNic(nic)})` : `end ${side}`;
  const off = nic?.offloads ? (["gro", "lro"] as const).filter((offload) => nic.offloads![offload] === false) : [];
  const ethtool =
    nic?.platform === "linux" ? ` (ethtool -K ${nic.name} ${off.map((offload) => `${offload} on`).join(" ")})` : "";
  const offloads =
    off.length > 0
      ? `; ${listWords(off.map((offload) => offload.toUpperCase()))} ${off.length === 1 ? "is" : "are"} off there${ethtool}`
      : "";
  return (
    `Look at the receive path of ${where}, which receives the slower direction: ` +
    `its receive ring and interrupt coalescing, GRO/LRO, the core that takes its interrupts, and its socket buffers${offloads}.`
  );
}

function nicAtSide(run: RunEvidence, side: ClientSide): EndNic {
  return nicOf(
    run,
    ROLES.find((role) => sideOf(run, role) === side)!,
  );
}

export function asymmetryRunRule(run: RunEvidence): Hint | null {
  if (run.status !== "succeeded") return null;
  const [forward, second] = flowsOf(run) as [Flow, Flow | undefined];
  if (forward.bitsPerSecond === null) return null;
  let pair: {
    slow: { word: string; bitsPerSecond: number; receiver: ClientSide };
    fast: { word: string; bitsPerSecond: number };
    how: string;
  } | null = null;
  if (run.options.bidir && second?.bitsPerSecond !== null && second?.bitsPerSecond !== undefined) {
    const [slow, fast] = forward.bitsPerSecond <= second.bitsPerSecond ? [forward, second] : [second, forward];
    pair = {
      slow: { word: flowWord(run, slow), bitsPerSecond: slow.bitsPerSecond!, receiver: sideOf(run, slow.receiver) },
      fast: { word: flowWord(run, fast), bitsPerSecond: fast.bitsPerSecond! },
      how: "both at once, in this --bidir run",
    };
  } else if (
    !run.options.bidir &&
    run.opposite?.receivedBitsPerSecond !== null &&
    run.opposite?.receivedBitsPerSecond !== undefined
  ) {
    const here = {
      word: flowWord(run, forward),
      bitsPerSecond: forward.bitsPerSecond,
      receiver: sideOf(run, forward.receiver),
    };
    const there = {
      word: flowWord(run, { sender: forward.receiver, receiver: forward.sender }),
      bitsPerSecond: run.opposite.receivedBitsPerSecond,
      receiver: sideOf(run, forward.sender),
    };
    const [slow, fast] = here.bitsPerSecond <= there.bitsPerSecond ? [here, there] : [there, here];
    pair = { slow, fast, how: `this run against run #${run.opposite.runId}, the latest the other way` };
  }
  if (!pair) return null;
  const percent = slowerPercent(pair.slow.bitsPerSecond, pair.fast.bitsPerSecond);
  if (percent <= ASYMMETRY_PERCENT) return null;
  const evidence =
    `${pair.slow.word} gave ${formatBitRate(pair.slow.bitsPerSecond)}, ` +
    `${pair.fast.word} ${formatBitRate(pair.fast.bitsPerSecond)}: ` +
    `${pair.slow.word} is ${formatPercentWord(percent)} slower (${pair.how}).`;
  return hint(
    "asymmetry",
    "warning",
    ASYMMETRY_TITLE,
    evidence,
    receivePath(pair.slow.receiver, nicAtSide(run, pair.slow.receiver)),
  );
}

function matrixResultOf(experiment: ExperimentEvidence): MatrixResult | null {
  if (experiment.kind !== "matrix") return null;
  const result = experiment.result as Partial<MatrixResult> | null;
  if (typeof result !== "object" || result === null || !Array.isArray(result.rows)) return null;
  return result as MatrixResult;
}

export function asymmetryMatrixRule(experiment: ExperimentEvidence): Hint | null {
  const result = matrixResultOf(experiment);
  if (!result?.asymmetry) return null;
  const comparison = compareDirections(result.rows);
  const slower = result.asymmetry.slower === "a-to-b" ? "a→b" : "b→a";
  const faster = slower === "a→b" ? "b→a" : "a→b";
  const rates = comparison
    ? `${comparison.protocol.toUpperCase()} a→b gave ${formatBitRate(comparison.aToB)}, b→a ${formatBitRate(comparison.bToA)}: `
    : "";
  const evidence = `${rates}${slower} is ${formatPercentWord(result.asymmetry.percent)} slower than ${faster} (the matrix's runs).`;
  const receiver: ClientSide = result.asymmetry.slower === "a-to-b" ? "b" : "a";
  const anyRun = experiment.runs.at(-1);
  return hint(
    "asymmetry",
    "warning",
    ASYMMETRY_TITLE,
    evidence,
    receivePath(receiver, anyRun ? nicAtSide(anyRun, receiver) : null),
  );
}
