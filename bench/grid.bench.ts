// The grid after a year of hourly runs: 50 hosts, 1,000 links among them (some pairs joined by several),
// each link tested every hour for a year (8.76 million runs), in a fresh SQLite database filled with SQL.
// It prints the database's size and the server time of GET /api/grid (the route handler as Next.js calls
// it, with a viewer's token: auth, the reads, the JSON), for every linked host, for a tag and for chosen
// hosts, each the median of several calls after a warm-up. Goal: under 100 ms.
//   node --require ./testing/server-only.cjs --import tsx bench/grid.bench.ts
//     [--hosts 50] [--links 1000] [--days 365] [--every-hours 1] [--repeat 7] [--keep]
//   ... bench/grid.bench.ts --smoke      # 8 hosts, 20 links, 2 weeks: a few seconds
//
// The runs hold what the grid reads (status, options, signature, times, rates) and no outputs, samples
// or snapshots: the grid reads the signature index, not the runs' rows, so their size does not change
// what it costs (bench/growth.bench.ts measures the pages that do read them).
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { signatureOf } from "../lib/runs/signature";
import { storedRunOptions } from "../testing/run-options";
import { DAY_MS, HOUR_MS } from "./fill";
import { argValue, loadAverage, machineLine, randomFrom, sqliteTime, timed } from "./timing";

const GOAL_MS = 100;

function readArgs(args: string[]) {
  const smoke = args.includes("--smoke");
  return {
    hosts: Number(argValue(args, "hosts") ?? (smoke ? 8 : 50)),
    links: Number(argValue(args, "links") ?? (smoke ? 20 : 1000)),
    days: Number(argValue(args, "days") ?? (smoke ? 14 : 365)),
    everyHours: Number(argValue(args, "every-hours") ?? 1),
    repeat: Number(argValue(args, "repeat") ?? (smoke ? 3 : 7)),
    keep: args.includes("--keep"),
  };
}

function check(condition: unknown, message: string): asserts condition {
  // A broken read must not post a fast time.
  if (!condition) throw new Error(`grid: wrong result: ${message}`);
}

type Test = { options: Record<string, unknown>; clientSide: "a" | "b"; signature: string };

/** What a link's schedules test, by the link's place: mostly TCP one way; some both ways, bidir or UDP too. */
function testsOf(index: number): Test[] {
  const tcp = (changes: Record<string, unknown>, clientSide: "a" | "b" = "a") => {
    const options: Record<string, unknown> = storedRunOptions(changes);
    return { options, clientSide, signature: signatureOf(options, clientSide) };
  };
  const kind = index % 10;
  if (kind <= 4) return [tcp({})];
  if (kind <= 6) return [tcp({}), tcp({ reverse: true })];
  if (kind === 7) return [tcp({ parallel: 4 }), tcp({ bidir: true }, "b")];
  if (kind === 8) {
    const udp = { ...tcp({}).options, protocol: "udp", bitrate: 5e8 };
    return [tcp({}), { options: udp, clientSide: "a", signature: signatureOf(udp, "a") }];
  }
  // Never tested: a link made and not measured yet.
  return [];
}

type Lab = { hostCount: number; links: Array<{ id: number; speedMbps: number; tests: Test[]; efficiency: number }> };

/** Hosts (one in five tagged rack1), a NIC per link end, and the links between random pairs of hosts. */
function seedLab(sqlite: Database.Database, hosts: number, links: number, createdAt: number): Lab {
  const random = randomFrom(28);
  const now = sqliteTime(createdAt);
  const insertHost = sqlite.prepare(
    `INSERT INTO "Host" ("name", "address", "authMethod", "platform", "tags", "createdAt", "updatedAt") VALUES (?, ?, 'key', 'linux', ?, ?, ?)`,
  );
  const insertNic = sqlite.prepare(
    `INSERT INTO "Nic" ("hostId", "name", "speedMbps", "addresses", "createdAt", "updatedAt") VALUES (?, ?, ?, '[]', ?, ?)`,
  );
  const insertLink = sqlite.prepare(
    `INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const hostIds = Array.from({ length: hosts }, (_, index) =>
    Number(
      insertHost.run(
        `node-${String(index + 1).padStart(2, "0")}`,
        `10.0.${Math.floor(index / 250)}.${(index % 250) + 1}`,
        JSON.stringify(index % 5 === 0 ? ["rack1"] : [`rack${(index % 4) + 2}`]),
        now,
        now,
      ).lastInsertRowid,
    ),
  );
  const speeds = [1000, 2500, 10_000, 10_000, 25_000];
  const result: Lab = { hostCount: hosts, links: [] };
  for (let index = 0; index < links; index += 1) {
    const a = Math.floor(random() * hosts);
    const b = (a + 1 + Math.floor(random() * (hosts - 1))) % hosts;
    const speedMbps = speeds[index % speeds.length]!;
    const nic = (host: number, side: string) =>
      Number(insertNic.run(hostIds[host]!, `eth${index}${side}`, speedMbps, now, now).lastInsertRowid);
    const id = Number(insertLink.run(`link-${index}`, nic(a, "a"), nic(b, "b"), speedMbps, now, now).lastInsertRowid);
    result.links.push({ id, speedMbps, tests: testsOf(index), efficiency: 0.6 + random() * 0.38 });
  }
  return result;
}

/** Every tested link's run each `every` ms from `from` to `to`, its tests in turn: 97.5% succeeded. One transaction per day. */
function fillRuns(sqlite: Database.Database, lab: Lab, from: number, to: number, every: number): number {
  const random = randomFrom(29);
  const insert = sqlite.prepare(
    `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "signature", "createdAt", "startedAt", "endedAt", ` +
      `"receivedBitsPerSecond", "reverseReceivedBitsPerSecond") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const texts = new Map(lab.links.flatMap((link) => link.tests.map((test) => [test, JSON.stringify(test.options)])));
  let runs = 0;
  const day = (start: number) => {
    for (let at = start; at < Math.min(start + DAY_MS, to); at += every) {
      const slot = Math.round(at / every);
      for (const link of lab.links) {
        if (link.tests.length === 0) continue;
        const test = link.tests[slot % link.tests.length]!;
        const roll = random();
        const status = roll < 0.975 ? "succeeded" : roll < 0.995 ? "failed" : "cancelled";
        const created = at + Math.floor(random() * 120_000);
        const ok = status === "succeeded";
        const rate = ok ? link.speedMbps * 1e6 * link.efficiency * (0.95 + random() * 0.05) : null;
        insert.run(
          link.id,
          status,
          test.clientSide,
          texts.get(test)!,
          test.signature,
          sqliteTime(created),
          sqliteTime(created + 800),
          sqliteTime(created + 11_000),
          rate,
          ok && test.options.bidir ? rate! * 0.9 : null,
        );
        runs += 1;
      }
    }
  };
  const transaction = sqlite.transaction(day);
  for (let start = from; start < to; start += DAY_MS) transaction(start);
  return runs;
}

async function main(): Promise<void> {
  const options = readArgs(process.argv.slice(2));
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  const file = path.join(database.dataDir, "wirespeed.db");
  await connectAppDatabase(database.url);
  try {
    const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const start = end - options.days * DAY_MS;
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = WAL");
    // The fill only: a crash of the bench loses nothing worth keeping.
    sqlite.pragma("synchronous = OFF");
    sqlite.pragma("cache_size = -262144");
    console.log(`grid: ${machineLine()}`);
    const lab = seedLab(sqlite, options.hosts, options.links, start - DAY_MS);
    const started = performance.now();
    const runs = fillRuns(sqlite, lab, start, end, options.everyHours * HOUR_MS);
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    sqlite.exec("ANALYZE");
    const megabytes = fs.statSync(file).size / 2 ** 20;
    console.log(
      `grid: ${options.hosts} hosts, ${options.links} links, ${runs.toLocaleString("en")} runs over ${options.days} days ` +
        `(every ${options.everyHours} h) filled in ${((performance.now() - started) / 1000).toFixed(0)} s; ${megabytes.toFixed(0)} MB`,
    );
    // Every ordered pair of hosts a link joins, and the hosts some link joins.
    const pairs = new Set(
      (
        sqlite
          .prepare(
            `SELECT an."hostId" AS "a", bn."hostId" AS "b" FROM "Link" l JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Nic" bn ON bn."id" = l."bNicId"`,
          )
          .all() as Array<{ a: number; b: number }>
      ).flatMap(({ a, b }) => [`${a} ${b}`, `${b} ${a}`]),
    );
    const linked = new Set([...pairs].flatMap((pair) => pair.split(" ")));
    const chosen = (sqlite.prepare(`SELECT "id" FROM "Host" ORDER BY "id" LIMIT 10`).pluck().all() as number[]).join(
      ",",
    );
    sqlite.close();

    const { createUser } = await import("../lib/auth/users");
    const { createApiToken } = await import("../lib/auth/tokens");
    const viewer = await createUser({ username: "dashboard", password: "correct horse battery", role: "viewer" });
    const { token } = await createApiToken(viewer.id, "grid bench");
    const route = await import("../app/api/grid/route");
    type Answer = import("../lib/grid/contract").GridAnswer;
    const get = async (url: string): Promise<Answer> => {
      const response = await route.GET(
        new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${token}` } }),
        undefined as never,
      );
      check(response.status === 200, `${url} answered ${response.status}`);
      return (await response.json()) as Answer;
    };

    const readings: Array<{ label: string; ms: number; max: number }> = [];
    for (const [label, url, verify] of [
      [
        "GET /api/grid (every linked host)",
        "/api/grid",
        (answer: Answer) => {
          check(answer.hosts.length === linked.size, `${answer.hosts.length} hosts, not ${linked.size}`);
          check(answer.cells.length === pairs.size, `${answer.cells.length} cells, not ${pairs.size}`);
          check(
            answer.cells.some(
              (cell) => cell.status === "succeeded" && cell.lineRatePercent! > 0 && cell.baselinePercent !== null,
            ),
            "no measured cell with its baseline",
          );
          check(
            answer.cells.some((cell) => cell.status === "never"),
            "no cell of a link never tested",
          );
        },
      ],
      [
        "GET /api/grid?tag=rack1",
        "/api/grid?tag=rack1",
        (answer: Answer) => check(answer.hosts.length > 0, "no host of rack1"),
      ],
      [
        `GET /api/grid?hostIds= (${Math.min(10, options.hosts)} hosts)`,
        `/api/grid?hostIds=${chosen}`,
        (answer: Answer) => check(answer.hosts.length === Math.min(10, options.hosts), `${answer.hosts.length} hosts`),
      ],
    ] as const) {
      const result = await timed(() => get(url), options.repeat);
      verify(result.value);
      readings.push({
        label: `${label}: ${result.value.cells.length.toLocaleString("en")} cells`,
        ms: result.ms,
        max: result.max,
      });
    }
    // The reads alone, without auth and JSON: what the database costs of the first figure.
    const { getGrid } = await import("../lib/grid/reads");
    const reads = await timed(() => getGrid({ staleDays: 7 }), options.repeat);
    readings.push({ label: "of which getGrid (the reads alone)", ms: reads.ms, max: reads.max });
    console.log(`grid: measured at load average ${loadAverage()}`);
    for (const reading of readings)
      console.log(
        `grid: ${reading.label}: ${reading.ms.toFixed(1)} ms (median of ${options.repeat}, max ${reading.max.toFixed(1)})`,
      );
    const slowest = readings.reduce((worst, reading) => (reading.ms > worst.ms ? reading : worst));
    console.log(
      `grid: ${slowest.ms < GOAL_MS ? "PASS" : "MISS"} goal < ${GOAL_MS} ms: the slowest is ${slowest.label} at ${slowest.ms.toFixed(1)} ms`,
    );
    const { db } = await import("../lib/db");
    await db.$disconnect();
  } finally {
    if (options.keep) console.log(`grid: kept ${database.dataDir}`);
    else database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
