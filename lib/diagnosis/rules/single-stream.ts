// Single stream limited: one TCP stream stops well below the line rate (seeds/000: 2.2 Gbit/s
// on a 5G link) because its sender's core is full, or because a stream sweep shows that more
// streams reach what one cannot.
import type { Hint } from "@/lib/diagnosis/contract";
import type { SweepResult } from "@/lib/experiments/contract";
import { IPERF_LIMITS } from "@/lib/iperf/options";
import {
  askedForLineRate,
  capitalized,
  CPU_BOUND_PERCENT,
  flowsOf,
  flowWord,
  hint,
  lineRateOf,
  rateOfLine,
  type Flow,
} from "./shared";
import type { ExperimentEvidence, RunEvidence } from "./types";
import { formatBitRate, formatPercentWord } from "@/lib/format";

export const SINGLE_STREAM_TITLE = "One stream cannot fill the link";
/** One stream below this share of the line rate is "well below" it. */
export const SINGLE_STREAM_PERCENT = 70;
/** From this line rate on, one iperf3 process (one core) is the limit however many streams: use channels. */
const CHANNELS_FROM_BITS_PER_SECOND = 40e9;

function cpuOf(run: RunEvidence, flow: Flow): number | null {
  return flow.sender === "client" ? run.clientCpuPercent : run.serverCpuPercent;
}

/** More streams (and why that many), or channels on a link one process cannot fill. */
function moreStreams(lineRate: number, streams: number, why: string): string {
  const flag = `${streams} streams (-P ${streams}: ${why})`;
  if (lineRate >= CHANNELS_FROM_BITS_PER_SECOND) {
    return (
      `Use ${flag} with iperf3 3.16 or later, which gives each stream a thread, or channels: ` +
      "several iperf3 processes, each on a core of its own (a channels experiment with affinity)."
    );
  }
  return `Use ${flag}.`;
}

export function singleStreamRunRule(run: RunEvidence): Hint | null {
  const lineRate = lineRateOf(run);
  if (
    run.isChannel ||
    run.options.parallel !== 1 ||
    run.status !== "succeeded" ||
    lineRate === null ||
    !askedForLineRate(run)
  )
    return null;
  const limited = flowsOf(run).filter((flow) => {
    const cpu = cpuOf(run, flow);
    return (
      flow.bitsPerSecond !== null &&
      flow.bitsPerSecond < (lineRate * SINGLE_STREAM_PERCENT) / 100 &&
      cpu !== null &&
      cpu >= CPU_BOUND_PERCENT
    );
  });
  if (limited.length === 0) return null;
  const evidence = limited
    .map((flow) => {
      const where = run.options.bidir ? `${flowWord(run, flow)}: ` : "";
      return (
        `${where}one stream gave ${rateOfLine(flow.bitsPerSecond!, lineRate)}, ` +
        `with its sender (the ${flow.sender}) at ${formatPercentWord(cpuOf(run, flow)!)} CPU`
      );
    })
    .join("; ");
  const slowest = Math.min(...limited.map((flow) => flow.bitsPerSecond!));
  const streams = Math.min(Math.max(2, Math.ceil(lineRate / Math.max(slowest, 1))), IPERF_LIMITS.parallel.max);
  const why = `${formatBitRate(lineRate)} ÷ ${formatBitRate(slowest)} per stream; a stream sweep finds the smallest count that fills the link`;
  return hint(
    "single-stream",
    "critical",
    SINGLE_STREAM_TITLE,
    `${capitalized(evidence)}.`,
    moreStreams(lineRate, streams, why),
  );
}

/** The experiment's result when it is a sweep of the stream count. */
function streamSweepOf(experiment: ExperimentEvidence): SweepResult | null {
  if (experiment.kind !== "sweep") return null;
  const result = experiment.result as Partial<SweepResult> | null;
  if (typeof result !== "object" || result === null || result.factor !== "parallel" || !Array.isArray(result.rows))
    return null;
  return result as SweepResult;
}

export function singleStreamSweepRule(experiment: ExperimentEvidence): Hint | null {
  const sweep = streamSweepOf(experiment);
  const lineRate = lineRateOf(experiment);
  if (!sweep || lineRate === null || !sweep.knee || typeof sweep.knee.value !== "number" || sweep.knee.value <= 1)
    return null;
  const one = sweep.rows.find((row) => row.value === 1);
  if (
    !one ||
    one.receivedBitsPerSecond === null ||
    one.receivedBitsPerSecond >= (lineRate * SINGLE_STREAM_PERCENT) / 100
  )
    return null;
  const knee = sweep.knee.value;
  const evidence =
    `One stream gave ${rateOfLine(one.receivedBitsPerSecond, lineRate)}; ` +
    `${knee} streams reach ${formatBitRate(sweep.knee.receivedBitsPerSecond)}, the sweep's knee.`;
  return hint(
    "single-stream",
    "critical",
    SINGLE_STREAM_TITLE,
    evidence,
    moreStreams(lineRate, knee, "the sweep's knee on this link"),
  );
}
