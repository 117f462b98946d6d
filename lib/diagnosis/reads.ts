import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  parseStoredEnvironment,
  type Hint,
  type LatencySample,
  type LatencySummary,
  type RunEnvironment,
} from "@/lib/diagnosis/contract";
import {
  hintsForExperiment,
  hintsForLink,
  hintsForRun,
  type ExperimentEvidence,
  type NicFacts,
  type RunEvidence,
} from "@/lib/diagnosis/rules";
import type { ExperimentKind } from "@/lib/experiments/contract";
import { clientSideOf, parseStoredOptions, parseStoredPathCheck } from "@/lib/runs/contract";
import { nicAddress } from "@/lib/runs/outcome";

// Reads for diagnosis: a run's environment, latency and findings; the findings of a link and of
// an experiment. Hints are worked out when asked, from what is stored, so a better rule applies
// to every past run too.

/** How many of a link's latest runs and experiments its findings come from. */
const LINK_RUNS = 5;
const LINK_EXPERIMENTS = 3;

const nicSelect = {
  name: true,
  addresses: true,
  host: { select: { name: true } },
  speedMbps: true,
  mtu: true,
  pcieLinkSpeed: true,
  pcieLinkWidth: true,
  driver: true,
} as const;
const runSelect = {
  id: true,
  linkId: true,
  status: true,
  options: true,
  clientSide: true,
  signature: true,
  experimentId: true,
  channel: true,
  receivedBitsPerSecond: true,
  reverseReceivedBitsPerSecond: true,
  sentBytes: true,
  retransmits: true,
  reverseSentBytes: true,
  reverseRetransmits: true,
  clientCpuPercent: true,
  serverCpuPercent: true,
  environment: true,
  latencyIdleMedianMs: true,
  latencyIdleP95Ms: true,
  latencyLoadedMedianMs: true,
  latencyLoadedP95Ms: true,
  latencyGrade: true,
  latencySent: true,
  latencyLost: true,
  pathCheck: true,
  link: { select: { speedMbps: true, aNic: { select: nicSelect }, bNic: { select: nicSelect } } },
} as const;

type RunRow = Prisma.RunGetPayload<{ select: typeof runSelect }>;

/** The latency columns of a run as its summary, or null for a run that did not measure it. */
export function latencySummaryOf(
  run: Pick<
    RunRow,
    | "latencyIdleMedianMs"
    | "latencyIdleP95Ms"
    | "latencyLoadedMedianMs"
    | "latencyLoadedP95Ms"
    | "latencyGrade"
    | "latencySent"
    | "latencyLost"
  >,
): LatencySummary | null {
  if (run.latencySent === null) return null;
  const grade = run.latencyGrade;
  return {
    idleMedianMs: run.latencyIdleMedianMs,
    idleP95Ms: run.latencyIdleP95Ms,
    loadedMedianMs: run.latencyLoadedMedianMs,
    loadedP95Ms: run.latencyLoadedP95Ms,
    grade: grade === "A" || grade === "B" || grade === "C" || grade === "D" || grade === "F" ? grade : null,
    sent: run.latencySent,
    lost: run.latencyLost ?? 0,
  };
}

/** The same test the other way over the link: the signature with its direction swapped. */
function oppositeSignature(signature: string | null): string | null {
  if (!signature) return null;
  if (signature.includes(" a-to-b ")) return signature.replace(" a-to-b ", " b-to-a ");
  if (signature.includes(" b-to-a ")) return signature.replace(" b-to-a ", " a-to-b ");
  return null;
}

async function oppositeOf(run: RunRow): Promise<RunEvidence["opposite"]> {
  const signature = oppositeSignature(run.signature);
  if (!signature || run.status !== "succeeded") return null;
  const opposite = await db.run.findFirst({
    where: { linkId: run.linkId, signature, status: "succeeded", experimentId: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, receivedBitsPerSecond: true },
  });
  return opposite ? { runId: opposite.id, receivedBitsPerSecond: opposite.receivedBitsPerSecond } : null;
}

/** What the rules read of a NIC: the inventory's figures, without its host and addresses (RunEvidence.hosts has those). */
function nicFactsOf(nic: RunRow["link"]["aNic"]): NicFacts {
  const { name, speedMbps, mtu, pcieLinkSpeed, pcieLinkWidth, driver } = nic;
  return { name, speedMbps, mtu, pcieLinkSpeed, pcieLinkWidth, driver };
}

function evidenceOf(run: RunRow, opposite: RunEvidence["opposite"]): RunEvidence {
  const clientSide = clientSideOf(run.clientSide);
  const [client, server] = clientSide === "a" ? [run.link.aNic, run.link.bNic] : [run.link.bNic, run.link.aNic];
  return {
    runId: run.id,
    status: run.status,
    options: parseStoredOptions(run.options),
    clientSide,
    linkSpeedMbps: run.link.speedMbps,
    receivedBitsPerSecond: run.receivedBitsPerSecond,
    reverseReceivedBitsPerSecond: run.reverseReceivedBitsPerSecond,
    sentBytes: run.sentBytes,
    retransmits: run.retransmits,
    reverseSentBytes: run.reverseSentBytes,
    reverseRetransmits: run.reverseRetransmits,
    clientCpuPercent: run.clientCpuPercent,
    serverCpuPercent: run.serverCpuPercent,
    environment: parseStoredEnvironment(run.environment),
    nics: { client: nicFactsOf(client), server: nicFactsOf(server) },
    latency: latencySummaryOf(run),
    isChannel: run.channel !== null,
    pathCheck: parseStoredPathCheck(run.pathCheck),
    hosts: {
      client: { name: client.host.name, address: nicAddress(client.addresses) },
      server: { name: server.host.name, address: nicAddress(server.addresses) },
    },
    opposite,
  };
}

async function runEvidence(run: RunRow): Promise<RunEvidence> {
  return evidenceOf(run, await oppositeOf(run));
}

/** A run's environment, latency summary and findings (the run page, `GET /api/runs/:id`). */
export async function getRunDiagnosis(runId: number): Promise<{
  environment: RunEnvironment | null;
  hints: Hint[];
  latency: LatencySummary | null;
  hasLatency: boolean;
} | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: runSelect });
  if (!run) return null;
  const evidence = await runEvidence(run);
  return {
    environment: evidence.environment,
    hints: hintsForRun(evidence),
    latency: evidence.latency,
    hasLatency: evidence.options.latency === true,
  };
}

/** The pings of a run, in time order (`GET /api/runs/:id/latency`, the latency chart). */
export async function getRunLatencySamples(runId: number): Promise<LatencySample[]> {
  const rows = await db.latencySample.findMany({
    where: { runId },
    orderBy: [{ t: "asc" }, { seq: "asc" }],
    select: { t: true, rttMs: true, phase: true },
  });
  return rows.map((row) => ({ t: row.t, rttMs: row.rttMs, phase: row.phase === "idle" ? "idle" : "loaded" }));
}

/** Each run's environment, for a compare. */
export async function getRunEnvironments(runIds: number[]): Promise<Map<number, RunEnvironment | null>> {
  const rows = await db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, environment: true } });
  return new Map(rows.map((row) => [row.id, parseStoredEnvironment(row.environment)]));
}

async function experimentEvidence(experimentId: number): Promise<ExperimentEvidence | null> {
  const experiment = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      id: true,
      kind: true,
      result: true,
      links: { orderBy: { position: "asc" }, take: 1, select: { link: { select: { speedMbps: true } } } },
      runs: { select: runSelect, orderBy: { id: "asc" } },
    },
  });
  if (!experiment) return null;
  return {
    experimentId: experiment.id,
    kind: experiment.kind as ExperimentKind,
    result: experiment.result,
    linkSpeedMbps: experiment.links[0]?.link.speedMbps ?? experiment.runs[0]?.link.speedMbps ?? 0,
    // Within an experiment the other direction is its own business (a matrix): no lookup per run.
    runs: experiment.runs.map((run) => evidenceOf(run, null)),
  };
}

/** An experiment's findings (its page). */
export async function getExperimentHints(experimentId: number): Promise<Hint[]> {
  const evidence = await experimentEvidence(experimentId);
  return evidence ? hintsForExperiment(evidence) : [];
}

/** A link's latest findings: from its latest finished runs outside experiments, and its latest experiments. */
export async function getLinkHints(linkId: number): Promise<Hint[]> {
  const [runs, experiments] = await Promise.all([
    db.run.findMany({
      where: { linkId, experimentId: null, status: { in: ["succeeded", "failed"] } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: LINK_RUNS,
      select: runSelect,
    }),
    db.experimentLink.findMany({
      where: { linkId, experiment: { status: { in: ["succeeded", "failed", "cancelled"] } } },
      orderBy: { experimentId: "desc" },
      take: LINK_EXPERIMENTS,
      select: { experimentId: true },
    }),
  ]);
  const [runEvidences, experimentEvidences] = await Promise.all([
    Promise.all(runs.map(runEvidence)),
    Promise.all(experiments.map((entry) => experimentEvidence(entry.experimentId))),
  ]);
  return hintsForLink({
    runs: runEvidences,
    experiments: experimentEvidences.filter((entry): entry is ExperimentEvidence => entry !== null),
  });
}
