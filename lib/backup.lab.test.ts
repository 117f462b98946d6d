// Backups taken during a real run (real sshd, iperf3 at -i 0.1, the engine's SampleWriter on
// real SQLite): no sample is lost, a backup holds the run as it was when the backup began,
// and the run's writes do not wait for a backup's read transaction (WAL, lib/sqlite.ts).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/testing/lab-targets";
import { parseIperfOutput } from "@/lib/iperf";
import { openLabDatabase } from "@/testing/lab-database";
import { runProgram } from "@/testing/run-program";
import { RunEngine } from "@/lib/runs/engine";
import { agentRunRemote } from "@/lib/runs/remote-agents";
import { RunEventBus } from "@/lib/runs/bus";
import { parseRunRequest } from "@/lib/runs/request";

const ROOT = path.resolve(__dirname, "..");

const database = await openLabDatabase();
const { db, linkIds } = database;
const databaseFile = database.url.slice("file:".length);

const bus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, bus);
const backupsDir = path.join(database.dataDir, "lab-backups");

beforeAll(() => {
  fs.mkdirSync(backupsDir, { mode: 0o700 });
});

/** A connection of its own, as another process would have: sees what the app has committed. */
function committedSamples(runId: number): number {
  const observer = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return (observer.prepare("SELECT count(*) AS n FROM Sample WHERE runId = ?").get(runId) as { n: number }).n;
  } finally {
    observer.close();
  }
}

/** `npm run backup -- DESTINATION` as a user runs it, in a process of its own, on the test's database. */
function runBackupCommand(destination: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProgram(process.execPath, ["--import", "tsx", "scripts/backup.ts", destination], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url },
  });
}

type BackupSeen = { file: string; before: number; after: number; samples: number; runStatus: string };

/** What a backup holds of the run: its status then, and its samples, which must be seq 0..k-1. */
function readBackup(file: string, runId: number): { samples: number; runStatus: string } {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const run = copy.prepare("SELECT status FROM Run WHERE id = ?").get(runId) as { status: string } | undefined;
    expect(run, `run ${runId} in ${file}`).toBeDefined();
    const seqs = (
      copy.prepare("SELECT seq FROM Sample WHERE runId = ? ORDER BY seq").all(runId) as Array<{ seq: number }>
    ).map((row) => row.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index));
    return { samples: seqs.length, runStatus: run!.status };
  } finally {
    copy.close();
  }
}

describe("backups during a run with 0.1 s intervals", () => {
  it("lose no sample, hold the run up to their moment, and never hold up its writes", async () => {
    const request = parseRunRequest({ duration: 12, interval: 0.1 });
    const started = await engine.startRun({
      linkId: linkIds["ab-1g"]!,
      options: request.options,
      clientSide: request.clientSide,
    });
    let published = 0;
    const unsubscribe = bus.subscribe(started.id, 0, (event) => {
      if (event.type === "sample") published += 1;
    });
    let hasEnded = false;
    const ended = engine.waitForRun(started.id).finally(() => (hasEnded = true));
    const backups: BackupSeen[] = [];
    try {
      await waitFor(() => committedSamples(started.id) >= 5, 30_000, "the run's first samples to be stored");

      // What a backup does while it copies: a read transaction, held here for as long as the
      // run needs to commit 10 more samples. In WAL mode they commit; with a rollback journal
      // the engine's write waits out the busy timeout and fails (SQLITE_BUSY), and this times out.
      const reader = new Database(databaseFile, { fileMustExist: true, timeout: 10_000 });
      try {
        reader.exec("BEGIN");
        const held = (
          reader.prepare("SELECT count(*) AS n FROM Sample WHERE runId = ?").get(started.id) as { n: number }
        ).n;
        const hasCommitted = () => {
          try {
            return committedSamples(started.id) >= held + 10;
          } catch (error) {
            // a rollback journal's writer waiting for its exclusive lock shuts other readers out too
            if ((error as { code?: string }).code === "SQLITE_BUSY") return false;
            throw error;
          }
        };
        await waitFor(hasCommitted, 10_000, "10 samples committed while a reader holds its transaction");
        // the reader still sees the moment it began: one point in time, as a backup copies it
        expect(
          (reader.prepare("SELECT count(*) AS n FROM Sample WHERE runId = ?").get(started.id) as { n: number }).n,
        ).toBe(held);
      } finally {
        if (reader.inTransaction) reader.exec("COMMIT");
        reader.close();
      }

      // `npm run backup`, one after another, for as long as the run goes on
      while (!hasEnded) {
        const file = path.join(backupsDir, `during-${backups.length + 1}.db`);
        const before = committedSamples(started.id);
        const result = await runBackupCommand(file);
        const after = committedSamples(started.id);
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`${file}\n`);
        expect(result.stdout).toContain("integrity_check ok");
        backups.push({ file, before, after, ...readBackup(file, started.id) });
      }
    } finally {
      // Bounded, so that a failure above is reported rather than the test's timeout: with a rollback
      // journal a commit refused with SQLITE_BUSY leaves the app's connection inside its transaction,
      // and neither the run's end nor a cancel can write any more.
      const within = <T>(promise: Promise<T>, ms: number) =>
        Promise.race([promise.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))]);
      if (!(await within(ended, 30_000))) await within(engine.cancelRun(started.id), 5_000).catch(() => false);
      unsubscribe?.();
    }

    const run = await db.run.findUniqueOrThrow({
      where: { id: started.id },
      include: { samples: { select: { seq: true }, orderBy: { seq: "asc" } } },
    });
    expect(run.errorMessage).toBeNull();
    expect(run.status).toBe("succeeded");
    // every interval the client printed is a stored sample, seq 0..n-1 without a gap
    const printed = parseIperfOutput(run.clientOutput ?? "").intervals.length;
    expect(printed).toBeGreaterThanOrEqual(110);
    expect(run.samples.map((sample) => sample.seq)).toEqual(Array.from({ length: printed }, (_, index) => index));
    expect(published).toBe(printed);

    // each backup holds the run as it was at one moment between its start and its end...
    for (const backup of backups) {
      expect(backup.samples, backup.file).toBeGreaterThanOrEqual(backup.before);
      expect(backup.samples, backup.file).toBeLessThanOrEqual(backup.after);
    }
    // ...and they were taken while the run was still writing: how many fit in its 12 s is the
    // machine's speed (each is a process of its own: one did at a load of 20 on 2 cores)
    const midRun = backups.filter((backup) => backup.runStatus === "running" && backup.samples < printed);
    expect(midRun.length).toBeGreaterThanOrEqual(1);
    expect(fs.readdirSync(backupsDir).filter((name) => !name.endsWith(".db"))).toEqual([]);
  });
});
