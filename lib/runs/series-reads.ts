import "server-only";
import { db } from "@/lib/db";
import { isActiveStatus } from "@/lib/runs/contract";
import {
  getRunDigest,
  readSeriesFromSamples,
  readStreamStatsFromSamples,
  SAMPLE_BATCH,
  type SampleSeries,
} from "@/lib/runs/digest";
import { DISPLAY_POINTS, downsample } from "@/lib/runs/series";
import type { StreamStat } from "@/lib/runs/stream-totals";
import { runRowInclude, toRunRow } from "@/lib/runs/lists";

// Reads of a run's samples: the run page's chart (thinned in SQL) and per-stream table,
// the exports, the samples API and the comparison of runs.

/** A run's samples in order, from sequence `after` on, at most `limit`. */
export async function listRunSamples({
  runId,
  after = 0,
  limit = 1000,
}: {
  runId: number;
  after?: number;
  limit?: number;
}) {
  return db.sample.findMany({
    where: { runId, seq: { gte: after } },
    orderBy: { seq: "asc" },
    take: limit,
    omit: { id: true, runId: true },
  });
}

export type { StreamStat } from "@/lib/runs/stream-totals";

/**
 * What the run page's chart draws: the samples as chart points, thinned to at most `points`.
 * `isFinished`: the run has ended, so its stored digest answers (thinned further when fewer
 * points are asked for, as the comparison does); a run still going is read from its samples.
 */
export async function getRunSeries({
  runId,
  points = DISPLAY_POINTS,
  isFinished = false,
}: {
  runId: number;
  points?: number;
  isFinished?: boolean;
}): Promise<RunSeries> {
  if (!isFinished) return { ...(await readSeriesFromSamples(runId, points)), compactedAt: null };
  const digest = await getRunDigest(runId);
  return {
    points: points < digest.points.length ? downsample(digest.points, points) : digest.points,
    streamCount: digest.streamCount,
    sampleCount: digest.sampleCount,
    compactedAt: digest.compactedAt,
  };
}
export type RunSeries = SampleSeries & {
  /** when retention deleted the run's interval samples (only the thinned points are left); null while kept */
  compactedAt: Date | null;
};

/**
 * The per-stream table of a run: each stream's totals over every interval that counts
 * (omitted warm-up left out). A finished run's come from its digest; a run still going
 * reads every stream value so far.
 */
export async function getRunStreamStats({
  runId,
  isFinished = false,
}: {
  runId: number;
  isFinished?: boolean;
}): Promise<StreamStat[]> {
  if (!isFinished) return readStreamStatsFromSamples(runId);
  return (await getRunDigest(runId)).streams;
}

/** Every sample of a run, in order, in batches: for the CSV and JSON exports. */
export async function* iterateRunSamples(runId: number) {
  for (let after = 0; ;) {
    const batch = await db.sample.findMany({
      where: { runId, seq: { gte: after } },
      orderBy: { seq: "asc" },
      take: SAMPLE_BATCH,
      omit: { id: true, runId: true },
    });
    yield* batch;
    if (batch.length < SAMPLE_BATCH) return;
    after = batch.at(-1)!.seq + 1;
  }
}

/** Runs to compare side by side: their figures and their interval curves (total bits/s), thinned. */
export async function getRunComparison({
  ids,
  linkId,
  points = 400,
}: {
  ids: number[];
  linkId?: number;
  points?: number;
}) {
  const runs = await db.run.findMany({
    where: { id: { in: ids }, ...(linkId === undefined ? {} : { linkId }) },
    omit: { serverOutput: true, clientOutput: true },
    include: runRowInclude,
  });
  const ordered = ids.map((id) => runs.find((run) => run.id === id)).filter((run) => run !== undefined);
  return Promise.all(
    ordered.map(async (run) => {
      const series = await getRunSeries({ runId: run.id, points, isFinished: !isActiveStatus(run.status) });
      return {
        run: toRunRow(run),
        sentBitsPerSecond: run.sentBitsPerSecond,
        points: series.points.map((point) => ({ t: point.t, bps: point.bps })),
      };
    }),
  );
}
export type RunComparison = Awaited<ReturnType<typeof getRunComparison>>;
