import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { directionOf, type RunStatus } from "@/lib/runs/contract";
import type { RunFilters } from "@/lib/runs/filters";
import { signatureOf } from "@/lib/runs/signature";
import { listRunRows } from "@/lib/runs/lists";
import { listLinkHistory, listLinkNames, listLinkStreamCounts } from "@/lib/runs/link-reads";
import { listLinks } from "@/lib/inventory/links";

// The run tables' pages on a real SQLite file: runs found through their signature in an index, and
// runs without one (written before signatures) through their options, must page and count exactly
// as one filter over every run's options would.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.

type Stored = {
  id: number;
  linkId: number;
  status: RunStatus;
  createdAt: number;
  protocol: "tcp" | "udp";
  parallel: number;
  direction: string;
  latency: number | null;
  imported: boolean;
  signature: string | null;
};
const stored: Stored[] = [];
const linkIds: number[] = [];
const STATUSES: RunStatus[] = ["succeeded", "succeeded", "failed", "cancelled", "running"];

beforeAll(async () => {
  for (const name of ["lists-a", "lists-b"]) {
    const nics = [];
    for (const side of ["a", "b"]) {
      const host = await db.host.create({
        data: { name: `${name}-${side}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
      });
      nics.push(await db.nic.create({ data: { hostId: host.id, name: "eth1", addresses: [] } }));
    }
    linkIds.push(
      (await db.link.create({ data: { name, aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 } })).id,
    );
  }
  // Every mix of protocol, streams and direction on both links, with and without a signature; some
  // runs share a creation time, so that the id orders them.
  let index = 0;
  for (const linkId of linkIds) {
    for (const protocol of ["tcp", "udp"] as const) {
      for (const parallel of [1, 4]) {
        for (const [reverse, bidir, clientSide] of [
          [false, false, "a"],
          [true, false, "a"],
          [false, false, "b"],
          [false, true, "a"],
        ] as const) {
          for (const signed of [true, false]) {
            const options = {
              protocol,
              parallel,
              reverse,
              bidir,
              interval: 1,
              zerocopy: false,
              duration: 10,
              ...(protocol === "udp" ? { bitrate: 1e9 } : {}),
            };
            const status = STATUSES[index % STATUSES.length]!;
            const createdAt = Date.UTC(2026, 10, 1, 12, 0, Math.floor(index / 3));
            const latency = index % 4 === 0 ? 1.5 + index : null;
            const imported = index % 7 === 0;
            const signature = signed ? signatureOf(options, clientSide) : null;
            const run = await db.run.create({
              data: {
                linkId,
                status,
                clientSide,
                options,
                createdAt: new Date(createdAt),
                signature,
                receivedBitsPerSecond: status === "succeeded" ? 9e9 + index : null,
                latencyLoadedMedianMs: latency,
                source: imported ? "imported" : "wirespeed",
              },
            });
            stored.push({
              id: run.id,
              linkId,
              status,
              createdAt,
              protocol,
              parallel,
              direction: directionOf(options, clientSide),
              latency,
              imported,
              signature,
            });
            index += 1;
          }
        }
      }
    }
  }
}, 60_000);

afterAll(() => database.close());

function expected(filters: RunFilters): number[] {
  return stored
    .filter(
      (run) =>
        (filters.linkId === undefined || run.linkId === filters.linkId) &&
        (filters.status === undefined || run.status === filters.status) &&
        (filters.protocol === undefined || run.protocol === filters.protocol) &&
        (filters.direction === undefined || run.direction === filters.direction) &&
        (filters.parallel === undefined || run.parallel === filters.parallel),
    )
    .sort((one, other) => other.createdAt - one.createdAt || other.id - one.id)
    .map((run) => run.id);
}

describe("a run table's page", () => {
  it("pages and counts every filter as one filter over the options would, signed runs and unsigned alike", async () => {
    let checked = 0;
    for (const linkId of [undefined, linkIds[0]]) {
      for (const status of [undefined, "succeeded", "failed"] as const) {
        for (const protocol of [undefined, "tcp", "udp"] as const) {
          for (const direction of [undefined, "a-to-b", "b-to-a", "bidir"] as const) {
            for (const parallel of [undefined, 1, 4]) {
              const filters: RunFilters = { linkId, status, protocol, direction, parallel };
              const ids = expected(filters);
              const pageSize = 3;
              for (const page of [1, 2, Math.max(1, Math.ceil(ids.length / pageSize))]) {
                const result = await listRunRows({ filters, page, pageSize });
                expect({ filters, page, ids: result.runs.map((run) => run.id), total: result.total }).toEqual({
                  filters,
                  page,
                  ids: ids.slice((page - 1) * pageSize, page * pageSize),
                  total: ids.length,
                });
                checked += 1;
              }
            }
          }
        }
      }
    }
    expect(checked).toBe(2 * 3 * 3 * 4 * 3 * 3);
  }, 120_000);

  it("finds nothing for streams no run used, and pages past the end empty", async () => {
    expect(await listRunRows({ filters: { parallel: 8 } })).toMatchObject({ runs: [], total: 0 });
    expect(await listRunRows({ filters: { protocol: "udp" }, page: 1000 })).toMatchObject({
      runs: [],
      total: expected({ protocol: "udp" }).length,
    });
  });
});

describe("a link's names, stream counts and history", () => {
  it("names the links as listLinks orders them, without counting their runs", async () => {
    expect(await listLinkNames()).toEqual((await listLinks()).map(({ id, name }) => ({ id, name })));
  });

  it("lists the stream counts of signed and unsigned runs once each", async () => {
    expect(await listLinkStreamCounts(linkIds[0]!)).toEqual([1, 4]);
    await db.run.create({ data: { linkId: linkIds[1]!, status: "failed", options: { protocol: "tcp", parallel: 8 } } });
    expect(await listLinkStreamCounts(linkIds[1]!)).toEqual([1, 4, 8]);
  });

  it("draws each succeeded run, oldest first, with the protocol, direction and streams of its options, signed or not", async () => {
    const succeeded = stored
      .filter((run) => run.linkId === linkIds[0] && run.status === "succeeded")
      .sort((one, other) => one.createdAt - other.createdAt || one.id - other.id);
    const points = succeeded.map((run) => ({
      id: run.id,
      time: new Date(run.createdAt).toISOString(),
      receivedBitsPerSecond: 9e9 + stored.indexOf(run),
      protocol: run.protocol,
      direction: run.direction,
      parallel: run.parallel,
      signature: run.signature,
      status: "succeeded",
      loadedLatencyMs: run.latency,
      imported: run.imported,
      offLink: false,
    }));
    expect(await listLinkHistory({ linkId: linkIds[0]! })).toEqual(points);
    // The newest `limit`, across signatures.
    expect(await listLinkHistory({ linkId: linkIds[0]!, limit: 3 })).toEqual(points.slice(-3));
  });

  it("names the device of a run on a device's link, in a column of its own, and no device elsewhere", async () => {
    const managed = await db.host.create({
      data: { name: "lists-managed", address: "127.0.0.1", authMethod: "local" },
    });
    const phone = await db.host.create({
      data: { name: "lists-phone", address: "", authMethod: "none", access: "device", kind: "phone" },
    });
    const [managedNic, phoneNic] = await Promise.all(
      [managed, phone].map((host) => db.nic.create({ data: { hostId: host.id, name: "wlan0", addresses: [] } })),
    );
    const link = await db.link.create({
      data: { name: "lists-wifi", aNicId: managedNic!.id, bNicId: phoneNic!.id, speedMbps: 1200 },
    });
    const run = await db.run.create({ data: { linkId: link.id, status: "succeeded", options: { protocol: "tcp" } } });
    const { runs } = await listRunRows({ pageSize: 500 });
    expect(runs.find((row) => row.id === run.id)?.device).toEqual({ id: phone.id, name: "lists-phone", kind: "phone" });
    expect(runs.filter((row) => row.device !== null).map((row) => row.id)).toEqual([run.id]);
  });

  it("marks a run whose bytes took another route, in its row and as a history point, signed or not", async () => {
    const [a, b] = await Promise.all(
      ["lists-detour-a", "lists-detour-b"].map((name) =>
        db.host.create({ data: { name, address: "127.0.0.1", authMethod: "local" } }),
      ),
    );
    const [aNic, bNic] = await Promise.all(
      [a!, b!].map((host) => db.nic.create({ data: { hostId: host.id, name: "eth9", addresses: [] } })),
    );
    const link = await db.link.create({
      data: { name: "lists-detour", aNicId: aNic!.id, bNicId: bNic!.id, speedMbps: 10_000 },
    });
    const options = { protocol: "tcp", parallel: 1, reverse: false, bidir: false };
    const run = (pathVerdict: string | null, signature: string | null) =>
      db.run.create({
        data: { linkId: link.id, status: "succeeded", options, signature, pathVerdict, receivedBitsPerSecond: 9e9 },
      });
    const ids = [
      (await run("off-link", "tcp a-to-b P1")).id,
      (await run("on-link", "tcp a-to-b P1")).id,
      (await run("off-link", null)).id,
      (await run(null, null)).id,
    ];
    const points = await listLinkHistory({ linkId: link.id });
    expect(ids.map((id) => points.find((point) => point.id === id)?.offLink)).toEqual([true, false, true, false]);
    const { runs } = await listRunRows({ filters: { linkId: link.id } });
    expect(ids.map((id) => runs.find((row) => row.id === id)?.pathVerdict)).toEqual([
      "off-link",
      "on-link",
      "off-link",
      null,
    ]);
  });
});
