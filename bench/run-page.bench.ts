// Server time of the run page's reads for a finished one-hour, 32-stream run at 0.1 s intervals
// (36,000 samples, 1,152,000 per-stream values), as app/runs/[id]/page.tsx calls the reads of lib/runs and lib/inventory
// (links, run-lists, run-series), in one process:
//   before: the first view of a run without a digest (a run that ended before digests were kept),
//           which reads its samples, thins them and totals every stream value (and stores it);
//   after:  the first view of a run whose digest was stored when it ended, and what storing it
//           cost at the end of the run (the stream totals kept as the samples arrived, then the
//           thinned points read once).
// No lab needed: the rows are written with SQL, shaped like what the engine stores for -P 32 -i 0.1.
//   node --require ./testing/server-only.cjs --import tsx bench/run-page.bench.ts [--samples 36000] [--streams 32] [--repeat 5] [--smoke]
import Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";
import { insertBenchLink } from "./bench-link";
import { storedRunOptions } from "../testing/run-options";

function readArgs(args: string[]) {
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const isSmoke = args.includes("--smoke");
  const number = (name: string, fallback: number, smoke: number) => {
    const raw = value(name);
    const parsed = raw === undefined ? (isSmoke ? smoke : fallback) : Number(raw);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > 1_000_000)
      throw new Error(`--${name} must be a whole number from 1 to 1000000, not ${JSON.stringify(raw)}`);
    return parsed;
  };
  return {
    isSmoke,
    samples: number("samples", 36_000, 1_200),
    streams: number("streams", 32, 4),
    repeat: number("repeat", 5, 1),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Host, NICs and a link, then `count` finished runs of `samples` intervals each, written with SQL. */
function seed(
  file: string,
  { samples, streams, count }: { samples: number; streams: number; count: number },
): number[] {
  const sqlite = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const linkId = insertBenchLink(sqlite, now, { nicFigures: true });
  const options = storedRunOptions({ duration: samples / 10, parallel: streams, interval: 0.1 });
  const insertRun = sqlite.prepare(
    `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "startedAt", "endedAt", ` +
      `"sentBitsPerSecond", "receivedBitsPerSecond", "retransmits") VALUES (?, 'succeeded', 'a', ?, ?, ?, ?, 9.5e8, 9.4e8, 0)`,
  );
  const insertSample = sqlite.prepare(
    `INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "retransmits", "cwndBytes", ` +
      `"omitted", "streams") VALUES (?, ?, ?, ?, 'forward', ?, ?, ?, ?, ?, ?)`,
  );
  const runIds: number[] = [];
  sqlite.transaction(() => {
    for (let run = 0; run < count; run += 1) {
      const runId = Number(insertRun.run(linkId, JSON.stringify(options), now, now, now).lastInsertRowid);
      runIds.push(runId);
      for (let seq = 0; seq < samples; seq += 1) {
        const values = Array.from({ length: streams }, (_, index) => {
          const bitsPerSecond = 2.9e7 + ((seq * 7 + index * 13) % 100) * 2e4;
          return {
            id: 5 + 2 * index,
            bytes: Math.round(bitsPerSecond / 80),
            bitsPerSecond,
            retransmits: (seq + index) % 97 === 0 ? 1 : 0,
            cwndBytes: 120_000 + index * 1000,
          };
        });
        const total = values.reduce((sum, stream) => sum + stream.bitsPerSecond, 0);
        const retransmits = values.reduce((sum, stream) => sum + stream.retransmits, 0);
        // The first second is iperf3's omitted warm-up (-O 1), as a run with --omit stores it.
        insertSample.run(
          runId,
          seq,
          seq / 10,
          (seq + 1) / 10,
          total / 80,
          total,
          retransmits,
          streams * 120_000,
          seq < 10 ? 1 : 0,
          JSON.stringify(values),
        );
      }
    }
  })();
  sqlite.close();
  return runIds;
}

async function main(): Promise<void> {
  const { isSmoke, samples, streams, repeat } = readArgs(process.argv.slice(2));
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  // An app on this database: every module of lib/ reads and writes it (testing/database.ts).
  await connectAppDatabase(database.url);
  try {
    const seedStarted = performance.now();
    // Per repetition one run seen without a digest (before) and one with it (after), plus one for the warm-up.
    const runIds = seed(path.join(database.dataDir, "wirespeed.db"), { samples, streams, count: 2 * repeat + 1 });
    console.log(
      `run-page: ${isSmoke ? "SMOKE RUN (--smoke): " : ""}seeded ${runIds.length} runs ` +
        `of ${samples.toLocaleString("en")} samples × ${streams} streams in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    console.log(
      `run-page: node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );

    const queries = {
      ...(await import("../lib/runs/link-reads")),
      ...(await import("../lib/runs/lists")),
      ...(await import("../lib/runs/series-reads")),
    };
    const { readStreamStatsFromSamples, storeRunDigest } = await import("../lib/runs/digest");
    const { StreamTotals } = await import("../lib/runs/stream-totals");
    const { sampleEventFromRow } = await import("../lib/runs/contract");
    // What the run page reads for a finished run (app/runs/[id]/page.tsx): the run, its link's
    // ends and the chart before the first byte of the page; the per-stream table streams in after.
    const shell = async (runId: number) => {
      const run = await queries.getRunDetail(runId);
      const [ends, series] = await Promise.all([
        queries.getLinkEnds(run!.linkId),
        queries.getRunSeries({ runId, isFinished: true }),
      ]);
      if (!ends || series.sampleCount !== samples || series.streamCount !== Math.min(streams, 32))
        throw new Error(
          `wrong result: run ${runId}: read ${series.sampleCount} samples and ${series.streamCount} stream lines`,
        );
      return series;
    };
    const streamTable = async (runId: number) => {
      const stats = await queries.getRunStreamStats({ runId, isFinished: true });
      if (stats.length !== streams) throw new Error(`wrong result: run ${runId}: ${stats.length} stream rows`);
      return stats;
    };
    const page = async (runId: number) => {
      await shell(runId);
      await streamTable(runId);
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
    const medians = (figures: Figure[]) => ({
      wall: median(figures.map((entry) => entry.wall)),
      cpu: median(figures.map((entry) => entry.cpu)),
    });
    const report = (label: string, figures: Figure[]) =>
      console.log(
        `run-page: ${label}: median ${medians(figures).wall.toFixed(1)} ms wall ` +
          `(${figures.map((entry) => entry.wall.toFixed(0)).join(", ")}), ${medians(figures).cpu.toFixed(0)} ms CPU`,
      );

    // The samples as the engine's sample writer sees them, for its stream totals (kept outside the timed spans).
    const { db } = await import("../lib/db");
    const eventsOf = async (runId: number) =>
      (await db.sample.findMany({ where: { runId }, orderBy: { seq: "asc" }, omit: { id: true, runId: true } })).map(
        (row) => sampleEventFromRow(row),
      );

    // Warm-up: module loading, statement caches, the database file in the page cache.
    await page(runIds[0]!);
    const before = { shell: [] as Figure[], whole: [] as Figure[] };
    const after = { end: [] as Figure[], totals: [] as Figure[], shell: [] as Figure[], whole: [] as Figure[] };
    for (let index = 0; index < repeat; index += 1) {
      const withoutDigest = runIds[1 + 2 * index]!;
      const withDigest = runIds[2 + 2 * index]!;
      before.shell.push(await timeOf(() => shell(withoutDigest)));
      before.whole.push(await timeOf(() => streamTable(withoutDigest)));
      before.whole[index] = {
        wall: before.whole[index]!.wall + before.shell[index]!.wall,
        cpu: before.whole[index]!.cpu + before.shell[index]!.cpu,
      };
      // The end of a run: the writer kept the totals as the intervals arrived (its cost spread over the run), then the digest is stored.
      const events = await eventsOf(withDigest);
      const totals = new StreamTotals();
      after.totals.push(await timeOf(async () => events.forEach((event) => totals.add(event))));
      after.end.push(await timeOf(() => storeRunDigest(withDigest, totals.stats())));
      const fromSamples = await readStreamStatsFromSamples(withDigest);
      const kept = totals.stats();
      if (
        kept.length !== fromSamples.length ||
        kept.some((stat, at) => Math.abs(stat.bytes - fromSamples[at]!.bytes) > 1e-6 * stat.bytes)
      )
        throw new Error(`wrong result: run ${withDigest}: the kept stream totals differ from the samples'`);
      after.shell.push(await timeOf(() => shell(withDigest)));
      after.whole.push(await timeOf(() => page(withDigest)));
    }
    const [size] = await db.$queryRaw<Array<{ digest: number | bigint; samples: number | bigint }>>`
      SELECT (SELECT length("points") + length("streams") FROM "RunDigest" WHERE "runId" = ${runIds[2]!}) AS "digest",
        (SELECT SUM(length("streams")) + COUNT(*) * 80 FROM "Sample" WHERE "runId" = ${runIds[2]!}) AS "samples"`;
    console.log(
      `run-page: the digest of one run is ${(Number(size!.digest) / 1024).toFixed(0)} KiB of JSON; ` +
        `its samples about ${(Number(size!.samples) / 1024 / 1024).toFixed(1)} MiB (stream values plus about 80 bytes a row)`,
    );
    const series = await shell(runIds[2]!);
    console.log(
      `run-page: ${series.points.length} chart points, ${series.streamCount} stream lines, ${(await streamTable(runIds[2]!)).length} stream rows`,
    );
    report("before: first view without a digest, page up to the chart", before.shell);
    report("before: first view without a digest, with the per-stream table", before.whole);
    report("after: stream totals kept by the writer over the whole run (spread over its hour)", after.totals);
    report("after: storing the digest at the run's end", after.end);
    report("after: first view with the digest, page up to the chart", after.shell);
    report("after: first view with the digest, with the per-stream table", after.whole);
    const ratio = medians(before.whole).wall / medians(after.whole).wall;
    const goal = medians(after.whole).wall < 300;
    console.log(
      `run-page: first view ${ratio.toFixed(1)}× faster with the digest; goal (first view under 300 ms): ${goal ? "MET" : "MISSED"}`,
    );
    await db.$disconnect();
  } finally {
    database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
