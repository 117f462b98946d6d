import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleEventFromRow, type SampleEvent } from "@/lib/runs/contract";
import { buildSeries as buildEventSeries, downsample, type SeriesPoint } from "@/lib/runs/series";
import { Prisma } from "@/lib/generated/prisma/client";
import { openTestDatabase, type TestDatabase } from "@/testing/database";

// The run page's reads on a real, migrated database (SQLite, or Postgres in that project): the
// chart points SQL thins must be what the browser's downsample makes of the same samples, and the
// per-stream totals exact.

type Queries = typeof import("@/lib/runs/series-reads") & typeof import("@/lib/runs/lists");

let queries: Queries;
let linkId = 0;
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  linkId = await insertLink(database.db, "q");
  queries = { ...(await import("@/lib/runs/series-reads")), ...(await import("@/lib/runs/lists")) };
}, 60_000);

afterAll(async () => {
  await database?.close();
});

/** Two hosts with a NIC each and a 1 Gbit/s link between them; returns the link's id. */
async function insertLink(db: TestDatabase["db"], prefix: string): Promise<number> {
  const [a, b] = await Promise.all(
    ["a", "b"].map((end) =>
      db.host.create({
        data: {
          name: `${prefix}-${end}`,
          address: "198.18.9.1",
          authMethod: "local",
          nics: { create: { name: "eth1" } },
        },
        select: { nics: { select: { id: true } } },
      }),
    ),
  );
  const link = await db.link.create({
    data: { name: `${prefix}-link`, aNicId: a!.nics[0]!.id, bNicId: b!.nics[0]!.id, speedMbps: 1000 },
  });
  return link.id;
}

type Sample = Partial<Omit<SampleEvent, "streams">> &
  Pick<SampleEvent, "start" | "end" | "bytes" | "bitsPerSecond"> & { streams?: NonNullable<SampleEvent["streams"]> };

/** The browser's series of the same samples, as the live stream would send them. */
function buildSeries(samples: Sample[]) {
  return buildEventSeries(
    samples.map((sample, seq) =>
      sampleEventFromRow({
        seq,
        direction: "forward",
        retransmits: null,
        cwndBytes: null,
        jitterMs: null,
        lostPackets: null,
        packets: null,
        omitted: false,
        ...sample,
        streams: sample.streams ?? null,
      }),
    ),
  );
}

/** Stores a finished run with these samples (seq in order) and returns its id. */
async function storeRun(samples: Sample[], options: Record<string, unknown> = {}): Promise<number> {
  const { db } = database;
  const run = await db.run.create({
    data: {
      linkId,
      status: "succeeded",
      clientSide: "a",
      options: { protocol: "tcp", parallel: 1, reverse: false, bidir: false, interval: 1, zerocopy: false, ...options },
    },
  });
  const rows = samples.map((sample, seq) => ({
    runId: run.id,
    seq,
    start: sample.start,
    end: sample.end,
    direction: sample.direction ?? "forward",
    bytes: sample.bytes,
    bitsPerSecond: sample.bitsPerSecond,
    retransmits: sample.retransmits ?? null,
    jitterMs: sample.jitterMs ?? null,
    lostPackets: sample.lostPackets ?? null,
    packets: sample.packets ?? null,
    omitted: sample.omitted ?? false,
    streams: sample.streams ? (sample.streams as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
  }));
  // In slices, well under either database's limit of bound values in one statement.
  for (let from = 0; from < rows.length; from += 1000)
    await db.sample.createMany({ data: rows.slice(from, from + 1000) });
  return run.id;
}

/** `count` intervals of 0.1 s with `streams` streams whose rates vary from one interval to the next. */
function tcpSamples(count: number, streams: number, { omitFirst = 0 } = {}): Sample[] {
  return Array.from({ length: count }, (_, seq) => {
    const values = Array.from({ length: streams }, (_, index) => {
      const bitsPerSecond = 1e8 + ((seq * 7 + index * 13) % 50) * 1e6;
      return {
        id: 5 + 2 * index,
        bytes: bitsPerSecond / 80,
        bitsPerSecond,
        retransmits: (seq + index) % 11 === 0 ? 2 : 0,
        cwndBytes: 1000 * (seq + 1),
      };
    });
    return {
      start: seq / 10,
      end: (seq + 1) / 10,
      bytes: values.reduce((sum, value) => sum + value.bytes, 0),
      bitsPerSecond: values.reduce((sum, value) => sum + value.bitsPerSecond, 0),
      retransmits: values.reduce((sum, value) => sum + value.retransmits, 0),
      omitted: seq < omitFirst,
      streams: streams > 1 ? values : undefined,
    };
  });
}

function expectSamePoints(actual: SeriesPoint[], expected: SeriesPoint[], streamCount: number): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((point, index) => {
    const reference = expected[index]!;
    expect(point.t).toBeCloseTo(reference.t, 9);
    expect(point.bps).toBeCloseTo(reference.bps!, 3);
    expect(point.retransmits).toBe(reference.retransmits);
    expect(point.omitted).toBe(reference.omitted);
    for (let stream = 0; stream < streamCount; stream += 1)
      expect(point[`s${stream}`]).toBeCloseTo(reference[`s${stream}`]!, 3);
  });
}

describe("getRunSeries", () => {
  it("gives every interval of a run with no more samples than points, as the live chart builds them", async () => {
    const samples = tcpSamples(40, 3, { omitFirst: 2 });
    const series = await queries.getRunSeries({ runId: await storeRun(samples, { parallel: 3 }), points: 600 });
    const reference = buildSeries(samples);
    expect(series.sampleCount).toBe(40);
    expect(series.streamCount).toBe(3);
    expect(series.points).toEqual(reference.points);
  });

  it("thins a longer run in SQL to what the browser's downsample makes of it, stream lines included", async () => {
    // 1,000 samples into 600 points: buckets of 2, and every interval's stream values read (2 per point).
    const samples = tcpSamples(1000, 4, { omitFirst: 10 });
    const series = await queries.getRunSeries({ runId: await storeRun(samples, { parallel: 4 }), points: 600 });
    expect(series.sampleCount).toBe(1000);
    expect(series.streamCount).toBe(4);
    expectSamePoints(series.points, downsample(buildSeries(samples).points, 600), 4);
  });

  it("averages the total over every interval of a bucket, and the stream lines over a spread of them", async () => {
    // 6,000 samples into 600 points of 10 intervals; the stream lines read every 5th interval (seq 0, 5, 10, …).
    const samples = tcpSamples(6000, 3);
    const series = await queries.getRunSeries({ runId: await storeRun(samples, { parallel: 3 }), points: 600 });
    const reference = downsample(buildSeries(samples).points, 600);
    expect(series.points).toHaveLength(600);
    series.points.forEach((point, bucket) => {
      expect(point.t).toBeCloseTo(reference[bucket]!.t, 9);
      expect(point.bps).toBeCloseTo(reference[bucket]!.bps!, 3);
      expect(point.retransmits).toBe(reference[bucket]!.retransmits);
      for (let stream = 0; stream < 3; stream += 1) {
        const picked = [samples[bucket * 10]!, samples[bucket * 10 + 5]!].map(
          (sample) => sample.streams![stream]!.bitsPerSecond,
        );
        expect(point[`s${stream}`]).toBeCloseTo((picked[0]! + picked[1]!) / 2, 3);
      }
    });
  });

  it("joins the two directions of a --bidir interval into one point, summing their retransmits", async () => {
    const samples: Sample[] = [];
    for (let interval = 0; interval < 800; interval += 1) {
      const end = (interval + 1) / 10;
      samples.push({
        start: end - 0.1,
        end,
        direction: "forward",
        bytes: 1,
        bitsPerSecond: 9e8 + interval,
        retransmits: interval === 401 ? 5 : 0,
      });
      samples.push({
        start: end - 0.1,
        end,
        direction: "reverse",
        bytes: 1,
        bitsPerSecond: 4e8 + interval,
        retransmits: interval === 401 ? 7 : 1,
      });
    }
    const series = await queries.getRunSeries({ runId: await storeRun(samples, { bidir: true }), points: 600 });
    expect(series.sampleCount).toBe(1600);
    expect(series.points.length).toBeLessThanOrEqual(600);
    expect(series.points.length).toBeGreaterThan(500);
    for (const point of series.points) {
      expect(point.bps).toBeGreaterThanOrEqual(9e8);
      expect(point.reverseBps).toBeGreaterThanOrEqual(4e8);
      expect(point.reverseBps).toBeLessThan(5e8);
    }
    // The worst interval: 5 forward + 7 reverse retransmits.
    expect(Math.max(...series.points.map((point) => point.retransmits ?? 0))).toBe(12);
    expect(series.points.at(-1)!.t).toBeCloseTo(80, 9);
  });

  it("reads a finished run from its digest, stored on the first read: later reads need no sample", async () => {
    const runId = await storeRun(tcpSamples(700, 2), { parallel: 2 });
    const fromSamples = await queries.getRunSeries({ runId });
    const streams = await queries.getRunStreamStats({ runId });
    expect(await database.db.runDigest.count({ where: { runId } })).toBe(0);
    const first = await queries.getRunSeries({ runId, isFinished: true });
    expect(first).toEqual(fromSamples);
    expect(await database.db.runDigest.count({ where: { runId } })).toBe(1);
    await database.db.sample.deleteMany({ where: { runId } });
    expect(await queries.getRunSeries({ runId, isFinished: true })).toEqual(first);
    expect(await queries.getRunStreamStats({ runId, isFinished: true })).toEqual(streams);
    expect((await queries.getRunSeries({ runId })).sampleCount).toBe(0);
    // Fewer points (the comparison's 400) are the digest's, thinned as the browser would.
    expect((await queries.getRunSeries({ runId, isFinished: true, points: 400 })).points).toEqual(
      downsample(first.points, 400),
    );
  });
});

describe("getRunStreamStats", () => {
  it("totals each stream over every interval that counts, leaving the omitted warm-up out", async () => {
    const samples = tcpSamples(3000, 3, { omitFirst: 20 });
    const stats = await queries.getRunStreamStats({ runId: await storeRun(samples, { parallel: 3 }) });
    expect(stats).toHaveLength(3);
    const counted = samples.slice(20);
    stats.forEach((stat, index) => {
      const values = counted.map((sample) => sample.streams![index]!);
      const bytes = values.reduce((sum, value) => sum + value.bytes, 0);
      expect(stat).toMatchObject({
        id: 5 + 2 * index,
        direction: "forward",
        retransmits: values.reduce((sum, value) => sum + (value.retransmits ?? 0), 0),
        cwndBytes: 3_000_000,
      });
      expect(stat.bytes).toBeCloseTo(bytes, 3);
      expect(stat.bitsPerSecond).toBeCloseTo((bytes * 8) / (counted.length * 0.1), 1);
    });
  });

  it("has no rows for a single-stream run, whose samples carry no per-stream values", async () => {
    expect(await queries.getRunStreamStats({ runId: await storeRun(tcpSamples(50, 1)) })).toEqual([]);
  });
});
