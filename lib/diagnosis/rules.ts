// The hint rules: what the evidence of a run, an experiment or a link's latest of both says,
// as findings with figures and what to try next. One rule per file in rules/; pure, so that a
// better rule applies to every past run when its page is next read.
import { HINT_IDS, type Hint, type HintId } from "@/lib/diagnosis/contract";
import { asymmetryMatrixRule, asymmetryRunRule, ASYMMETRY_TITLE } from "./rules/asymmetry";
import { bufferbloatRule, BUFFERBLOAT_TITLE } from "./rules/bufferbloat";
import { cpuBoundRule, CPU_BOUND_TITLE } from "./rules/cpu-bound";
import { iperf3VersionRule, IPERF3_TOO_OLD_TITLE } from "./rules/iperf3-version";
import { mtuMismatchRule, MTU_MISMATCH_TITLE } from "./rules/mtu-mismatch";
import { negotiatedSpeedRule, NEGOTIATED_SPEED_TITLE } from "./rules/negotiated-speed";
import { offLinkRule, OFF_LINK_TITLE } from "./rules/off-link";
import { pcieSlotRule, PCIE_SLOT_TITLE } from "./rules/pcie-slot";
import { retransmitsRule, RETRANSMITS_TITLE } from "./rules/retransmits";
import { severityRank } from "./rules/shared";
import { sharedBottleneckRule, SHARED_BOTTLENECK_TITLE } from "./rules/shared-bottleneck";
import { singleStreamRunRule, singleStreamSweepRule, SINGLE_STREAM_TITLE } from "./rules/single-stream";
import { smallBuffersRule, SMALL_BUFFERS_TITLE } from "./rules/small-buffers";
import { standardFramesRule, STANDARD_FRAMES_TITLE } from "./rules/standard-frames";
import type { ExperimentEvidence, ExperimentRule, RunEvidence, RunRule } from "./rules/types";

export type { ExperimentEvidence, NicFacts, RunEvidence } from "./rules/types";

/** Each rule's title, as its hints carry it. */
export const HINT_TITLES: Record<HintId, string> = {
  "pcie-slot": PCIE_SLOT_TITLE,
  "shared-bottleneck": SHARED_BOTTLENECK_TITLE,
  "single-stream": SINGLE_STREAM_TITLE,
  "cpu-bound": CPU_BOUND_TITLE,
  "mtu-mismatch": MTU_MISMATCH_TITLE,
  "standard-frames": STANDARD_FRAMES_TITLE,
  "negotiated-below-nominal": NEGOTIATED_SPEED_TITLE,
  retransmits: RETRANSMITS_TITLE,
  asymmetry: ASYMMETRY_TITLE,
  "small-buffers": SMALL_BUFFERS_TITLE,
  "iperf3-too-old": IPERF3_TOO_OLD_TITLE,
  bufferbloat: BUFFERBLOAT_TITLE,
  "off-link": OFF_LINK_TITLE,
};

const RUN_RULES: readonly RunRule[] = [
  pcieSlotRule,
  singleStreamRunRule,
  cpuBoundRule,
  mtuMismatchRule,
  standardFramesRule,
  negotiatedSpeedRule,
  retransmitsRule,
  asymmetryRunRule,
  smallBuffersRule,
  iperf3VersionRule,
  bufferbloatRule,
  offLinkRule,
];

const EXPERIMENT_RULES: readonly ExperimentRule[] = [sharedBottleneckRule, singleStreamSweepRule, asymmetryMatrixRule];

/** Most severe first; among equals, in the order of HINT_IDS (the table). */
function bySeverity(a: Hint, b: Hint): number {
  return severityRank(b.severity) - severityRank(a.severity) || HINT_IDS.indexOf(a.id) - HINT_IDS.indexOf(b.id);
}

/** A found hint and how recent its evidence is (the newest run it came from), to pick one per rule. */
type Candidate = { hint: Hint; recency: number };

/** One hint per rule id: the most severe, then the most recent; most severe first. */
function onePerRule(candidates: readonly Candidate[]): Hint[] {
  const best = new Map<HintId, Candidate>();
  for (const candidate of candidates) {
    const kept = best.get(candidate.hint.id);
    const rank = severityRank(candidate.hint.severity);
    if (
      !kept ||
      rank > severityRank(kept.hint.severity) ||
      (rank === severityRank(kept.hint.severity) && candidate.recency > kept.recency)
    ) {
      best.set(candidate.hint.id, candidate);
    }
  }
  return [...best.values()].map((candidate) => candidate.hint).sort(bySeverity);
}

/** A run's findings, most severe first: at most one per rule (a rule that finds both ends says both). */
export function hintsForRun(run: RunEvidence): Hint[] {
  return RUN_RULES.map((rule) => rule(run))
    .filter((hint): hint is Hint => hint !== null)
    .sort(bySeverity);
}

function experimentCandidates(experiment: ExperimentEvidence): Candidate[] {
  const recency = Math.max(0, ...experiment.runs.map((run) => run.runId));
  const own = EXPERIMENT_RULES.map((rule) => rule(experiment))
    .filter((hint): hint is Hint => hint !== null)
    .map((hint): Candidate => ({
      hint: { ...hint, source: { kind: "experiment", id: experiment.experimentId } },
      recency,
    }));
  return [...own, ...experiment.runs.flatMap(runCandidates)];
}

function runCandidates(run: RunEvidence): Candidate[] {
  return hintsForRun(run).map((hint) => ({
    hint: { ...hint, source: { kind: "run", id: run.runId } },
    recency: run.runId,
  }));
}

/**
 * An experiment's findings: from its result (a shared bottleneck, a stream sweep's knee, a
 * matrix's asymmetry) and from its runs, one per rule (the most severe, then the newest run's),
 * each with its `source`: the experiment, or the run it was found in.
 */
export function hintsForExperiment(experiment: ExperimentEvidence): Hint[] {
  return onePerRule(experimentCandidates(experiment));
}

/**
 * Findings about how the ends are set up rather than about one result: the newest run tells how
 * the link is set up now, and an MTU fixed since an older run is no finding any more.
 */
const SETUP_HINTS: ReadonlySet<HintId> = new Set<HintId>([
  "pcie-slot",
  "mtu-mismatch",
  "standard-frames",
  "negotiated-below-nominal",
  "small-buffers",
  "iperf3-too-old",
]);

/**
 * The link page's findings: from its latest runs and experiments, one per rule id (the most severe,
 * then the newest), each with `source`. Set-up findings come from the newest run alone (the newest
 * with a snapshot, when any has one).
 */
export function hintsForLink(input: { runs: RunEvidence[]; experiments: ExperimentEvidence[] }): Hint[] {
  const runs = [...input.runs, ...input.experiments.flatMap((experiment) => experiment.runs)];
  const withSnapshot = runs.filter((run) => run.environment !== null);
  const newest = Math.max(-1, ...(withSnapshot.length > 0 ? withSnapshot : runs).map((run) => run.runId));
  const candidates = [...input.runs.flatMap(runCandidates), ...input.experiments.flatMap(experimentCandidates)];
  return onePerRule(
    candidates.filter(
      ({ hint }) => !SETUP_HINTS.has(hint.id) || (hint.source?.kind === "run" && hint.source.id === newest),
    ),
  );
}
