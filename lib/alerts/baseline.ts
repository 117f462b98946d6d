import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { median } from "@/lib/experiments/kinds/figures";
import { describeSignature } from "@/lib/runs/signature";
import { BASELINE_MIN_RUNS, type BaselineJson, type LinkBaselineJson, type RunAgainstBaseline } from "./contract";

// A link's baseline per test signature: the median received rate of its last N successful
// runs of that signature (N = Link.baselineRuns) that are not part of an experiment:
// experiments vary one thing on purpose, and concurrent ones share a bottleneck. Nor does a run
// whose bytes took another route (an off-link path check): it measured another path.

/** The runs a baseline is made of, and what they make. */
export type BaselineFigures = {
  /** null with fewer than BASELINE_MIN_RUNS runs. */
  medianBitsPerSecond: number | null;
  minBitsPerSecond: number | null;
  maxBitsPerSecond: number | null;
  count: number;
  /** Newest first. */
  runIds: number[];
};

/** What of a link decides its baselines: how many runs make one, and whether imported runs count. */
export const BASELINE_LINK_SELECT = {
  id: true,
  baselineRuns: true,
  importsInBaseline: true,
} as const satisfies Prisma.LinkSelect;
export type BaselineLink = Prisma.LinkGetPayload<{ select: typeof BASELINE_LINK_SELECT }>;

/**
 * The runs a link's baselines (and alerts' judgement) may use: those outside experiments, and
 * imported ones (lib/imports) only where the link says they count.
 */
export function baselineRunsWhere(link: Pick<BaselineLink, "importsInBaseline">) {
  return { experimentId: null, ...(link.importsInBaseline ? {} : { source: "wirespeed" }) };
}

/**
 * The baseline of `signature` on a link from its last Link.baselineRuns runs that make one,
 * created before `before` (the run being judged: it is not its own baseline); null `before`
 * takes the latest.
 */
export async function baselineFor(
  link: BaselineLink,
  signature: string,
  before: Date | null,
): Promise<BaselineFigures> {
  const runs = await db.run.findMany({
    where: {
      linkId: link.id,
      signature,
      status: "succeeded",
      ...baselineRunsWhere(link),
      receivedBitsPerSecond: { not: null },
      // A run whose bytes went another way (lib/runs/path-check.ts) measured some other path: null is not checked.
      OR: [{ pathVerdict: null }, { pathVerdict: { not: "off-link" } }],
      ...(before ? { createdAt: { lt: before } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: link.baselineRuns,
    select: { id: true, receivedBitsPerSecond: true },
  });
  return figuresOf(runs.map((run) => ({ id: run.id, rate: run.receivedBitsPerSecond! })));
}

/** The baseline that `runs` make (newest first): their median once there are BASELINE_MIN_RUNS. */
export function figuresOf(runs: { id: number; rate: number }[]): BaselineFigures {
  const rates = runs.map((run) => run.rate);
  return {
    medianBitsPerSecond: runs.length >= BASELINE_MIN_RUNS ? median(rates) : null,
    minBitsPerSecond: rates.length > 0 ? Math.min(...rates) : null,
    maxBitsPerSecond: rates.length > 0 ? Math.max(...rates) : null,
    count: runs.length,
    runIds: runs.map((run) => run.id),
  };
}

/**
 * Every signature among the link's runs that alerts judge (succeeded or failed, outside
 * experiments), the most recently tested first, each with its baseline now. The link page's
 * table and the history chart's band (median, and the min–max of the runs that make it).
 */
export async function linkBaselines(link: BaselineLink): Promise<BaselineJson[]> {
  const groups = await db.run.groupBy({
    by: ["signature"],
    where: {
      linkId: link.id,
      ...baselineRunsWhere(link),
      status: { in: ["succeeded", "failed"] },
      signature: { not: null },
    },
    _max: { createdAt: true },
  });
  groups.sort(
    (a, b) =>
      (b._max.createdAt?.getTime() ?? 0) - (a._max.createdAt?.getTime() ?? 0) ||
      a.signature!.localeCompare(b.signature!),
  );
  return Promise.all(
    groups.map(async ({ signature }) => {
      const figures = await baselineFor(link, signature!, null);
      return {
        signature: signature!,
        label: describeSignature(signature!),
        ...figures,
        n: link.baselineRuns,
        minRuns: BASELINE_MIN_RUNS,
      };
    }),
  );
}

/** GET /api/links/:id/baseline: null when the link does not exist. */
export async function getLinkBaseline(linkId: number): Promise<LinkBaselineJson | null> {
  const link = await db.link.findUnique({ where: { id: linkId }, select: BASELINE_LINK_SELECT });
  if (!link) return null;
  return {
    linkId: link.id,
    baselineRuns: link.baselineRuns,
    importsInBaseline: link.importsInBaseline,
    signatures: await linkBaselines(link),
  };
}

/**
 * A run's result against the baseline its signature had when it was created (from the runs
 * before it), for the run page; null for a run without a received rate or signature.
 */
export async function againstBaseline(runId: number): Promise<RunAgainstBaseline> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      signature: true,
      status: true,
      createdAt: true,
      receivedBitsPerSecond: true,
      link: { select: BASELINE_LINK_SELECT },
    },
  });
  if (!run || run.status !== "succeeded" || run.signature === null || run.receivedBitsPerSecond === null) return null;
  const figures = await baselineFor(run.link, run.signature, run.createdAt);
  return compareWithBaseline(run.receivedBitsPerSecond, figures);
}

/** `received` against a baseline: 77% of it, −23%; only the count without a baseline. */
export function compareWithBaseline(
  received: number,
  figures: Pick<BaselineFigures, "medianBitsPerSecond" | "count">,
): NonNullable<RunAgainstBaseline> {
  const baseline = figures.medianBitsPerSecond;
  if (baseline === null || !(baseline > 0))
    return { baselineBitsPerSecond: null, count: figures.count, percentOfBaseline: null, differencePercent: null };
  const percent = Math.round((received / baseline) * 1000) / 10;
  return {
    baselineBitsPerSecond: baseline,
    count: figures.count,
    percentOfBaseline: percent,
    differencePercent: Math.round((percent - 100) * 10) / 10,
  };
}
