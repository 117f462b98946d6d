import { afterAll, describe, expect, it } from "vitest";
import type { IperfInterval } from "@/lib/iperf";
import { openTestDatabase } from "@/testing/database";
import { SampleWriter, toSampleRow } from "./samples";

const database = await openTestDatabase();
const { db } = database;

afterAll(() => database.close());

function interval(start: number, streams = 1): IperfInterval {
  return {
    start,
    end: start + 1,
    bytes: 117_000_000 * streams,
    bitsPerSecond: 981e6 * streams,
    retransmits: 2,
    omitted: false,
    streams: Array.from({ length: streams }, (_, i) => ({
      id: 5 + 2 * i,
      bytes: 117_000_000,
      bitsPerSecond: 981e6,
      cwndBytes: 1_000_000,
    })),
  };
}

async function makeRun(): Promise<number> {
  const host = await db.host.create({ data: { name: `h${Math.random()}`, address: "198.18.0.1" } });
  const a = await db.nic.create({ data: { hostId: host.id, name: "eth1" } });
  const b = await db.nic.create({ data: { hostId: host.id, name: "eth2" } });
  const link = await db.link.create({ data: { name: "l", aNicId: a.id, bNicId: b.id, speedMbps: 1000 } });
  const run = await db.run.create({ data: { linkId: link.id, options: { protocol: "tcp" } } });
  return run.id;
}

describe("toSampleRow", () => {
  it("keeps per-stream values only for several streams, and sums their windows", () => {
    expect(toSampleRow(1, 0, interval(0)).streams).toBeUndefined();
    const row = toSampleRow(1, 3, interval(2, 4));
    expect(row).toMatchObject({ runId: 1, seq: 3, start: 2, end: 3, direction: "forward", cwndBytes: 4_000_000 });
    expect(row.streams).toHaveLength(4);
  });
});

describe("SampleWriter", () => {
  it("writes samples in batches, in order, and everything by close()", async () => {
    const runId = await makeRun();
    const batches: number[] = [];
    const writer = new SampleWriter(runId, {
      maxBatch: 4,
      flushMs: 10_000,
      write: async (rows) => {
        batches.push(rows.length);
        await db.sample.createMany({ data: rows });
      },
    });
    for (let i = 0; i < 10; i += 1) expect(writer.add(interval(i, 2)).seq).toBe(i);
    await writer.close();
    expect(batches).toEqual([4, 4, 2]);
    const stored = await db.sample.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(stored.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(stored[9]).toMatchObject({ start: 9, end: 10, bitsPerSecond: 1.962e9 });
    expect(stored[0]!.streams).toHaveLength(2);
  });

  it("flushes on its timer without waiting for a full batch", async () => {
    const runId = await makeRun();
    const writer = new SampleWriter(runId, { flushMs: 20 });
    writer.add(interval(0));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await db.sample.count({ where: { runId } })).toBe(1);
    await writer.close();
  });

  it("reports a write that still fails at close(), after its tries", async () => {
    let tries = 0;
    const writer = new SampleWriter(1, {
      retryMs: 5,
      closeRetries: 3,
      write: () => {
        tries += 1;
        return Promise.reject(new Error("disk full"));
      },
    });
    writer.add(interval(0));
    await expect(writer.close()).rejects.toThrow("disk full");
    // the first write, then the three tries of close() (a retry timer may add one between)
    expect(tries).toBeGreaterThanOrEqual(4);
  });

  it("keeps the samples of a failed write and stores every one, in order, once the database answers again", async () => {
    const runId = await makeRun();
    let isDown = true;
    const attempts: number[][] = [];
    const writer = new SampleWriter(runId, {
      maxBatch: 2,
      flushMs: 10_000,
      retryMs: 10,
      write: async (rows) => {
        attempts.push(rows.map((row) => row.seq));
        if (isDown) throw new Error("the database went away");
        await db.sample.createMany({ data: rows });
      },
    });
    for (let i = 0; i < 5; i += 1) writer.add(interval(i));
    await writer.flush();
    expect(await db.sample.count({ where: { runId } })).toBe(0);
    isDown = false;
    await writer.close();
    const stored = await db.sample.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(stored.map((sample) => sample.seq)).toEqual([0, 1, 2, 3, 4]);
    // each failed batch came back with the ones after it, in order
    expect(attempts[0]).toEqual([0, 1]);
    expect(attempts.at(-1)!.at(-1)).toBe(4);
  });
});
