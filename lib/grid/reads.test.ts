import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { getGrid } from "@/lib/grid/reads";
import { signatureOf } from "@/lib/runs/signature";
import type { GridCell } from "@/lib/grid/contract";

// The grid's read on a real SQLite file: which runs make a cell, in which direction, which link a cell
// shows where several join two hosts, its status, its baseline and when it is stale.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

const NOW = new Date("2026-12-01T12:00:00Z");
const DAY = 24 * 3600_000;
const hostIds: Record<string, number> = {};
const linkIds: Record<string, number> = {};

async function host(name: string, tags: string[] = []) {
  hostIds[name] = (
    await db.host.create({ data: { name, address: "127.0.0.1", authMethod: "local", platform: "linux", tags } })
  ).id;
}

let nicCount = 0;
async function link(name: string, a: string, b: string, speedMbps: number) {
  const nic = async (hostName: string) =>
    (await db.nic.create({ data: { hostId: hostIds[hostName]!, name: `eth${(nicCount += 1)}`, addresses: [] } })).id;
  linkIds[name] = (
    await db.link.create({ data: { name, aNicId: await nic(a), bNicId: await nic(b), speedMbps, baselineRuns: 3 } })
  ).id;
}

type RunSpec = {
  status?: string;
  clientSide?: "a" | "b";
  reverse?: boolean;
  bidir?: boolean;
  protocol?: "tcp" | "udp";
  parallel?: number;
  received?: number | null;
  reverseReceived?: number | null;
  daysAgo: number;
  channel?: number;
  experiment?: boolean;
  pathVerdict?: "on-link" | "off-link";
};

let experimentId: number | null = null;
async function run(linkName: string, spec: RunSpec) {
  const options = {
    protocol: spec.protocol ?? "tcp",
    parallel: spec.parallel ?? 1,
    reverse: spec.reverse ?? false,
    bidir: spec.bidir ?? false,
    interval: 1,
    zerocopy: false,
    duration: 3,
    ...(spec.protocol === "udp" ? { bitrate: 1e8 } : {}),
  };
  const clientSide = spec.clientSide ?? "a";
  if (spec.experiment && experimentId === null)
    experimentId = (await db.experiment.create({ data: { kind: "sweep", status: "succeeded", plan: {} } })).id;
  const status = spec.status ?? "succeeded";
  return (
    await db.run.create({
      data: {
        linkId: linkIds[linkName]!,
        status,
        clientSide,
        options,
        signature: signatureOf(options, clientSide),
        createdAt: new Date(NOW.getTime() - spec.daysAgo * DAY),
        receivedBitsPerSecond: spec.received === undefined ? (status === "succeeded" ? 9e8 : null) : spec.received,
        reverseReceivedBitsPerSecond: spec.reverseReceived ?? null,
        channel: spec.channel ?? null,
        experimentId: spec.experiment ? experimentId : null,
        pathVerdict: spec.pathVerdict ?? null,
      },
    })
  ).id;
}

const cellOf = (cells: GridCell[], from: string, to: string) =>
  cells.find((cell) => cell.fromHostId === hostIds[from] && cell.toHostId === hostIds[to]);

const runIds: Record<string, number> = {};

beforeAll(async () => {
  for (const name of ["alpha", "beta", "gamma", "delta"]) await host(name, name === "delta" ? [] : ["rack1"]);
  await host("lonely", ["rack2"]);
  await link("ab-1g", "alpha", "beta", 1000);
  await link("ab-10g", "alpha", "beta", 10_000);
  await link("bg-1g", "beta", "gamma", 1000);
  await link("gd-1g", "gamma", "delta", 1000);

  // ab-1g: a→b by three runs (the baseline) then the latest; b→a only by a bidir run with its client on b.
  for (const [daysAgo, received] of [
    [5, 9e8],
    [4, 9.2e8],
    [3, 9.4e8],
  ] as const)
    await run("ab-1g", { daysAgo, received });
  runIds.abLatest = await run("ab-1g", { daysAgo: 1, received: 4.7e8 });
  // A UDP run and a channel's run are no TCP result of the link.
  await run("ab-1g", { daysAgo: 0.5, protocol: "udp", received: 1e8 });
  await run("ab-1g", { daysAgo: 0.4, received: 1e8, channel: 1, experiment: true });
  runIds.abBidir = await run("ab-1g", {
    daysAgo: 2,
    clientSide: "b",
    bidir: true,
    received: 8e8,
    reverseReceived: 7e8,
  });
  // ab-10g: faster, inside an experiment (a mesh fills the grid), a→b only.
  runIds.ab10g = await run("ab-10g", { daysAgo: 10, received: 9.1e9, parallel: 4, experiment: true });
  // bg-1g: b→g succeeded, then failed; g→b by -R with the client on b (the data goes g to b), cancelled later.
  runIds.bgOk = await run("bg-1g", { daysAgo: 3, received: 9.3e8, pathVerdict: "on-link" });
  await run("bg-1g", { daysAgo: 1, status: "failed" });
  // … and its bytes went another way (its proof of the path): the cell says so.
  runIds.gbOk = await run("bg-1g", { daysAgo: 2, reverse: true, received: 9.5e8, pathVerdict: "off-link" });
  await run("bg-1g", { daysAgo: 1, reverse: true, status: "cancelled", received: null });
  // gd-1g: only a failure one way, nothing the other.
  await run("gd-1g", { daysAgo: 1, status: "failed" });
});

afterAll(() => database.close());

describe("getGrid", () => {
  it("gives every host a link joins as rows and columns, by name, and a cell per ordered pair a link joins", async () => {
    const grid = await getGrid({ staleDays: 7 }, NOW);
    expect(grid.hosts.map((entry) => entry.name)).toEqual(["alpha", "beta", "delta", "gamma"]);
    expect(grid.cells.map((cell) => [cell.fromHostId, cell.toHostId])).toEqual([
      [hostIds.alpha, hostIds.beta],
      [hostIds.beta, hostIds.alpha],
      [hostIds.beta, hostIds.gamma],
      [hostIds.delta, hostIds.gamma],
      [hostIds.gamma, hostIds.beta],
      [hostIds.gamma, hostIds.delta],
    ]);
  });

  it("shows the fastest of several links, counts them, and marks a result older than the chosen age", async () => {
    const grid = await getGrid({ staleDays: 7 }, NOW);
    expect(cellOf(grid.cells, "alpha", "beta")).toEqual({
      fromHostId: hostIds.alpha,
      toHostId: hostIds.beta,
      linkId: linkIds["ab-10g"],
      linkCount: 2,
      runId: runIds.ab10g,
      at: new Date(NOW.getTime() - 10 * DAY).toISOString(),
      receivedBitsPerSecond: 9.1e9,
      lineRatePercent: 91,
      // Its only runs are an experiment's: no baseline.
      baselinePercent: null,
      stale: true,
      offLink: false,
      status: "succeeded",
    });
    expect(cellOf((await getGrid({ staleDays: 30 }, NOW)).cells, "alpha", "beta")!.stale).toBe(false);
  });

  it("takes the latest TCP result of a direction, its baseline from the runs before it, and a bidir run's second way", async () => {
    const grid = await getGrid({ hostIds: [hostIds.alpha!, hostIds.beta!], staleDays: 7 }, NOW);
    expect(grid.hosts.map((entry) => entry.name)).toEqual(["alpha", "beta"]);
    // b→a: ab-10g never ran that way, so ab-1g's bidir run (client on b: its first way is b to a) is the fastest.
    expect(cellOf(grid.cells, "beta", "alpha")).toMatchObject({
      linkId: linkIds["ab-1g"],
      linkCount: 2,
      runId: runIds.abBidir,
      receivedBitsPerSecond: 8e8,
      lineRatePercent: 80,
      status: "succeeded",
      stale: false,
    });
    // Without ab-10g's run, ab-1g's a→b is its latest a-to-b run (not the UDP or channel runs after it, nor
    // the older second way of the bidir run): 4.7e8 against the median of the three before it (9.2e8), 51.1%.
    await db.run.delete({ where: { id: runIds.ab10g } });
    const without10g = await getGrid({ hostIds: [hostIds.alpha!, hostIds.beta!], staleDays: 7 }, NOW);
    expect(cellOf(without10g.cells, "alpha", "beta")).toMatchObject({
      linkId: linkIds["ab-1g"],
      linkCount: 2,
      runId: runIds.abLatest,
      receivedBitsPerSecond: 4.7e8,
      lineRatePercent: 47,
      baselinePercent: 51.1,
      status: "succeeded",
    });
  });

  it("says failed when the latest ended run of a direction failed, with the figures of the success before it", async () => {
    const grid = await getGrid({ staleDays: 7 }, NOW);
    expect(cellOf(grid.cells, "beta", "gamma")).toMatchObject({
      runId: runIds.bgOk,
      receivedBitsPerSecond: 9.3e8,
      status: "failed",
    });
    // A cancelled run says nothing about the link: g→b (by -R, client on b) stays succeeded.
    expect(cellOf(grid.cells, "gamma", "beta")).toMatchObject({
      runId: runIds.gbOk,
      status: "succeeded",
      offLink: true,
    });
    expect(cellOf(grid.cells, "beta", "gamma")).toMatchObject({ runId: runIds.bgOk, offLink: false });
    expect(cellOf(grid.cells, "gamma", "delta")).toMatchObject({
      runId: null,
      at: null,
      status: "failed",
      stale: false,
    });
    expect(cellOf(grid.cells, "delta", "gamma")).toMatchObject({
      runId: null,
      receivedBitsPerSecond: null,
      lineRatePercent: null,
      status: "never",
    });
  });

  it("takes the hosts of a tag, and only the links among them", async () => {
    const grid = await getGrid({ tag: "rack1", staleDays: 7 }, NOW);
    expect(grid.hosts.map((entry) => entry.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(grid.cells.every((cell) => cell.fromHostId !== hostIds.delta && cell.toHostId !== hostIds.delta)).toBe(true);
    const lonely = await getGrid({ tag: "rack2", staleDays: 7 }, NOW);
    expect(lonely).toEqual({ hosts: [{ id: hostIds.lonely, name: "lonely" }], cells: [] });
  });

  it("refuses ids of no host and a tag on no host, naming the field", async () => {
    await expect(getGrid({ hostIds: [hostIds.alpha!, 99_999], staleDays: 7 }, NOW)).rejects.toMatchObject({
      kind: "invalid",
      fields: [{ field: "hostIds", message: expect.stringContaining("99999") }],
    });
    await expect(getGrid({ tag: "rack9", staleDays: 7 }, NOW)).rejects.toMatchObject({
      kind: "invalid",
      fields: [{ field: "tag", message: expect.stringContaining("rack9") }],
    });
  });
});
