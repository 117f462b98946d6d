// Server time of the link page's reads with 10,000 runs and 1,000,000 samples in the database:
// the runs table (first page, a deep page, a filtered page), the history chart's query, the
// link's ends and the streams filter, all as app/links/[id]/page.tsx calls them (lib/queries/links and run-lists),
// and the overview's read, which GET /api/overview answers every 2 s while a run is active.
// Goal: under 300 ms for the whole page's reads. No lab needed: the rows are written with SQL.
//   node --require ./testing/server-only.cjs --import tsx bench/link-page.bench.ts [--runs 10000] [--samples-per-run 100]
import Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";

function readArgs(args: string[]) {
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  return { runs: Number(value("runs") ?? 10_000), samplesPerRun: Number(value("samples-per-run") ?? 100) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(body: () => Promise<T>, repeat = 7): Promise<{ ms: number; value: T }> {
  let value = await body(); // warm-up: statement caches, page cache
  const times: number[] = [];
  for (let index = 0; index < repeat; index += 1) {
    const started = performance.now();
    value = await body();
    times.push(performance.now() - started);
  }
  return { ms: median(times), value };
}

async function main(): Promise<void> {
  const { runs, samplesPerRun } = readArgs(process.argv.slice(2));
  const { createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  // DATABASE_URL must be set before lib/db is first imported: it opens the one client.
  process.env.DATABASE_URL = database.url;
  try {
    const seedStarted = performance.now();
    const sqlite = new Database(path.join(database.dataDir, "wirespeed.db"));
    // Hosts, NICs and the link with SQL too: lib/inventory checks the caller's role, which needs a Next.js request.
    const now = new Date().toISOString().replace("Z", "+00:00");
    const nicIds = ["bench-a", "bench-b"].map((name, index) => {
      const hostId = sqlite.prepare(`INSERT INTO "Host" ("name", "address", "authMethod", "platform", "updatedAt") VALUES (?, ?, 'local', 'linux', ?)`).run(name, `198.18.200.${index + 1}`, now).lastInsertRowid;
      return sqlite.prepare(`INSERT INTO "Nic" ("hostId", "name", "speedMbps", "mtu", "addresses", "updatedAt") VALUES (?, 'eth1', 10000, 9000, ?, ?)`).run(hostId, JSON.stringify([`198.18.200.${index + 1}/24`]), now).lastInsertRowid;
    });
    const link = { id: Number(sqlite.prepare(`INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "updatedAt") VALUES ('bench-10g', ?, ?, 10000, ?)`).run(nicIds[0], nicIds[1], now).lastInsertRowid) };
    const insertRun = sqlite.prepare(
      `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "startedAt", "endedAt", "sentBitsPerSecond", "receivedBitsPerSecond", "retransmits") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSample = sqlite.prepare(`INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "retransmits", "omitted") VALUES (?, ?, ?, ?, 'forward', ?, ?, ?, 0)`);
    const firstTime = Date.now() - runs * 600_000;
    sqlite.transaction(() => {
      for (let index = 0; index < runs; index += 1) {
        const parallel = [1, 4, 8][index % 3]!;
        const protocol = index % 10 === 0 ? "udp" : "tcp";
        const options = { protocol, duration: samplesPerRun, parallel, reverse: index % 4 === 1, bidir: false, interval: 1, zerocopy: false, ...(protocol === "udp" ? { bitrate: 1e10 } : {}) };
        const time = new Date(firstTime + index * 600_000).toISOString().replace("Z", "+00:00");
        const bps = 9.0e9 + (index % 50) * 1e7;
        const runId = Number(insertRun.run(link.id, index % 25 === 0 ? "failed" : "succeeded", index % 2 ? "b" : "a", JSON.stringify(options), time, time, time, bps, bps * 0.999, index % 7).lastInsertRowid);
        for (let seq = 0; seq < samplesPerRun; seq += 1) insertSample.run(runId, seq, seq, seq + 1, bps / 8, bps, seq % 3);
      }
    })();
    sqlite.close();
    console.log(`link-page: seeded ${runs.toLocaleString("en")} runs and ${(runs * samplesPerRun).toLocaleString("en")} samples in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    console.log(`link-page: node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}`);

    const queries = { ...(await import("../lib/queries/links")), ...(await import("../lib/queries/run-lists")) };
    const linkId = link.id;
    const page = () =>
      Promise.all([
        queries.getLinkEnds(linkId),
        queries.getLinkHistory({ linkId }),
        queries.listRunRows({ filters: { linkId }, page: 1 }),
        queries.listLinkStreamCounts(linkId),
      ]);
    const results = [
      ["whole link page (ends, history, runs page 1, stream counts)", await timed(page)],
      ["history (newest 2,000 points and the active count: GET /api/links/:id/history)", await timed(() => queries.getLinkHistory({ linkId }))],
      ["runs table, page 1 (GET /api/runs?linkId=)", await timed(() => queries.listRunRows({ filters: { linkId }, page: 1 }))],
      ["runs table, page 300", await timed(() => queries.listRunRows({ filters: { linkId }, page: 300 }))],
      ["runs table, TCP ×4 b-to-a", await timed(() => queries.listRunRows({ filters: { linkId, protocol: "tcp", parallel: 4, direction: "b-to-a" }, page: 1 }))],
      ["runs list (/runs, GET /api/runs), page 1", await timed(() => queries.listRunRows({ page: 1 }))],
    ] as const;
    // The overview asks for this every 2 s while a run is active (components/overview/OverviewBoard.tsx).
    const overview = await import("../lib/queries/overview");
    const polled = [
      ["overview, 24 h (GET /api/overview)", await timed(() => overview.getOverview({ range: "24h" }))],
      ["overview, 7 days (GET /api/overview?range=7d)", await timed(() => overview.getOverview({ range: "7d" }))],
    ] as const;
    for (const [label, result] of [...results, ...polled]) console.log(`link-page: ${label}: ${result.ms.toFixed(1)} ms (median of 7)`);
    const whole = results[0][1].ms;
    console.log(`link-page: ${whole < 300 ? "PASS" : "MISS"} goal < 300 ms for the page's reads: ${whole.toFixed(1)} ms`);
    const { db } = await import("../lib/db");
    await db.$disconnect();
  } finally {
    database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
