// How long a run's sample writes wait while `npm run backup` copies the database, with the
// rollback journal the app used before (the baseline) and in WAL mode (lib/sqlite.ts), on the
// same file, in one run of the bench. Goal: no write waits more than 100 ms during a backup.
//
// A database of --mb MB of samples (old runs, 8 streams each, written with SQL) is copied by
// lib/backup.ts over and over, one backup after the other, in a process of its own as `npm run
// backup` is; meanwhile a run's samples arrive every 0.1 s (-i 0.1, --streams per-stream values
// each) into the app's SampleWriter, whose batches (one every 250 ms) go through Prisma and
// better-sqlite3 as the engine's do, each timed. Each journal mode runs in a process of its own
// (the app's one connection, and a rollback-journal connection that fails a commit can be left
// inside its transaction for good: the bench reports that and goes on).
//
// A third pass, WAL with no backup at all, is the control: on a busy machine a write can wait for
// the CPU as long as for any lock, and the difference between the two WAL passes is the backup's.
//
// No lab needed. Figures: each write's wait (p50, p99, max, how many over 100 ms), the longest
// stall of the writer's event loop (better-sqlite3 waits for a lock synchronously), samples
// stored of those sent, and the backups (count, time, restarts, the one-step copies that end
// them). A wrong result (a sample lost, a backup failing, in WAL mode) exits 1; what the
// rollback journal loses is a figure of the baseline.
//   node --require ./testing/server-only.cjs --import tsx bench/backup.bench.ts [--mb 400] [--seconds 30] [--streams 8] [--smoke]
// (`--role writer` and `--role backups` are the two processes it starts itself.)
// --smoke: 24 MB, 4 s per pass; about 25 s (mostly process starts), the same checks; its times mean little.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { insertBenchLink } from "./bench-link";
import { benchOptions, check, percentile } from "./lab-bench";
import { machineLine } from "./timing";

const ROOT = path.resolve(__dirname, "..");
const GOAL_MS = 100;
/** A write that has not settled by then is stuck for good (a rollback-journal connection left in its transaction). */
const STUCK_MS = 20_000;

/** "wal-alone": WAL with no backup beside, the control that shows what the machine alone costs a write. */
type Mode = "delete" | "wal" | "wal-alone";
type BackupFigure = { ms: number; restarts: number; bytes: number; error?: string };
type WriterResult = {
  mode: Mode;
  journalMode: string;
  runId: number;
  sent: number;
  /** Counted by the bench once the writer has exited (a stuck connection holds its lock until then). */
  stored: number;
  isContiguous: boolean;
  writes: number[];
  failedWrites: number;
  firstError: string | null;
  isStuck: boolean;
  maxStallMs: number;
  backups: BackupFigure[];
  /** Writes that began while a backup was running. */
  writesDuringBackups: number[];
};

/** A child process of this file in another role; its JSON lines go to `onLine`. */
function spawnRole(args: string[], onLine: (line: string) => void, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(
    process.execPath,
    ["--require", "./testing/server-only.cjs", "--import", "tsx", "bench/backup.bench.ts", ...args],
    {
      cwd: ROOT,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on("line", onLine);
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stderr })),
  );
  return { child, exited };
}

// ---- role "backups": lib/backup.ts, one copy after the other until stdin closes ----

async function backupsRole(databaseFile: string, dir: string): Promise<void> {
  const { backupDatabase } = await import("../lib/backup");
  let isStopped = false;
  process.stdin.on("end", () => (isStopped = true)).resume();
  let index = 0;
  while (!isStopped) {
    index += 1;
    const started = performance.now();
    const startedAt = Date.now();
    try {
      const result = await backupDatabase({ databaseFile, destination: path.join(dir, `copy-${index}.db`) });
      const ms = performance.now() - started;
      process.stdout.write(
        `${JSON.stringify({ startedAt, endedAt: Date.now(), ms, restarts: result.restarts, bytes: result.bytes })}\n`,
      );
      fs.rmSync(result.file);
    } catch (error) {
      process.stdout.write(
        `${JSON.stringify({ startedAt, endedAt: Date.now(), ms: performance.now() - started, restarts: 0, bytes: 0, error: String(error) })}\n`,
      );
    }
  }
}

// ---- role "writer": one journal mode, a run's samples through the SampleWriter, backups beside ----

async function writerRole(mode: Mode, url: string, seconds: number, streams: number, backupDir: string): Promise<void> {
  const file = url.slice("file:".length);
  const { PrismaClient } = await import("../lib/generated/prisma/client");
  const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
  const { createSqliteAdapter, BUSY_TIMEOUT_MS } = await import("../lib/sqlite");
  const { SampleWriter } = await import("../lib/runs/samples");
  // the baseline: what lib/db.ts opened before WAL, better-sqlite3's own 5 s busy timeout included
  const adapter =
    mode === "delete" ? new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS }) : createSqliteAdapter(url);
  const client = new PrismaClient({ adapter });
  const journal = await client.$queryRawUnsafe<Array<{ journal_mode: string }>>("PRAGMA journal_mode");
  const link = await client.link.findFirstOrThrow();
  const run = await client.run.create({
    data: { linkId: link.id, options: { protocol: "tcp", interval: 0.1, parallel: streams }, status: "running" },
  });

  // warm-up, untimed: Prisma prepares its createMany on the first call
  await client.sample.createMany({ data: [] });
  const backups: Array<BackupFigure & { startedAt: number; endedAt: number }> = [];
  const backupProcess =
    mode === "wal-alone"
      ? null
      : spawnRole(["--role", "backups", "--database", file, "--dir", backupDir], (line) =>
          backups.push(JSON.parse(line)),
        );
  // the first copy under way before the first sample
  const deadline = Date.now() + 60_000;
  while (backupProcess && backups.length === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));

  const writes: number[] = [];
  const writeStarts: number[] = [];
  let failedWrites = 0;
  let isStuck = false;
  const writer = new SampleWriter(run.id, {
    write: async (rows) => {
      const startedAt = Date.now();
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<"stuck">((resolve) => (timer = setTimeout(() => resolve("stuck"), STUCK_MS)));
      try {
        const outcome = await Promise.race([client.sample.createMany({ data: rows }), stuck]);
        if (outcome === "stuck") {
          isStuck = true;
          throw new Error(`a write did not settle in ${STUCK_MS / 1000} s`);
        }
      } catch (error) {
        failedWrites += 1;
        throw error;
      } finally {
        clearTimeout(timer);
        writes.push(performance.now() - started);
        writeStarts.push(startedAt);
      }
    },
  });

  const count = Math.round(seconds / 0.1);
  let maxStallMs = 0;
  let last = performance.now();
  for (let seq = 0; seq < count && !isStuck; seq += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = performance.now();
    // a lock waited for synchronously stops the whole event loop: the tick comes that much late
    maxStallMs = Math.max(maxStallMs, now - last - 100);
    last = now;
    const values = Array.from({ length: streams }, (_, index) => ({
      id: 5 + 2 * index,
      bytes: 1_460_000,
      bitsPerSecond: 116.8e6 + index * 1e4,
      retransmits: 0,
      cwndBytes: 1_200_000,
    }));
    writer.add({
      start: seq / 10,
      end: (seq + 1) / 10,
      bytes: 1_460_000 * streams,
      bitsPerSecond: 116.8e6 * streams,
      retransmits: 0,
      omitted: false,
      streams: values,
    });
  }
  const firstError = await writer.close().then(
    () => null,
    (error: unknown) =>
      error instanceof Error ? error.message.split("\n").filter(Boolean).slice(-1)[0]! : String(error),
  );
  if (backupProcess) {
    backupProcess.child.stdin.end();
    // a connection of this process left stuck holds its lock, and the copy under way waits for it
    const killer = setTimeout(() => backupProcess.child.kill("SIGKILL"), isStuck ? 1_000 : 60_000);
    await backupProcess.exited;
    clearTimeout(killer);
  }

  const during = writes.filter((_, index) =>
    backups.some((backup) => writeStarts[index]! >= backup.startedAt && writeStarts[index]! <= backup.endedAt),
  );
  const result: WriterResult = {
    mode,
    journalMode: journal[0]!.journal_mode,
    runId: run.id,
    sent: count,
    stored: 0,
    isContiguous: false,
    writes,
    failedWrites,
    firstError,
    isStuck,
    maxStallMs,
    backups: backups.map(({ ms, restarts, bytes, error }) => ({ ms, restarts, bytes, error })),
    writesDuringBackups: during,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // a connection stuck inside its transaction would keep the process alive: the result is out, leave
  if (!isStuck) await client.$disconnect();
  process.exit(0);
}

// ---- the bench ----

/** `megabytes` of old runs' samples, 8 streams at 0.1 s (600 intervals a run), and the link they ran on. */
function fill(file: string, megabytes: number): { runs: number; samples: number } {
  const sqlite = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const linkId = insertBenchLink(sqlite, now);
  const insertRun = sqlite.prepare(
    `INSERT INTO "Run" ("linkId", "status", "options", "createdAt") VALUES (?, 'succeeded', ?, ?)`,
  );
  const insertSample = sqlite.prepare(
    `INSERT INTO "Sample" ("runId", "seq", "start", "end", "bytes", "bitsPerSecond", "retransmits", "streams") VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
  );
  let runs = 0;
  let samples = 0;
  const pageSize = Number(sqlite.pragma("page_size", { simple: true }));
  const size = () => Number(sqlite.pragma("page_count", { simple: true })) * pageSize;
  while (size() < megabytes * 1024 * 1024) {
    sqlite.transaction(() => {
      for (let batch = 0; batch < 20; batch += 1) {
        const runId = Number(
          insertRun.run(linkId, JSON.stringify({ protocol: "tcp", interval: 0.1, parallel: 8 }), now).lastInsertRowid,
        );
        runs += 1;
        for (let seq = 0; seq < 600; seq += 1) {
          const values = Array.from({ length: 8 }, (_, index) => ({
            id: 5 + 2 * index,
            bytes: 1_460_000 + ((seq * 7 + index) % 50) * 100,
            bitsPerSecond: 116.8e6 + ((seq + index) % 90) * 1e4,
            retransmits: 0,
            cwndBytes: 1_200_000,
          }));
          insertSample.run(runId, seq, seq / 10, (seq + 1) / 10, 11_680_000, 934.4e6, JSON.stringify(values));
          samples += 1;
        }
      }
    })();
  }
  sqlite.close();
  return { runs, samples };
}

function resetJournalMode(file: string): void {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = DELETE");
  sqlite.close();
}

function runMode(mode: Mode, url: string, seconds: number, streams: number, backupDir: string): Promise<WriterResult> {
  let result: WriterResult | null = null;
  const writer = spawnRole(
    [
      "--role",
      "writer",
      "--mode",
      mode,
      "--url",
      url,
      "--seconds",
      String(seconds),
      "--streams",
      String(streams),
      "--dir",
      backupDir,
    ],
    (line) => {
      if (line.startsWith("{")) result = JSON.parse(line) as WriterResult;
    },
    { ...process.env, DATABASE_URL: url },
  );
  const killer = setTimeout(() => writer.child.kill("SIGKILL"), (seconds + 150) * 1000);
  return writer.exited.then(({ code, stderr }) => {
    clearTimeout(killer);
    const written = result as WriterResult | null;
    if (written === null) throw new Error(`the ${mode} writer exited ${code} without a result: ${stderr.slice(-2000)}`);
    const sqlite = new Database(url.slice("file:".length), { readonly: true });
    const seqs = (
      sqlite.prepare("SELECT seq FROM Sample WHERE runId = ? ORDER BY seq").all(written.runId) as Array<{ seq: number }>
    ).map((row) => row.seq);
    sqlite.close();
    return { ...written, stored: seqs.length, isContiguous: seqs.every((seq, index) => seq === index) };
  });
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const MODE_NAMES: Record<Mode, string> = {
  "wal-alone": "WAL, no backup (the control: what the machine alone costs a write)",
  delete: "rollback journal (before), backups one after the other",
  wal: "WAL (lib/sqlite.ts), backups one after the other",
};

function report(result: WriterResult): void {
  const backupsDone = result.backups.filter((backup) => !backup.error);
  const oneStep = backupsDone.filter((backup) => backup.restarts >= 3).length;
  const waits = result.writesDuringBackups;
  console.log(
    `  ${MODE_NAMES[result.mode]}: journal_mode=${result.journalMode}; ${result.writes.length} sample writes, ${waits.length} of them while a backup ran`,
  );
  if (result.writes.length > 0) {
    console.log(
      `    write wait, all writes: p50 ${ms(percentile(result.writes, 50))}, p99 ${ms(percentile(result.writes, 99))}, ` +
        `max ${ms(Math.max(...result.writes))}; ` +
        `over ${GOAL_MS} ms: ${result.writes.filter((value) => value > GOAL_MS).length}`,
    );
  }
  if (waits.length > 0) {
    console.log(
      `    write wait during a backup: p50 ${ms(percentile(waits, 50))}, p99 ${ms(percentile(waits, 99))}, max ${ms(Math.max(...waits))}`,
    );
  }
  console.log(
    `    longest stall of the writer's event loop ${ms(result.maxStallMs)}; ` +
      `samples stored ${result.stored} of ${result.sent} (seq 0..n-1 without a gap: ${result.isContiguous})`,
  );
  if (result.failedWrites > 0 || result.isStuck) {
    console.log(
      `    ${result.failedWrites} write(s) failed${result.firstError ? ` (${result.firstError})` : ""}` +
        `${result.isStuck ? `; the connection was left stuck inside its transaction: no later write settled` : ""}`,
    );
  }
  const times = backupsDone.map((backup) => backup.ms);
  if (result.mode === "wal-alone") return;
  const failedBackups = result.backups.length - backupsDone.length;
  const failed = failedBackups > 0 ? `, ${failedBackups} failed (${result.backups.find((b) => b.error)?.error})` : "";
  console.log(
    `    backups: ${backupsDone.length} taken${failed}` +
      (times.length > 0
        ? `, ${ms(percentile(times, 50))} median, ${ms(Math.max(...times))} max, ` +
          `${(backupsDone[0]!.bytes / 1024 / 1024).toFixed(1)} MiB each; ${oneStep} ended in a one-step copy after 3 restarts`
        : ""),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { value, number, isSmoke } = benchOptions(args);
  const role = value("role", "bench");
  if (role === "backups") return backupsRole(value("database", ""), value("dir", ""));
  const seconds = number("seconds", 30, 4);
  const streams = number("streams", 8, 8);
  if (role === "writer")
    return writerRole(value("mode", "wal") as Mode, value("url", ""), seconds, streams, value("dir", ""));

  const megabytes = number("mb", 400, 24);
  check(
    Number.isFinite(megabytes) && megabytes > 0 && megabytes <= 100_000,
    `--mb must be a size in MB above 0, not ${value("mb", "")}`,
  );
  check(
    Number.isFinite(seconds) && seconds >= 1 && seconds <= 3600,
    `--seconds must be from 1 to 3600, not ${value("seconds", "")}`,
  );
  const { createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  const file = database.url.slice("file:".length);
  const backupDir = path.join(database.dataDir, "copies");
  fs.mkdirSync(backupDir, { mode: 0o700 });
  try {
    console.log(`backup: ${machineLine()}${isSmoke ? " (--smoke: times mean little)" : ""}`);
    const filling = performance.now();
    const filled = fill(file, megabytes);
    console.log(
      `backup: ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MiB database ` +
        `(${filled.runs} runs, ${filled.samples} samples of 8 streams) in ${((performance.now() - filling) / 1000).toFixed(1)} s; ` +
        `a run of ${seconds} s at -i 0.1 with ${streams} streams per mode, backups one after the other; goal: no write waits more than ${GOAL_MS} ms`,
    );
    const results: WriterResult[] = [];
    for (const mode of ["wal-alone", "delete", "wal"] as const) {
      // as an install before WAL left it: for "wal" the app's connection (lib/sqlite.ts) must switch it itself
      resetJournalMode(file);
      const result = await runMode(mode, database.url, seconds, streams, backupDir);
      results.push(result);
      report(result);
    }
    const [alone, before, after] = results as [WriterResult, WriterResult, WriterResult];

    check(after.journalMode === "wal", `the app's connection is in journal mode ${after.journalMode}, not wal`);
    check(
      after.stored === after.sent && after.isContiguous,
      `in WAL mode ${after.stored} of ${after.sent} samples were stored`,
    );
    check(
      after.failedWrites === 0 && !after.isStuck,
      `in WAL mode ${after.failedWrites} write(s) failed: ${after.firstError}`,
    );
    check(
      after.backups.every((backup) => !backup.error),
      `a backup failed in WAL mode: ${after.backups.find((backup) => backup.error)?.error}`,
    );
    check(
      alone.stored === alone.sent && alone.failedWrites === 0,
      `with no backup ${alone.stored} of ${alone.sent} samples were stored`,
    );
    check(
      after.writesDuringBackups.length > 0,
      "no sample write fell during a backup: nothing measured (a larger --mb makes backups longer)",
    );

    const worst = (result: WriterResult) => (result.writes.length > 0 ? Math.max(...result.writes) : 0);
    const p99 = (result: WriterResult) => (result.writes.length > 0 ? percentile(result.writes, 99) : 0);
    console.log(
      `  max write wait: ${ms(worst(before))} before, ${ms(worst(after))} with WAL (${(worst(before) / worst(after)).toFixed(0)}x less); ` +
        `p99 ${ms(p99(before))} → ${ms(p99(after))}; ` +
        `samples lost ${before.sent - before.stored} → ${after.sent - after.stored}`,
    );
    console.log(
      `  WAL with backups against WAL alone: max ${ms(worst(after))} vs ${ms(worst(alone))}, p99 ${ms(p99(after))} vs ${ms(p99(alone))}, ` +
        `longest event-loop stall ${ms(after.maxStallMs)} vs ${ms(alone.maxStallMs)} ` +
        `(in WAL no lock is waited for: a stall there is time the writer did not get a CPU, ` +
        `which the backup process shares)`,
    );
    console.log(
      `verdict: ${worst(after) <= GOAL_MS ? "MET" : "MISSED"}: ` +
        `the longest sample write in WAL mode while backups ran took ${ms(worst(after))} (goal ${GOAL_MS} ms)`,
    );
  } finally {
    database.remove();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
