import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { lossPercent } from "@/lib/iperf";

// Runs stored before the loss came from the datagram counts kept a text client's 2 digits; the
// migration writes them again in SQL, and must write what lossPercent gives a new run.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

const MIGRATION = path.resolve(__dirname, "../../prisma/migrations/20270103000000_exact_loss/migration.sql");

afterAll(() => database.close());

describe("the loss backfill of migration 20270103000000_exact_loss", () => {
  it("writes every stored UDP loss as lossPercent of its counts, and leaves runs without counts alone", async () => {
    const host = await db.host.create({ data: { name: "h", address: "127.0.0.1", authMethod: "local" } });
    const a = await db.nic.create({ data: { hostId: host.id, name: "eth0" } });
    const b = await db.nic.create({ data: { hostId: host.id, name: "eth1" } });
    const link = await db.link.create({ data: { name: "l", aNicId: a.id, bNicId: b.id, speedMbps: 1000 } });
    // As stored from 3.12 clients' text ("(13%)", "(36%)", "(0.66%)", "(11%)"), from a -J server (exact already), with none lost, and 0/0.
    const counted: Array<[lostPercent: number, lostPackets: number, packets: number]> = [
      [13, 27_399, 206_961],
      [36, 23_859, 66_696],
      [0.66, 10, 1525],
      [11, 9166, 83_403],
      [1.5072083879423328, 23, 1526],
      [0, 0, 1145],
    ];
    const run = (data: { lostPercent: number | null; lostPackets: number | null; packets: number | null }) => ({
      linkId: link.id,
      status: "succeeded",
      options: {},
      clientSide: "a",
      ...data,
    });
    await db.run.createMany({
      data: [
        ...counted.map(([lostPercent, lostPackets, packets]) => run({ lostPercent, lostPackets, packets })),
        run({ lostPercent: null, lostPackets: 0, packets: 0 }),
        run({ lostPercent: null, lostPackets: null, packets: null }),
      ],
    });

    await db.$executeRawUnsafe(fs.readFileSync(MIGRATION, "utf8"));

    const rows = await db.run.findMany({ orderBy: { id: "asc" }, select: { lostPercent: true } });
    expect(rows.map((row) => row.lostPercent)).toEqual([
      ...counted.map(([, lost, packets]) => lossPercent(lost, packets)),
      null,
      null,
    ]);
    // -J's figure was iperf3's own: unchanged.
    expect(rows[4]!.lostPercent).toBe(1.5072083879423328);
    expect(rows[0]!.lostPercent).toBe((100 * 27_399) / 206_961);
  });
});
