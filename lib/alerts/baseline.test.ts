import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { signatureOf } from "@/lib/runs/signature";
import { describeAgainstBaseline } from "./contract";
import { againstBaseline, baselineFor, getLinkBaseline, linkBaselines } from "./baseline";

// Baselines on a real SQLite file, with runs written as the engine leaves them.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

const MBIT = 1e6;
const TCP = signatureOf({}, "a");
const UDP_100M = signatureOf({ protocol: "udp", bitrate: 100 * MBIT }, "a");
const UDP_500M = signatureOf({ protocol: "udp", bitrate: 500 * MBIT }, "a");

let linkId: number;
let clock = Date.UTC(2026, 0, 1);

async function seedLink(baselineRuns = 10): Promise<number> {
  const nics = [];
  for (const side of ["a", "b"]) {
    const host = await db.host.create({
      data: { name: `host-${side}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
    });
    nics.push(await db.nic.create({ data: { hostId: host.id, name: "eth1" } }));
  }
  return (
    await db.link.create({
      data: { name: "nas-10g", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000, baselineRuns },
    })
  ).id;
}

type RunSpec = {
  rate?: number | null;
  status?: string;
  signature?: string;
  experimentId?: number | null;
  link?: number;
  pathVerdict?: string | null;
};

/** A finished run, a minute after the one before. */
async function addRun({
  rate = 940 * MBIT,
  status = "succeeded",
  signature = TCP,
  experimentId = null,
  link,
  pathVerdict = null,
}: RunSpec = {}) {
  clock += 60_000;
  return db.run.create({
    data: {
      linkId: link ?? linkId,
      status,
      options: {},
      signature,
      experimentId,
      pathVerdict,
      receivedBitsPerSecond: status === "succeeded" ? rate : null,
      createdAt: new Date(clock),
      endedAt: new Date(clock + 10_000),
    },
  });
}

beforeEach(async () => {
  await database.reset();
  linkId = await seedLink();
});

afterAll(() => database.close());

describe("baselineFor", () => {
  it("is the median of the last N successful runs of the signature, N from the link", async () => {
    await db.link.update({ where: { id: linkId }, data: { baselineRuns: 5 } });
    // the two oldest fall outside the last 5
    for (const rate of [100, 200, 900, 940, 950, 930, 945]) await addRun({ rate: rate * MBIT });
    const figures = await baselineFor({ id: linkId, baselineRuns: 5, importsInBaseline: false }, TCP, null);
    expect(figures).toMatchObject({
      medianBitsPerSecond: 940 * MBIT,
      minBitsPerSecond: 900 * MBIT,
      maxBitsPerSecond: 950 * MBIT,
      count: 5,
    });
    const [baseline] = await linkBaselines({ id: linkId, baselineRuns: 5, importsInBaseline: false });
    expect(baseline).toMatchObject({
      signature: TCP,
      label: "TCP, A → B, 1 stream",
      medianBitsPerSecond: 940 * MBIT,
      count: 5,
      n: 5,
      minRuns: 3,
    });
  });

  it("takes the mean of the middle two with an even count", async () => {
    for (const rate of [900, 910, 930, 950]) await addRun({ rate: rate * MBIT });
    expect(
      (await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null)).medianBitsPerSecond,
    ).toBe(920 * MBIT);
  });

  it("needs 3 runs: with 2 there is no median, and the run page says so", async () => {
    await addRun();
    await addRun();
    const figures = await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null);
    expect(figures).toMatchObject({ medianBitsPerSecond: null, count: 2 });
    const third = await addRun({ rate: 700 * MBIT });
    expect(describeAgainstBaseline(await againstBaseline(third.id))).toBe("baseline from 2 runs, needs 3");
    expect(
      (await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null)).medianBitsPerSecond,
    ).toBe(940 * MBIT);
  });

  it("leaves out experiment runs, failed, cancelled and interrupted runs", async () => {
    const experiment = await db.experiment.create({ data: { kind: "sweep", status: "succeeded", plan: {} } });
    for (const rate of [900, 910, 920]) await addRun({ rate: rate * MBIT });
    await addRun({ rate: 100 * MBIT, experimentId: experiment.id });
    await addRun({ rate: 100 * MBIT, experimentId: experiment.id });
    await addRun({ status: "failed" });
    await addRun({ status: "cancelled" });
    await addRun({ status: "interrupted" });
    const figures = await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null);
    expect(figures).toMatchObject({ medianBitsPerSecond: 910 * MBIT, count: 3 });
  });

  it("leaves out runs whose bytes took another route; runs not checked, or checked on the link or unclear, count", async () => {
    await addRun({ rate: 900 * MBIT });
    await addRun({ rate: 910 * MBIT, pathVerdict: "on-link" });
    await addRun({ rate: 920 * MBIT, pathVerdict: "unknown" });
    await addRun({ rate: 930 * MBIT, pathVerdict: "unclear" });
    await addRun({ rate: 990 * MBIT, pathVerdict: "off-link" });
    await addRun({ rate: 990 * MBIT, pathVerdict: "off-link" });
    const figures = await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null);
    expect(figures).toMatchObject({ medianBitsPerSecond: 915 * MBIT, count: 4 });
  });

  it("keeps signatures apart, UDP bitrates included, and links apart", async () => {
    const other = await db.link.create({
      data: {
        name: "other",
        aNicId: (await db.nic.findFirstOrThrow()).id,
        bNicId: (await db.nic.findFirstOrThrow({ orderBy: { id: "desc" } })).id,
        speedMbps: 1000,
      },
    });
    for (const rate of [940, 935, 945]) await addRun({ rate: rate * MBIT });
    for (const rate of [99, 100, 98]) await addRun({ rate: rate * MBIT, signature: UDP_100M });
    for (const rate of [480, 490, 470, 500]) await addRun({ rate: rate * MBIT, signature: UDP_500M });
    for (const rate of [10, 20, 30]) await addRun({ rate: rate * MBIT, link: other.id });
    expect(
      (await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, null)).medianBitsPerSecond,
    ).toBe(940 * MBIT);
    expect(
      (await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, UDP_100M, null))
        .medianBitsPerSecond,
    ).toBe(99 * MBIT);
    expect(
      (await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, UDP_500M, null))
        .medianBitsPerSecond,
    ).toBe(485 * MBIT);
    expect(
      (await baselineFor({ id: other.id, baselineRuns: 10, importsInBaseline: false }, TCP, null)).medianBitsPerSecond,
    ).toBe(20 * MBIT);
    expect(UDP_100M).not.toBe(UDP_500M);
  });

  it("counts only runs created before the given time", async () => {
    const runs = [];
    for (const rate of [900, 910, 920, 930, 990]) runs.push(await addRun({ rate: rate * MBIT }));
    expect(
      await baselineFor({ id: linkId, baselineRuns: 10, importsInBaseline: false }, TCP, runs[3]!.createdAt),
    ).toMatchObject({ medianBitsPerSecond: 910 * MBIT, count: 3, runIds: [runs[2]!.id, runs[1]!.id, runs[0]!.id] });
  });
});

describe("a run against its baseline", () => {
  it("compares a run with the baseline of the runs before it, not with itself", async () => {
    for (const rate of [940, 940, 940]) await addRun({ rate: rate * MBIT });
    const slow = await addRun({ rate: 724 * MBIT });
    const against = await againstBaseline(slow.id);
    expect(against).toEqual({
      baselineBitsPerSecond: 940 * MBIT,
      count: 3,
      percentOfBaseline: 77,
      differencePercent: -23,
    });
    expect(describeAgainstBaseline(against)).toBe("−23% against the baseline of 940 Mbit/s");
  });

  it("is null for a failed run and for a run that does not exist", async () => {
    const failed = await addRun({ status: "failed" });
    expect(await againstBaseline(failed.id)).toBeNull();
    expect(await againstBaseline(424242)).toBeNull();
  });
});

describe("a link's baselines", () => {
  it("lists each signature of its judged runs, the most recently tested first, and the link's N", async () => {
    await addRun({ signature: UDP_100M, rate: 100 * MBIT });
    await addRun();
    const experiment = await db.experiment.create({ data: { kind: "sweep", status: "succeeded", plan: {} } });
    await addRun({ signature: signatureOf({ parallel: 8 }, "a"), experimentId: experiment.id });
    await addRun({ signature: signatureOf({ reverse: true }, "a"), status: "failed" });
    const answer = await getLinkBaseline(linkId);
    expect(answer).toMatchObject({ linkId, baselineRuns: 10 });
    // the experiment's P8 signature is not listed; the failed reverse test is, with no runs yet
    expect(answer!.signatures.map((entry) => [entry.signature, entry.count])).toEqual([
      ["tcp b-to-a P1", 0],
      [TCP, 1],
      [UDP_100M, 1],
    ]);
    expect(answer!.signatures[2]!.label).toBe("UDP, A → B, 1 stream, 100 Mbit/s");
  });

  it("is null for a link that does not exist", async () => {
    expect(await getLinkBaseline(424242)).toBeNull();
  });
});
