import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { FINAL_RUN_STATUSES, parseStoredOptions, sampleEventFromRow } from "./contract";
import { DISPLAY_POINTS, MAX_STREAM_LINES, SeriesBuilder, type SeriesPoint } from "./series";
import { StreamTotals, type StreamStat } from "./stream-totals";
import { allTrue } from "@/lib/sql-dialect";

// A finished run's digest: its chart points thinned to DISPLAY_POINTS and each stream's totals.
// It is stored when the run ends (the engine and imports call storeRunDigest), so that the run
// page of a one-hour, 32-stream run at -i 0.1 reads one row instead of 36,000 samples carrying
// 1.15 million stream values. A run that ended before digests existed gets its own from the
// background pass at start (backfillRunDigests) or its page's first view, whichever comes first.
// Retention (./retention.ts) deletes old runs' samples and keeps their digest.

export type RunDigestData = {
  points: SeriesPoint[];
  streamCount: number;
  sampleCount: number;
  streams: StreamStat[];
  /** when retention deleted the run's interval samples; null while they are kept */
  compactedAt: Date | null;
};

/** The chart's points of a run, read from its samples (a run still going, or one without a digest yet). */
export type SampleSeries = { points: SeriesPoint[]; streamCount: number; sampleCount: number };

/** Samples read per statement when a whole run is walked: memory stays flat in the run's length. */
export const SAMPLE_BATCH = 5000;

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
  lostPercent: number | Prisma.Decimal | null;
  omitted: number | bigint | boolean;
};

const toNumber = (value: number | bigint | Prisma.Decimal | null): number | null =>
  value === null ? null : Number(value);
const parseJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

/** Per-stream values of the thin lines read per drawn point, at most: a spread of the bucket's intervals, not all of them. */
export const STREAM_SAMPLES_PER_POINT = 2;

export async function readSeriesFromSamples(runId: number, points: number = DISPLAY_POINTS): Promise<SampleSeries> {
  const [extent] = await db.$queryRaw<
    Array<{ total: number | bigint; lastSeq: number | bigint | null }>
  >`SELECT COUNT(*) AS "total", MAX("seq") AS "lastSeq" FROM "Sample" WHERE "runId" = ${runId}`;
  const sampleCount = Number(extent?.total ?? 0);
  if (sampleCount <= points) return { ...(await readAllPoints(runId)), sampleCount };
  return { ...(await readThinnedPoints(runId, points, Number(extent!.lastSeq))), sampleCount };
}

/** Few samples: every one of them, as the live chart builds them. */
async function readAllPoints(runId: number): Promise<{ points: SeriesPoint[]; streamCount: number }> {
  const rows = await db.$queryRaw<
    SampleRow[]
  >`SELECT "seq", "start", "end", "direction", "bitsPerSecond", "retransmits", "jitterMs", "lostPackets", "packets",
    "omitted", "streams" FROM "Sample" WHERE "runId" = ${runId} ORDER BY "seq"`;
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
async function readThinnedPoints(
  runId: number,
  limit: number,
  lastSeq: number,
): Promise<{ points: SeriesPoint[]; streamCount: number }> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { options: true } });
  const isBidir = Boolean(run && parseStoredOptions(run.options).bidir);
  // Numbers are bound as REAL: the CASTs below keep the division whole.
  const size = Math.ceil((lastSeq + 1) / limit);
  // An interval is one chart point: with --bidir its two directions (two samples with the same end) are joined first.
  const intervalKey = isBidir ? Prisma.sql`"end"` : Prisma.sql`"seq"`;
  // An interval's or bucket's `omitted`: whether all of its samples are (MIN of 0 and 1 on SQLite).
  const omitted = allTrue(Prisma.sql`"omitted"`);
  const buckets = await db.$queryRaw<BucketRow[]>`
    SELECT "seq" / CAST(${size} AS INTEGER) AS "bucket", MAX("end") AS "t", AVG("bps") AS "bps",
      AVG("reverseBps") AS "reverseBps", MAX("retransmits") AS "retransmits",
      MAX("jitterMs") AS "jitterMs", MAX("lostPercent") AS "lostPercent", ${omitted} AS "omitted"
    FROM (
      SELECT MIN("seq") AS "seq", MAX("end") AS "end",
        MAX(CASE WHEN "direction" = 'reverse' THEN NULL ELSE "bitsPerSecond" END) AS "bps",
        MAX(CASE WHEN "direction" = 'reverse' THEN "bitsPerSecond" END) AS "reverseBps",
        SUM("retransmits") AS "retransmits", MAX("jitterMs") AS "jitterMs",
        MAX(CASE WHEN "packets" > 0 THEN "lostPackets" * 100.0 / "packets" END) AS "lostPercent",
        ${omitted} AS "omitted"
      FROM "Sample" WHERE "runId" = ${runId} GROUP BY ${intervalKey}
    ) AS "interval"
    GROUP BY "bucket" ORDER BY "bucket"`;
  const pointOf = new Map<number, SeriesPoint>();
  const points = buckets.map((row): SeriesPoint => {
    const point: SeriesPoint = {
      t: row.t,
      bps: row.bps,
      reverseBps: row.reverseBps,
      retransmits: toNumber(row.retransmits),
      jitterMs: row.jitterMs,
      // Postgres gives integers times 100.0 as a Decimal.
      lostPercent: toNumber(row.lostPercent),
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

/** Each stream's totals over every interval that counts, read from the run's samples in batches. */
export async function readStreamStatsFromSamples(runId: number): Promise<StreamStat[]> {
  const totals = new StreamTotals();
  for (let after = 0; ;) {
    // Raw SQL: Prisma's row mapping costs more than the query for tens of thousands of samples.
    const batch = await db.$queryRaw<
      Array<{ seq: number | bigint; start: number; end: number; direction: string; streams: unknown }>
    >`
      SELECT "seq", "start", "end", "direction", "streams" FROM "Sample"
      WHERE "runId" = ${runId} AND "seq" >= ${after} AND "omitted" = FALSE AND "streams" IS NOT NULL
      ORDER BY "seq" LIMIT ${SAMPLE_BATCH}`;
    for (const row of batch) {
      const streams = parseJson(row.streams);
      if (Array.isArray(streams))
        totals.add({ start: row.start, end: row.end, direction: row.direction, omitted: false, streams });
    }
    if (batch.length < SAMPLE_BATCH) break;
    after = Number(batch.at(-1)!.seq) + 1;
  }
  return totals.stats();
}

/**
 * Stores a finished run's digest from its samples. `streams`: the totals the engine kept while
 * the run streamed; without them they are read back from the samples (seconds for a long run).
 * A run whose samples retention already deleted keeps the digest it has.
 */
export async function storeRunDigest(runId: number, streams?: StreamStat[]): Promise<RunDigestData> {
  const existing = await db.runDigest.findUnique({ where: { runId }, select: { compactedAt: true } });
  if (existing?.compactedAt) return (await readStoredDigest(runId))!;
  const series = await readSeriesFromSamples(runId);
  const data = {
    points: series.points,
    streamCount: series.streamCount,
    sampleCount: series.sampleCount,
    streams: streams ?? (await readStreamStatsFromSamples(runId)),
  };
  const json = {
    points: data.points as unknown as Prisma.InputJsonValue,
    streams: data.streams as unknown as Prisma.InputJsonValue,
  };
  await db.runDigest.upsert({
    where: { runId },
    create: { runId, ...json, streamCount: data.streamCount, sampleCount: data.sampleCount },
    update: { ...json, streamCount: data.streamCount, sampleCount: data.sampleCount },
  });
  return { ...data, compactedAt: null };
}

async function readStoredDigest(runId: number): Promise<RunDigestData | null> {
  const row = await db.runDigest.findUnique({ where: { runId }, omit: { runId: true, createdAt: true } });
  if (!row) return null;
  return {
    points: parseJson(row.points) as SeriesPoint[],
    streams: parseJson(row.streams) as StreamStat[],
    streamCount: row.streamCount,
    sampleCount: row.sampleCount,
    compactedAt: row.compactedAt,
  };
}

// A first view of a run without a digest stores it; two views at once store it once.
const storing = new Map<number, Promise<RunDigestData>>();

/** A finished run's digest, stored first if the run has none yet. */
export async function getRunDigest(runId: number): Promise<RunDigestData> {
  const stored = await readStoredDigest(runId);
  if (stored) return stored;
  let pending = storing.get(runId);
  if (!pending) {
    pending = storeRunDigest(runId).finally(() => storing.delete(runId));
    storing.set(runId, pending);
  }
  return pending;
}

/**
 * Stores the digest of every finished run that has none (runs that ended before digests existed,
 * or whose end was cut short), one run at a time, oldest last: recent runs are the ones people
 * open. Returns how many it stored. `shouldStop` ends it early (shutdown).
 */
export async function backfillRunDigests({
  shouldStop = () => false,
  batch = 100,
}: { shouldStop?: () => boolean; batch?: number } = {}): Promise<number> {
  let stored = 0;
  for (let before = Number.MAX_SAFE_INTEGER; !shouldStop();) {
    // BIGINT: the first cursor is past any id, and past Postgres's integer, the type it would give it.
    const missing = await db.$queryRaw<Array<{ id: number | bigint }>>`
      SELECT "id" FROM "Run" WHERE "id" < CAST(${before} AS BIGINT) AND "status" IN (${Prisma.join([...FINAL_RUN_STATUSES])})
        AND NOT EXISTS (SELECT 1 FROM "RunDigest" WHERE "RunDigest"."runId" = "Run"."id")
      ORDER BY "id" DESC LIMIT ${batch}`;
    for (const { id } of missing) {
      if (shouldStop()) break;
      await getRunDigest(Number(id));
      stored += 1;
    }
    if (missing.length < batch) break;
    before = Number(missing.at(-1)!.id);
  }
  return stored;
}

/** What is left of a compacted run's samples (its digest), or null while they are kept. */
export async function readCompactedDigest(runId: number): Promise<RunDigestData | null> {
  const digest = await readStoredDigest(runId);
  return digest?.compactedAt ? digest : null;
}
