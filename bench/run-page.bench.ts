// Server time of the run page's reads for a finished one-hour, 32-stream run at 0.1 s intervals
// (36,000 samples, 1,152,000 per-stream values): the first view (nothing cached) and a later one,
// as app/runs/[id]/page.tsx calls lib/queries (links, run-lists, run-series). No lab needed: the rows are written with SQL,
// shaped like the e2e test's (e2e/runs.spec.ts) and like what the engine stores for -P 32 -i 0.1.
//   node --require ./testing/server-only.cjs --import tsx bench/run-page.bench.ts [--samples 36000] [--streams 32] [--repeat 5]
import Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";

function readArgs(args: string[]) {
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  return { samples: Number(value("samples") ?? 36_000), streams: Number(value("streams") ?? 32), repeat: Number(value("repeat") ?? 5) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Host, NICs and a link, then `count` finished runs of `samples` intervals each, written with SQL. */
function seed(file: string, { samples, streams, count }: { samples: number; streams: number; count: number }): number[] {
  const sqlite = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const hostIds = ["bench-a", "bench-b"].map((name, index) =>
    Number(sqlite.prepare(`INSERT INTO "Host" ("name", "address", "authMethod", "platform", "updatedAt") VALUES (?, ?, 'local', 'linux', ?)`).run(name, `198.18.200.${index + 1}`, now).lastInsertRowid),
  );
  const nicIds = hostIds.map((hostId, index) =>
    Number(sqlite.prepare(`INSERT INTO "Nic" ("hostId", "name", "speedMbps", "mtu", "addresses", "updatedAt") VALUES (?, 'eth1', 1000, 9000, ?, ?)`).run(hostId, JSON.stringify([`198.18.200.${index + 1}/24`]), now).lastInsertRowid),
  );
  const linkId = Number(sqlite.prepare(`INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "updatedAt") VALUES ('bench-1g', ?, ?, 1000, ?)`).run(nicIds[0], nicIds[1], now).lastInsertRowid);
  const options = { protocol: "tcp", duration: (samples / 10), parallel: streams, reverse: false, bidir: false, interval: 0.1, zerocopy: false };
  const insertRun = sqlite.prepare(
    `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "startedAt", "endedAt", "sentBitsPerSecond", "receivedBitsPerSecond", "retransmits") VALUES (?, 'succeeded', 'a', ?, ?, ?, ?, 9.5e8, 9.4e8, 0)`,
  );
  const insertSample = sqlite.prepare(
    `INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "retransmits", "cwndBytes", "omitted", "streams") VALUES (?, ?, ?, ?, 'forward', ?, ?, ?, ?, ?, ?)`,
  );
  const runIds: number[] = [];
  sqlite.transaction(() => {
    for (let run = 0; run < count; run += 1) {
      const runId = Number(insertRun.run(linkId, JSON.stringify(options), now, now, now).lastInsertRowid);
      runIds.push(runId);
      for (let seq = 0; seq < samples; seq += 1) {
        const values = Array.from({ length: streams }, (_, index) => {
          const bitsPerSecond = 2.9e7 + ((seq * 7 + index * 13) % 100) * 2e4;
          return { id: 5 + 2 * index, bytes: Math.round(bitsPerSecond / 80), bitsPerSecond, retransmits: (seq + index) % 97 === 0 ? 1 : 0, cwndBytes: 120_000 + index * 1000 };
        });
        const total = values.reduce((sum, stream) => sum + stream.bitsPerSecond, 0);
        const retransmits = values.reduce((sum, stream) => sum + stream.retransmits, 0);
        // The first second is iperf3's omitted warm-up (-O 1), as a run with --omit stores it.
        insertSample.run(runId, seq, seq / 10, (seq + 1) / 10, total / 80, total, retransmits, streams * 120_000, seq < 10 ? 1 : 0, JSON.stringify(values));
      }
    }
  })();
  sqlite.close();
  return runIds;
}

async function main(): Promise<void> {
  const { samples, streams, repeat } = readArgs(process.argv.slice(2));
  const { createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  // DATABASE_URL must be set before lib/db is first imported: it opens the one client.
  process.env.DATABASE_URL = database.url;
  try {
    const seedStarted = performance.now();
    // One run per first view measured, plus one for the warm-up: a first view is only first once.
    const runIds = seed(path.join(database.dataDir, "wirespeed.db"), { samples, streams, count: repeat + 1 });
    console.log(`run-page: seeded ${runIds.length} runs of ${samples.toLocaleString("en")} samples × ${streams} streams in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    console.log(`run-page: node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}`);

    const queries = { ...(await import("../lib/queries/links")), ...(await import("../lib/queries/run-lists")), ...(await import("../lib/queries/run-series")) };
    // What the run page reads for a finished run (app/runs/[id]/page.tsx): the run, its link's
    // ends and the chart before the first byte of the page; the per-stream table streams in after.
    const shell = async (runId: number) => {
      const run = await queries.getRunDetail(runId);
      const [ends, series] = await Promise.all([queries.getLinkEnds(run!.linkId), queries.getRunSeries({ runId, isFinished: true })]);
      if (!ends || series.sampleCount !== samples || series.streamCount !== Math.min(streams, 32)) throw new Error(`run ${runId}: read ${series.sampleCount} samples and ${series.streamCount} stream lines`);
      return series;
    };
    const streamTable = async (runId: number) => {
      const stats = await queries.getRunStreamStats({ runId, isFinished: true });
      if (stats.length !== streams) throw new Error(`run ${runId}: ${stats.length} stream rows`);
      return stats;
    };
    // Wall clock and this process's CPU time (GC threads included): other load on the machine disturbs the second less.
    type Figure = { wall: number; cpu: number };
    const timeOf = async (body: () => Promise<unknown>): Promise<Figure> => {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await body();
      const used = process.cpuUsage(cpuStarted);
      return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
    };
    const report = (label: string, figures: Figure[]) =>
      console.log(`run-page: ${label}: median ${median(figures.map((entry) => entry.wall)).toFixed(1)} ms wall (${figures.map((entry) => entry.wall.toFixed(0)).join(", ")}), ${median(figures.map((entry) => entry.cpu)).toFixed(0)} ms CPU`);

    // Warm-up: module loading, statement caches, the database file in the page cache.
    await shell(runIds[0]!);
    await streamTable(runIds[0]!);
    const first = { shell: [] as Figure[], streams: [] as Figure[], whole: [] as Figure[] };
    for (const runId of runIds.slice(1)) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      first.shell.push(await timeOf(() => shell(runId)));
      first.streams.push(await timeOf(() => streamTable(runId)));
      const used = process.cpuUsage(cpuStarted);
      first.whole.push({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 });
    }
    const later: Figure[] = [];
    for (let index = 0; index < repeat; index += 1) later.push(await timeOf(() => Promise.all([shell(runIds[1]!), streamTable(runIds[1]!)])));
    const series = await shell(runIds[1]!);
    console.log(`run-page: ${series.points.length} chart points, ${series.streamCount} stream lines, ${(await streamTable(runIds[1]!)).length} stream rows`);
    report("first view, page up to the chart (run, link, chart points)", first.shell);
    report("first view, per-stream table (streamed in after)", first.streams);
    report("first view, both", first.whole);
    report("later view (kept for finished runs)", later);
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
