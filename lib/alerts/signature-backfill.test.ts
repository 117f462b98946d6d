import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { signatureOf } from "@/lib/runs/signature";
import type { ClientSide } from "@/lib/runs/contract";
import { getApp } from "@/lib/running-app";

// The migration wrote the signature of every earlier run in SQL; new runs get it from
// signatureOf. A baseline groups by it, so the two must agree on every kind of run.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

const MIGRATION = path.resolve(__dirname, "../../prisma/migrations/20261215000000_schedules_alerts/migration.sql");

function backfillStatement(): string {
  const sql = fs.readFileSync(MIGRATION, "utf8");
  const start = sql.indexOf('UPDATE "Run" SET "signature"');
  expect(start, "the backfill statement in the migration").toBeGreaterThanOrEqual(0);
  const statement = sql.slice(start, sql.indexOf(";", start) + 1);
  return getApp().database === "postgres" ? onPostgres(statement) : statement;
}

/**
 * The statement as Postgres runs it. A Postgres database starts from its own first migration, with
 * the column and no run to backfill, so this migration never runs there; its logic is still checked
 * on Postgres's reading of the same JSON. Each json_extract becomes the value of the type SQLite's
 * gives (text, a number, 1 or 0 for a flag), and a flag tested on its own is compared with 0, as
 * SQLite's WHEN does.
 */
function onPostgres(statement: string): string {
  const types: Record<string, "text" | "number" | "flag"> = {
    protocol: "text",
    parallel: "number",
    bitrate: "number",
    bidir: "flag",
    reverse: "flag",
  };
  const rewritten = statement
    .replace(/WHEN (coalesce\(json_extract\("options", '\$\.\w+'\), 0\)) THEN/g, "WHEN $1 <> 0 THEN")
    .replace(/json_extract\("options", '\$\.(\w+)'\)/g, (_match, key: string) => {
      const value = `("options" ->> '${key}')`;
      switch (types[key]) {
        case "text":
          return value;
        case "number":
          return `CAST(${value} AS NUMERIC)`;
        case "flag":
          return `CAST(CAST(${value} AS BOOLEAN) AS INTEGER)`;
        default:
          throw new Error(`the backfill reads options.${key}: say here what type it is`);
      }
    });
  expect(rewritten).not.toContain("json_extract");
  return rewritten;
}

afterAll(() => database.close());

type Options = {
  protocol?: string;
  reverse?: boolean;
  bidir?: boolean;
  parallel?: number;
  bitrate?: number;
  duration?: number;
};

describe("the signature backfill of migration 20261215000000_schedules_alerts", () => {
  it("writes, for every mix of options and client side, what signatureOf writes", async () => {
    const host = await db.host.create({ data: { name: "h", address: "127.0.0.1", authMethod: "local" } });
    const a = await db.nic.create({ data: { hostId: host.id, name: "eth0" } });
    const b = await db.nic.create({ data: { hostId: host.id, name: "eth1" } });
    const link = await db.link.create({ data: { name: "l", aNicId: a.id, bNicId: b.id, speedMbps: 1000 } });

    const cases: Array<{ options: Options; clientSide: ClientSide }> = [];
    const protocols: Array<Options> = [
      {},
      { protocol: "tcp" },
      { protocol: "udp", bitrate: 1_000_000_000 },
      { protocol: "udp", bitrate: 0 },
      { protocol: "udp" },
      { protocol: "udp", bitrate: 2_500_000 },
      { protocol: "tcp", bitrate: 5_000_000 },
    ];
    const directions: Array<Options> = [
      {},
      { reverse: false },
      { reverse: true },
      { bidir: true },
      { bidir: false, reverse: true },
      { bidir: true, reverse: true },
    ];
    const streams: Array<Options> = [{}, { parallel: 1 }, { parallel: 4 }, { parallel: 128 }];
    for (const protocol of protocols)
      for (const direction of directions)
        for (const parallel of streams)
          for (const clientSide of ["a", "b"] as const)
            cases.push({ options: { duration: 10, ...protocol, ...direction, ...parallel }, clientSide });

    await db.run.createMany({
      data: cases.map(({ options, clientSide }) => ({ linkId: link.id, status: "succeeded", options, clientSide })),
    });
    expect(await db.run.count({ where: { signature: null } })).toBe(cases.length);

    await db.$executeRawUnsafe(backfillStatement());

    const rows = await db.run.findMany({ orderBy: { id: "asc" }, select: { signature: true } });
    const written = rows.map((row) => row.signature);
    const expected = cases.map(({ options, clientSide }) => signatureOf(options, clientSide));
    expect(written).toEqual(expected);
    // the cases reach every direction, stream count and UDP bitrate
    expect(expected).toEqual(
      expect.arrayContaining([
        "tcp a-to-b P1",
        "tcp b-to-a P4",
        "tcp bidir P128",
        "udp b-to-a P1 1000000000",
        "udp a-to-b P4 0",
        "udp bidir P1 2500000",
      ]),
    );
  });
});
