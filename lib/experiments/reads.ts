import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { planKind } from "@/lib/experiments/kinds";
import { baseRequestOf, stepSecondsOf } from "@/lib/experiments/plan";
import { invalidInput } from "@/lib/errors";
import { parseStoredOptions, type PathVerdict, type RunStatus } from "@/lib/runs/contract";
import type { SeriesPoint } from "@/lib/runs/series";
import { labelsOf } from "@/lib/notes/contract";
import {
  EXPERIMENT_KINDS,
  isActiveExperimentStatus,
  type ExperimentJson,
  type ExperimentKind,
  type ExperimentListPage,
  type ExperimentPlan,
  type ExperimentResult,
  type ExperimentStatus,
  type ExperimentStepJson,
  type PlanLink,
  type RunOutcome,
  type StepOutcome,
  type StepStatus,
  type StepTags,
} from "@/lib/experiments/contract";

// Reads of experiments: the JSON the API and pages share, lists, and what the kinds need
// to compute a result (the plan's links, the finished steps with their runs' figures).

/** The plan's links as the kinds see them, in the plan's order; links that do not exist are left out. */
export async function loadPlanLinks(linkIds: number[]): Promise<PlanLink[]> {
  const nicHost = {
    select: { host: { select: { id: true, name: true, iperfPortMin: true, iperfPortMax: true, access: true } } },
  } as const;
  const links = await db.link.findMany({
    where: { id: { in: linkIds } },
    select: { id: true, name: true, speedMbps: true, aNic: nicHost, bNic: nicHost },
  });
  const byId = new Map(links.map((link) => [link.id, link]));
  return linkIds.flatMap((id) => {
    const link = byId.get(id);
    if (!link) return [];
    const range = (nic: typeof link.aNic) => ({ min: nic.host.iperfPortMin, max: nic.host.iperfPortMax });
    return [
      {
        id: link.id,
        name: link.name,
        speedMbps: link.speedMbps,
        portRanges: { a: range(link.aNic), b: range(link.bNic) },
        hosts: {
          a: { id: link.aNic.host.id, name: link.aNic.host.name },
          b: { id: link.bNic.host.id, name: link.bNic.host.name },
        },
        ...(link.aNic.host.access === "iperf3-server" ? { externalServerEnd: "a" as const } : {}),
        ...(link.bNic.host.access === "iperf3-server" ? { externalServerEnd: "b" as const } : {}),
        ...(link.aNic.host.access === "device" ? { deviceEnd: "a" as const } : {}),
        ...(link.bNic.host.access === "device" ? { deviceEnd: "b" as const } : {}),
      },
    ];
  });
}

/**
 * A mesh by hosts takes its links as it starts: every link with both ends among the hosts, except links
 * to a device (it runs no ordinary run), by id. So "Run again" and a nightly schedule measure links
 * added since. Any other plan is returned as it is. A host that does not exist is a 400 naming it.
 */
export async function resolveHostLinks(plan: ExperimentPlan): Promise<ExperimentPlan> {
  if (plan.kind !== "mesh" || !plan.hostIds) return plan;
  const hostIds = plan.hostIds;
  const found = await db.host.findMany({ where: { id: { in: hostIds } }, select: { id: true } });
  const errors = hostIds.flatMap((id, index) =>
    found.some((host) => host.id === id) ? [] : [{ field: `hostIds[${index}]`, message: `host ${id} does not exist` }],
  );
  if (errors.length > 0) throw invalidInput(errors);
  const among = { hostId: { in: hostIds }, host: { access: { not: "device" } } };
  const links = await db.link.findMany({
    where: { aNic: among, bNic: among },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return { ...plan, linkIds: links.map((link) => link.id) };
}

const outcomeRunSelect = {
  id: true,
  linkId: true,
  channel: true,
  port: true,
  status: true,
  options: true,
  sentBitsPerSecond: true,
  receivedBitsPerSecond: true,
  reverseReceivedBitsPerSecond: true,
  retransmits: true,
  jitterMs: true,
  lostPercent: true,
  lostPackets: true,
  packets: true,
  clientCpuPercent: true,
  serverCpuPercent: true,
  startedAt: true,
  pathVerdict: true,
} satisfies Prisma.RunSelect;

/** One step of an experiment that has ended, with its runs' figures; null when there is none. */
export async function loadStepOutcome(experimentId: number, index: number): Promise<StepOutcome | null> {
  const steps = await db.experimentStep.findMany({
    where: { experimentId, index, status: { not: "running" } },
    orderBy: { index: "asc" },
    select: {
      id: true,
      index: true,
      label: true,
      tags: true,
      status: true,
      runs: { select: outcomeRunSelect, orderBy: { id: "asc" } },
    },
  });
  const runIds = steps.flatMap((step) => step.runs.map((run) => run.id));
  const intervals = await loadForwardIntervals(runIds);
  const outcomes = steps.map((step): StepOutcome => ({
    index: step.index,
    label: step.label,
    tags: step.tags as StepTags,
    status: step.status as StepStatus,
    runs: step.runs.map((run): RunOutcome => ({
      runId: run.id,
      linkId: run.linkId,
      channel: run.channel,
      port: run.port,
      status: run.status as RunStatus,
      streams: parseStoredOptions(run.options).parallel,
      sentBitsPerSecond: run.sentBitsPerSecond,
      receivedBitsPerSecond: run.receivedBitsPerSecond,
      reverseReceivedBitsPerSecond: run.reverseReceivedBitsPerSecond,
      retransmits: run.retransmits,
      jitterMs: run.jitterMs,
      lostPercent: run.lostPercent,
      lostPackets: run.lostPackets,
      packets: run.packets,
      clientCpuPercent: run.clientCpuPercent,
      serverCpuPercent: run.serverCpuPercent,
      startedAtMs: run.startedAt?.getTime() ?? null,
      pathVerdict: run.pathVerdict as PathVerdict | null,
      intervals: intervals.get(run.id) ?? [],
    })),
  }));
  return outcomes[0] ?? null;
}

/** The measured intervals of runs: the forward direction, warm-up (-O) left out. */
async function loadForwardIntervals(runIds: number[]): Promise<Map<number, { end: number; bitsPerSecond: number }[]>> {
  const byRun = new Map<number, { end: number; bitsPerSecond: number }[]>();
  if (runIds.length === 0) return byRun;
  const rows = await db.sample.findMany({
    where: { runId: { in: runIds }, omitted: false, direction: "forward" },
    orderBy: [{ runId: "asc" }, { seq: "asc" }],
    select: { runId: true, end: true, bitsPerSecond: true },
  });
  for (const row of rows) {
    const list = byRun.get(row.runId) ?? [];
    list.push({ end: row.end, bitsPerSecond: row.bitsPerSecond });
    byRun.set(row.runId, list);
  }
  // Runs compacted by sample retention: their thinned points stand for the intervals.
  const compacted = await db.runDigest.findMany({
    where: { runId: { in: runIds.filter((runId) => !byRun.has(runId)) }, compactedAt: { not: null } },
    select: { runId: true, points: true },
  });
  for (const { runId, points } of compacted) {
    const kept = (points as SeriesPoint[]).filter((point) => !point.omitted && point.bps !== null);
    byRun.set(
      runId,
      kept.map((point) => ({ end: point.t, bitsPerSecond: point.bps! })),
    );
  }
  return byRun;
}

const experimentInclude = {
  links: { orderBy: { position: "asc" }, select: { link: { select: { id: true, name: true, speedMbps: true } } } },
  steps: {
    orderBy: { index: "asc" },
    select: {
      index: true,
      label: true,
      tags: true,
      status: true,
      startedAt: true,
      endedAt: true,
      runs: { select: { id: true }, orderBy: { id: "asc" } },
    },
  },
} satisfies Prisma.ExperimentInclude;

type ExperimentRow = Prisma.ExperimentGetPayload<{ include: typeof experimentInclude }>;

function kindOfRow(kind: string): ExperimentKind {
  return (EXPERIMENT_KINDS as readonly string[]).includes(kind) ? (kind as ExperimentKind) : "sweep";
}

/** The one JSON shape of an experiment, from its row and the kinds' view of its plan. */
export function toExperimentJson(row: ExperimentRow, links: PlanLink[]): ExperimentJson {
  const plan = row.plan as ExperimentPlan;
  const kind = kindOfRow(row.kind);
  const status = row.status as ExperimentStatus;
  const done: ExperimentStepJson[] = row.steps.map((step) => ({
    index: step.index,
    label: step.label,
    tags: step.tags as StepTags,
    runIds: step.runs.map((run) => run.id),
    status: step.status as StepStatus,
  }));
  let plannedSteps = done.length;
  let pending: ExperimentStepJson[] = [];
  let perStepEstimate: number | null = null;
  try {
    const base = baseRequestOf(plan);
    perStepEstimate = stepSecondsOf(base);
    plannedSteps = Math.max(done.length, planKind(plan).maxSteps(links));
    const all = planKind(plan).steps(base, links);
    if (all && isActiveExperimentStatus(status)) {
      pending = all.slice(done.length).map((spec, offset) => ({
        index: done.length + offset,
        label: spec.label,
        tags: spec.tags,
        runIds: [],
        status: "pending",
      }));
    }
  } catch {
    // A plan that today's rules refuse (an old experiment) still shows what it did.
  }
  const result = (row.result as ExperimentResult | null) ?? null;
  let table = null;
  try {
    table = result ? planKind(plan).table(links, result) : null;
  } catch {
    table = null;
  }
  const ended = row.steps.filter((step) => step.endedAt);
  const measured = ended.reduce((sum, step) => sum + (step.endedAt!.getTime() - step.startedAt.getTime()) / 1000, 0);
  // The steps so far say best how long one takes here; before the first has ended, the plan's own estimate.
  const perStep = ended.length > 0 ? measured / ended.length : perStepEstimate;
  const estimatedSecondsLeft =
    isActiveExperimentStatus(status) && perStep !== null
      ? Math.max(0, Math.round((plannedSteps - ended.length) * perStep))
      : null;
  return {
    id: row.id,
    kind,
    name: row.name,
    status,
    plan,
    links: row.links.map(({ link }) => link),
    steps: [...done, ...pending],
    plannedSteps,
    estimatedSecondsLeft,
    result,
    answer: row.answer,
    table,
    error: row.errorMessage ? { message: row.errorMessage } : null,
    note: row.note,
    labels: labelsOf(row.labels),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

export async function getExperiment(id: number): Promise<ExperimentJson | null> {
  const row = await db.experiment.findUnique({ where: { id }, include: experimentInclude });
  if (!row) return null;
  const plan = row.plan as ExperimentPlan;
  return toExperimentJson(
    row,
    await loadPlanLinks(Array.isArray(plan.linkIds) ? plan.linkIds : row.links.map(({ link }) => link.id)),
  );
}

/** Experiments, newest first; `linkId` keeps those that use that link. */
export async function listExperiments({
  linkId,
  page = 1,
  pageSize = 50,
}: { linkId?: number; page?: number; pageSize?: number } = {}): Promise<ExperimentListPage> {
  const where: Prisma.ExperimentWhereInput = linkId === undefined ? {} : { links: { some: { linkId } } };
  const [total, rows] = await Promise.all([
    db.experiment.count({ where }),
    db.experiment.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: {
        links: { orderBy: { position: "asc" }, select: { link: { select: { id: true, name: true } } } },
        _count: { select: { steps: { where: { status: { not: "running" } } } } },
      },
    }),
  ]);
  const planLinks = new Map(
    (await loadPlanLinks([...new Set(rows.flatMap((row) => row.links.map(({ link }) => link.id)))])).map((link) => [
      link.id,
      link,
    ]),
  );
  return {
    experiments: rows.map((row) => {
      const plan = row.plan as ExperimentPlan;
      let plannedSteps = row._count.steps;
      try {
        const links = row.links.flatMap(({ link }) => planLinks.get(link.id) ?? []);
        plannedSteps = Math.max(plannedSteps, planKind(plan).maxSteps(links));
      } catch {
        // An old plan: the steps it took.
      }
      return {
        id: row.id,
        kind: kindOfRow(row.kind),
        name: row.name,
        status: row.status as ExperimentStatus,
        links: row.links.map(({ link }) => link),
        answer: row.answer,
        stepsDone: row._count.steps,
        plannedSteps,
        createdAt: row.createdAt.toISOString(),
        endedAt: row.endedAt?.toISOString() ?? null,
      };
    }),
    total,
    page,
    pageSize,
  };
}
