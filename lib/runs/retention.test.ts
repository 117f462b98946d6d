import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IperfInterval } from "@/lib/iperf";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import * as digest from "./digest";
import * as retention from "./retention";
import * as runSeries from "@/lib/runs/series-reads";

// The digest of a finished run and sample retention, on a real migrated database (SQLite, or
// Postgres in that project): what the
// engine keeps as a run streams equals what is read back from its samples; compaction deletes
// old runs' samples and nothing else, and their pages read the same points afterwards.

let database: TestDatabase;
let linkId = 0;
let SampleWriter: typeof import("./samples").SampleWriter;

beforeAll(async () => {
  database = await openTestDatabase();
  const [a, b] = await Promise.all(
    ["r-a", "r-b"].map((name) =>
      database.db.host.create({
        data: { name, address: "198.18.9.1", authMethod: "local", nics: { create: { name: "eth1" } } },
        select: { nics: { select: { id: true } } },
      }),
    ),
  );
  linkId = (
    await database.db.link.create({
      data: { name: "r-link", aNicId: a!.nics[0]!.id, bNicId: b!.nics[0]!.id, speedMbps: 1000 },
    })
  ).id;
  ({ SampleWriter } = await import("./samples"));
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const DAY = 86_400_000;

async function insertRun({ endedAt, status = "succeeded" }: { endedAt: Date; status?: string }): Promise<number> {
  const run = await database.db.run.create({
    data: {
      linkId,
      status,
      clientSide: "a",
      options: { protocol: "tcp", parallel: 4, reverse: false, bidir: false, interval: 0.1, zerocopy: false },
      createdAt: new Date(endedAt.getTime() - 60_000),
      endedAt,
      receivedBitsPerSecond: 9.4e8,
      clientOutput: "the client output",
    },
  });
  return run.id;
}

/** One sample of 1 s at 800 Mbit/s. */
async function insertSample(runId: number): Promise<void> {
  await database.db.sample.create({
    data: { runId, seq: 0, start: 0, end: 1, direction: "forward", bytes: 1e8, bitsPerSecond: 8e8, omitted: false },
  });
}

/** `count` intervals of 0.1 s with 4 streams (the first two omitted), as the parser gives them. */
function intervals(count: number): IperfInterval[] {
  return Array.from({ length: count }, (_, seq) => {
    const streams = Array.from({ length: 4 }, (_, index) => {
      const bitsPerSecond = 2e8 + ((seq * 7 + index * 13) % 50) * 1e6;
      return {
        id: 5 + 2 * index,
        start: seq / 10,
        end: (seq + 1) / 10,
        bytes: bitsPerSecond / 80,
        bitsPerSecond,
        retransmits: (seq + index) % 11 === 0 ? 3 : 0,
        cwndBytes: 1000 * (seq + 1),
        omitted: seq < 2,
      };
    });
    return {
      start: seq / 10,
      end: (seq + 1) / 10,
      bytes: streams.reduce((sum, stream) => sum + stream.bytes, 0),
      bitsPerSecond: streams.reduce((sum, stream) => sum + stream.bitsPerSecond, 0),
      retransmits: streams.reduce((sum, stream) => sum + stream.retransmits, 0),
      omitted: seq < 2,
      streams,
    } as IperfInterval;
  });
}

/** A run stored as the engine stores it: through the sample writer, whose close stores the digest. */
async function runThroughWriter(endedAt: Date, count = 900): Promise<number> {
  const runId = await insertRun({ endedAt });
  const writer = new SampleWriter(runId);
  for (const interval of intervals(count)) writer.add(interval);
  await writer.close();
  return runId;
}

const digests = (...runIds: number[]) => database.db.runDigest.count({ where: { runId: { in: runIds } } });
const samplesOf = (runId: number) => database.db.sample.count({ where: { runId } });

describe("run digests", () => {
  it("are stored when the writer closes, with the stream totals it kept equal to those read back from the samples", async () => {
    const runId = await runThroughWriter(new Date());
    expect(await digests(runId)).toBe(1);
    const stored = await runSeries.getRunStreamStats({ runId, isFinished: true });
    const fromSamples = await digest.readStreamStatsFromSamples(runId);
    expect(stored).toHaveLength(4);
    // The same arithmetic in another order: equal but for the last bits of a float.
    const withoutRate = (stats: typeof stored) => stats.map((stat) => ({ ...stat, bitsPerSecond: 0 }));
    expect(withoutRate(stored)).toEqual(withoutRate(fromSamples));
    stored.forEach((stat, index) => expect(stat.bitsPerSecond).toBeCloseTo(fromSamples[index]!.bitsPerSecond, 3));
    // 898 counted intervals of 0.1 s: iperf3's own arithmetic on the streams' bytes.
    const first = intervals(900)
      .slice(2)
      .map((interval) => interval.streams[0]!);
    expect(stored[0]!.bytes).toBeCloseTo(
      first.reduce((sum, stream) => sum + stream.bytes, 0),
      3,
    );
    expect(stored[0]!.bitsPerSecond).toBeCloseTo((stored[0]!.bytes * 8) / 89.8, 3);
    const series = await runSeries.getRunSeries({ runId, isFinished: true });
    expect(series).toEqual({ ...(await digest.readSeriesFromSamples(runId)), compactedAt: null });
    expect(series.points).toHaveLength(450);
    expect(series.sampleCount).toBe(900);
  });

  it("are stored by the background pass for finished runs without one, and never for a run still going", async () => {
    const old = await insertRun({ endedAt: new Date() });
    await insertSample(old);
    const active = await insertRun({ endedAt: new Date(), status: "running" });
    expect(await digests(old, active)).toBe(0);
    expect(await digest.backfillRunDigests()).toBeGreaterThanOrEqual(1);
    expect(await digests(old)).toBe(1);
    expect(await digests(active)).toBe(0);
    expect((await runSeries.getRunSeries({ runId: old, isFinished: true })).points).toEqual([
      expect.objectContaining({ t: 1, bps: 8e8 }),
    ]);
    // A second pass finds nothing left to do.
    expect(await digest.backfillRunDigests()).toBe(0);
  });
});

describe("sample retention", () => {
  it("reads WIRESPEED_SAMPLES_KEEP_DAYS: 180 by default, 0 for ever, and names the variable and what it allows otherwise", () => {
    expect(retention.samplesKeepDays({})).toBe(180);
    expect(retention.samplesKeepDays({ WIRESPEED_SAMPLES_KEEP_DAYS: "" })).toBe(180);
    expect(retention.samplesKeepDays({ WIRESPEED_SAMPLES_KEEP_DAYS: "0" })).toBe(0);
    expect(retention.samplesKeepDays({ WIRESPEED_SAMPLES_KEEP_DAYS: " 30 " })).toBe(30);
    for (const bad of ["3", "-1", "1.5", "thirty", "99999999", "6"]) {
      expect(() => retention.samplesKeepDays({ WIRESPEED_SAMPLES_KEEP_DAYS: bad })).toThrow(
        /WIRESPEED_SAMPLES_KEEP_DAYS must be 0 \(keep every sample forever\) or a whole number of days from 7 to 36500/,
      );
    }
  });

  it("compacts the runs that ended before the cutoff: samples gone, digest, summary and outputs kept, pages unchanged", async () => {
    const now = new Date();
    const old = await runThroughWriter(new Date(now.getTime() - 200 * DAY));
    const recent = await runThroughWriter(new Date(now.getTime() - 100 * DAY));
    const before = await runSeries.getRunSeries({ runId: old, isFinished: true });
    const streamsBefore = await runSeries.getRunStreamStats({ runId: old, isFinished: true });
    // A run without a digest yet (ended before digests existed) gets one first.
    await database.db.runDigest.delete({ where: { runId: old } });

    const result = await retention.compactRuns({ keepDays: 180, now });
    expect(result).toEqual({ runs: 1, samples: 900 });
    expect(await samplesOf(old)).toBe(0);
    expect(await samplesOf(recent)).toBe(900);
    const after = await runSeries.getRunSeries({ runId: old, isFinished: true });
    expect(after.points).toEqual(before.points);
    expect(after.sampleCount).toBe(900);
    expect(after.compactedAt?.getTime()).toBe(now.getTime());
    expect(await runSeries.getRunStreamStats({ runId: old, isFinished: true })).toEqual(streamsBefore);
    expect(
      await database.db.run.findUnique({
        where: { id: old },
        select: { receivedBitsPerSecond: true, clientOutput: true },
      }),
    ).toEqual({ receivedBitsPerSecond: 9.4e8, clientOutput: "the client output" });
    // A later pass has nothing left; a digest stored again never overwrites a compacted one.
    expect(await retention.compactRuns({ keepDays: 180, now })).toEqual({ runs: 0, samples: 0 });
    expect((await digest.storeRunDigest(old)).points).toEqual(before.points);
    // 0 keeps everything.
    expect(await retention.compactRuns({ keepDays: 0, now: new Date(now.getTime() + 1000 * DAY) })).toEqual({
      runs: 0,
      samples: 0,
    });
    expect(await samplesOf(recent)).toBe(900);
    // `npm run compact -- --vacuum` afterwards: the whole file rewritten on SQLite, the samples' table vacuumed on Postgres.
    await retention.vacuumDatabase();
    expect((await runSeries.getRunSeries({ runId: old, isFinished: true })).points).toEqual(before.points);
    expect(await samplesOf(recent)).toBe(900);
  });

  it("leaves a run still going alone, however old", async () => {
    const stuck = await insertRun({ endedAt: new Date(Date.now() - 400 * DAY), status: "running" });
    await insertSample(stuck);
    await retention.compactRuns({ keepDays: 7 });
    expect(await samplesOf(stuck)).toBe(1);
  });
});
