import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { IperfStreamSample } from "@/lib/iperf";
import { isActiveStatus, parseStoredOptions, sampleEventFromRow } from "@/lib/runs/contract";
import { DISPLAY_POINTS, MAX_STREAM_LINES, SeriesBuilder, type SeriesPoint } from "@/lib/runs/series";
import { runLinkSelect, toRunRow } from "./run-lists";

// Reads of a run's samples: the run page's chart (thinned in SQL) and per-stream table,
// the exports, the samples API and the comparison of runs.

/** A run's samples in order, from sequence `after` on, at most `limit`. */
export async function listRunSamples({ runId, after = 0, limit = 1000 }: { runId: number; after?: number; limit?: number }) {
  return db.sample.findMany({
    where: { runId, seq: { gte: after } },
    orderBy: { seq: "asc" },
    take: limit,
    omit: { id: true, runId: true },
  });
}

export type StreamStat = {
  id: number;
  direction: string;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number | null;
  cwndBytes: number | null;
  jitterMs: number | null;
  lostPackets: number | null;
  packets: number | null;
};

const SAMPLE_BATCH = 5000;

type SampleRow = {
  seq: number | bigint;
  start: number;
  end: number;
  direction: string;
  bitsPerSecond: number;
  retransmits: number | bigint | null;
  jitterMs: number | null;
  lostPackets: number | bigint | null;
  packets: number | bigint | null;
  omitted: number | bigint | boolean;
  /** parsed by the adapter for JSON columns; text on drivers that do not */
  streams: unknown;
};

/** One bucket of thinned chart points, as SQL reduces it. */
type BucketRow = {
  bucket: number | bigint;
  t: number;
  bps: number | null;
  reverseBps: number | null;
  retransmits: number | bigint | null;
  jitterMs: number | null;
  lostPercent: number | null;
  omitted: number | bigint | boolean;
};

const toNumber = (value: number | bigint | null): number | null => (value === null ? null : Number(value));
const parseJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

type RunSeriesData = { points: SeriesPoint[]; streamCount: number; sampleCount: number };

// A finished run never changes: its chart points and stream totals are kept once read.
const FINISHED_KEPT = 16;
const finishedSeries = new Map<string, Promise<RunSeriesData>>();
const finishedStreams = new Map<number, Promise<StreamStat[]>>();

function cachedWhenFinished<K, T>(cache: Map<K, Promise<T>>, key: K, isFinished: boolean, read: () => Promise<T>): Promise<T> {
  if (!isFinished) return read();
  let cached = cache.get(key);
  if (!cached) {
    cached = read();
    cached.catch(() => cache.delete(key));
    cache.set(key, cached);
    if (cache.size > FINISHED_KEPT) cache.delete(cache.keys().next().value!);
  }
  return cached;
}

/**
 * What the run page's chart draws: the samples as chart points, thinned to at most `points`.
 * `isFinished`: the run has ended, so the result may be kept.
 */
export function getRunSeries({ runId, points = DISPLAY_POINTS, isFinished = false }: { runId: number; points?: number; isFinished?: boolean }): Promise<RunSeriesData> {
  return cachedWhenFinished(finishedSeries, `${runId}:${points}`, isFinished, () => readRunSeries(runId, points));
}
export type RunSeries = Awaited<ReturnType<typeof getRunSeries>>;

/** Per-stream values of the thin lines read per drawn point, at most: a spread of the bucket's intervals, not all of them. */
export const STREAM_SAMPLES_PER_POINT = 2;

async function readRunSeries(runId: number, points: number): Promise<RunSeriesData> {
  const [extent] = await db.$queryRaw<Array<{ total: number | bigint; lastSeq: number | bigint | null }>>`SELECT COUNT(*) AS "total", MAX("seq") AS "lastSeq" FROM "Sample" WHERE "runId" = ${runId}`;
  const sampleCount = Number(extent?.total ?? 0);
  if (sampleCount <= points) return { ...(await readAllPoints(runId)), sampleCount };
  return { ...(await readThinnedPoints(runId, points, Number(extent!.lastSeq))), sampleCount };
}

/** Few samples: every one of them, as the live chart builds them. */
async function readAllPoints(runId: number): Promise<{ points: SeriesPoint[]; streamCount: number }> {
  const rows = await db.$queryRaw<SampleRow[]>`SELECT "seq", "start", "end", "direction", "bitsPerSecond", "retransmits", "jitterMs", "lostPackets", "packets", "omitted", "streams" FROM "Sample" WHERE "runId" = ${runId} ORDER BY "seq"`;
  const builder = new SeriesBuilder();
  for (const row of rows) {
    builder.add(
      sampleEventFromRow({
        ...row,
        seq: Number(row.seq),
        // The chart reads neither: raw SQL skips them.
        bytes: 0,
        cwndBytes: null,
        retransmits: toNumber(row.retransmits),
        lostPackets: toNumber(row.lostPackets),
        packets: toNumber(row.packets),
        omitted: Boolean(Number(row.omitted)),
      }),
    );
  }
  return { points: builder.points, streamCount: builder.streamCount };
}

/**
 * Many samples (a one-hour run at -i 0.1 has 36,000, with 32 stream values each): SQL
 * averages the totals into buckets of consecutive intervals, as `downsample` does in the
 * browser, reading no stream values; the thin per-stream lines average a spread of
 * STREAM_SAMPLES_PER_POINT intervals of each bucket. Parsing every interval's stream values
 * was most of the cost of the first view (seconds for such a run; see bench/run-page.bench.ts).
 */
async function readThinnedPoints(runId: number, limit: number, lastSeq: number): Promise<{ points: SeriesPoint[]; streamCount: number }> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { options: true } });
  const isBidir = Boolean(run && parseStoredOptions(run.options).bidir);
  // Numbers are bound as REAL: the CASTs below keep the division whole.
  const size = Math.ceil((lastSeq + 1) / limit);
  // An interval is one chart point: with --bidir its two directions (two samples with the same end) are joined first.
  const intervalKey = isBidir ? Prisma.sql`"end"` : Prisma.sql`"seq"`;
  const buckets = await db.$queryRaw<BucketRow[]>`
    SELECT "seq" / CAST(${size} AS INTEGER) AS "bucket", MAX("end") AS "t", AVG("bps") AS "bps", AVG("reverseBps") AS "reverseBps", MAX("retransmits") AS "retransmits",
      MAX("jitterMs") AS "jitterMs", MAX("lostPercent") AS "lostPercent", MIN("omitted") AS "omitted"
    FROM (
      SELECT MIN("seq") AS "seq", MAX("end") AS "end",
        MAX(CASE WHEN "direction" = 'reverse' THEN NULL ELSE "bitsPerSecond" END) AS "bps",
        MAX(CASE WHEN "direction" = 'reverse' THEN "bitsPerSecond" END) AS "reverseBps",
        SUM("retransmits") AS "retransmits", MAX("jitterMs") AS "jitterMs",
        MAX(CASE WHEN "packets" > 0 THEN "lostPackets" * 100.0 / "packets" END) AS "lostPercent",
        MIN("omitted") AS "omitted"
      FROM "Sample" WHERE "runId" = ${runId} GROUP BY ${intervalKey}
    )
    GROUP BY "bucket" ORDER BY "bucket"`;
  const pointOf = new Map<number, SeriesPoint>();
  const points = buckets.map((row): SeriesPoint => {
    const point: SeriesPoint = {
      t: row.t,
      bps: row.bps,
      reverseBps: row.reverseBps,
      retransmits: toNumber(row.retransmits),
      jitterMs: row.jitterMs,
      lostPercent: row.lostPercent,
      omitted: Boolean(Number(row.omitted)),
    };
    pointOf.set(Number(row.bucket), point);
    return point;
  });

  let step = Math.max(1, Math.ceil((lastSeq + 1) / (limit * STREAM_SAMPLES_PER_POINT)));
  // --bidir stores its directions one after the other: an odd step picks both, an even one only one of them.
  if (isBidir && step % 2 === 0) step += 1;
  // `seq % step` is checked on the (runId, seq) index, so only the picked rows are read.
  const spread = await db.$queryRaw<Array<{ seq: number | bigint; streams: unknown }>>`
    SELECT "seq", "streams" FROM "Sample"
    WHERE "runId" = ${runId} AND ("seq" % CAST(${step} AS INTEGER)) = 0 AND "direction" <> 'reverse' AND "streams" IS NOT NULL
    ORDER BY "seq"`;
  const streamIndex = new Map<number, number>();
  const sums = new Map<number, { sum: number[]; count: number[] }>();
  for (const row of spread) {
    const bucket = Math.floor(Number(row.seq) / size);
    if (!pointOf.has(bucket)) continue;
    const streams = parseJson(row.streams);
    if (!Array.isArray(streams)) continue;
    const entry = sums.get(bucket) ?? { sum: [], count: [] };
    for (const stream of streams as Array<{ id?: unknown; bitsPerSecond?: unknown }>) {
      if (typeof stream?.id !== "number" || typeof stream.bitsPerSecond !== "number") continue;
      let index = streamIndex.get(stream.id);
      if (index === undefined) {
        index = streamIndex.size;
        streamIndex.set(stream.id, index);
      }
      if (index >= MAX_STREAM_LINES) continue;
      entry.sum[index] = (entry.sum[index] ?? 0) + stream.bitsPerSecond;
      entry.count[index] = (entry.count[index] ?? 0) + 1;
    }
    sums.set(bucket, entry);
  }
  for (const [bucket, entry] of sums) {
    const point = pointOf.get(bucket)!;
    entry.sum.forEach((sum, index) => {
      if (entry.count[index]) point[`s${index}`] = sum / entry.count[index]!;
    });
  }
  return { points, streamCount: Math.min(streamIndex.size, MAX_STREAM_LINES) };
}

/**
 * The per-stream table of a run: each stream's totals over every interval that counts
 * (omitted warm-up left out). Reads every stream value, so the run page streams it in
 * after the chart. `isFinished`: the run has ended, so the result may be kept.
 */
export function getRunStreamStats({ runId, isFinished = false }: { runId: number; isFinished?: boolean }): Promise<StreamStat[]> {
  return cachedWhenFinished(finishedStreams, runId, isFinished, () => readRunStreamStats(runId));
}

async function readRunStreamStats(runId: number): Promise<StreamStat[]> {
  const streams = new Map<string, StreamStat & { seconds: number; jitterSum: number; jitterCount: number }>();
  for (let after = 0; ; ) {
    // Raw SQL: Prisma's row mapping costs more than the query for tens of thousands of samples.
    const batch = await db.$queryRaw<Array<{ seq: number | bigint; seconds: number; direction: string; streams: unknown }>>`
      SELECT "seq", "end" - "start" AS "seconds", "direction", "streams" FROM "Sample"
      WHERE "runId" = ${runId} AND "seq" >= ${after} AND "omitted" = 0 AND "streams" IS NOT NULL
      ORDER BY "seq" LIMIT ${SAMPLE_BATCH}`;
    for (const row of batch) {
      const values = parseJson(row.streams);
      if (!Array.isArray(values)) continue;
      for (const raw of values as IperfStreamSample[]) {
        const key = `${row.direction}:${raw.id}`;
        let stat = streams.get(key);
        if (!stat) {
          stat = { id: raw.id, direction: row.direction, bytes: 0, bitsPerSecond: 0, retransmits: null, cwndBytes: null, jitterMs: null, lostPackets: null, packets: null, seconds: 0, jitterSum: 0, jitterCount: 0 };
          streams.set(key, stat);
        }
        stat.bytes += raw.bytes;
        stat.seconds += row.seconds;
        if (raw.retransmits !== undefined) stat.retransmits = (stat.retransmits ?? 0) + raw.retransmits;
        if (raw.cwndBytes !== undefined) stat.cwndBytes = raw.cwndBytes;
        if (raw.jitterMs !== undefined) {
          stat.jitterSum += raw.jitterMs;
          stat.jitterCount += 1;
        }
        if (raw.lostPackets !== undefined) stat.lostPackets = (stat.lostPackets ?? 0) + raw.lostPackets;
        if (raw.packets !== undefined) stat.packets = (stat.packets ?? 0) + raw.packets;
      }
    }
    if (batch.length < SAMPLE_BATCH) break;
    after = Number(batch.at(-1)!.seq) + 1;
  }
  return [...streams.values()].map(({ seconds, jitterSum, jitterCount, ...stat }) => ({
    ...stat,
    bitsPerSecond: seconds > 0 ? (stat.bytes * 8) / seconds : 0,
    jitterMs: jitterCount ? jitterSum / jitterCount : null,
  }));
}

/** Every sample of a run, in order, in batches: for the CSV and JSON exports. */
export async function* iterateRunSamples(runId: number) {
  for (let after = 0; ; ) {
    const batch = await db.sample.findMany({ where: { runId, seq: { gte: after } }, orderBy: { seq: "asc" }, take: SAMPLE_BATCH, omit: { id: true, runId: true } });
    yield* batch;
    if (batch.length < SAMPLE_BATCH) return;
    after = batch.at(-1)!.seq + 1;
  }
}

/** Runs to compare side by side: their figures and their interval curves (total bits/s), thinned. */
export async function getRunComparison({ ids, linkId, points = 400 }: { ids: number[]; linkId?: number; points?: number }) {
  const runs = await db.run.findMany({
    where: { id: { in: ids }, ...(linkId === undefined ? {} : { linkId }) },
    omit: { serverOutput: true, clientOutput: true },
    include: { link: runLinkSelect },
  });
  const ordered = ids.map((id) => runs.find((run) => run.id === id)).filter((run) => run !== undefined);
  return Promise.all(
    ordered.map(async (run) => {
      const series = await getRunSeries({ runId: run.id, points, isFinished: !isActiveStatus(run.status) });
      return { run: toRunRow(run), sentBitsPerSecond: run.sentBitsPerSecond, points: series.points.map((point) => ({ t: point.t, bps: point.bps })) };
    }),
  );
}
export type RunComparison = Awaited<ReturnType<typeof getRunComparison>>;

