import "server-only";
import { Cron } from "croner";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ConfigEnv } from "@/lib/config";
import { FINAL_RUN_STATUSES } from "./contract";
import { backfillRunDigests, getRunDigest } from "./digest";
import { dialect } from "@/lib/sql-dialect";

// Sample retention: every interval of a run is kept for WIRESPEED_SAMPLES_KEEP_DAYS (default
// 180; 0 keeps them forever). After that a run is compacted: its Sample rows are deleted and
// its digest (the chart's 600 thinned points and each stream's totals) is what is left, with
// everything else of the run (summary, commands, environment, raw outputs, latency pings).
// A one-hour run at -i 0.1 with 32 streams is about 96 MB of samples and 350 KB compacted.
// The space comes back to the file system only with VACUUM (`npm run compact -- --vacuum`),
// which rewrites the whole file: never done without being asked.

export const DEFAULT_SAMPLES_KEEP_DAYS = 180;
/** The overview's longest view (7 days) draws runs from their samples: they are kept at least that long. */
export const MIN_SAMPLES_KEEP_DAYS = 7;
const MAX_SAMPLES_KEEP_DAYS = 36_500;

/** WIRESPEED_SAMPLES_KEEP_DAYS as a number of days (0: forever); a value it cannot use is an error naming it. */
export function samplesKeepDays(env: ConfigEnv = process.env): number {
  const raw = env.WIRESPEED_SAMPLES_KEEP_DAYS?.trim();
  if (raw === undefined || raw === "") return DEFAULT_SAMPLES_KEEP_DAYS;
  const days = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (days === 0 || (days >= MIN_SAMPLES_KEEP_DAYS && days <= MAX_SAMPLES_KEEP_DAYS)) return days;
  throw new Error(
    "WIRESPEED_SAMPLES_KEEP_DAYS must be 0 (keep every sample forever) or a whole number of days " +
      `from ${MIN_SAMPLES_KEEP_DAYS} to ${MAX_SAMPLES_KEEP_DAYS} (got ${JSON.stringify(raw.slice(0, 40))})`,
  );
}

export type CompactionResult = { runs: number; samples: number };

/**
 * Compacts every finished run that ended more than `keepDays` before `now` and still has
 * samples: its digest first (stored from the samples if it has none), then its samples deleted
 * and the digest marked, one run per transaction so that live runs' writes are never held up
 * for long. `shouldStop` ends it between runs (shutdown).
 */
export async function compactRuns({
  keepDays,
  now = new Date(),
  shouldStop = () => false,
  batch = 200,
}: {
  keepDays: number;
  now?: Date;
  shouldStop?: () => boolean;
  batch?: number;
}): Promise<CompactionResult> {
  const result: CompactionResult = { runs: 0, samples: 0 };
  if (keepDays <= 0) return result;
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000);
  for (let after = 0; !shouldStop();) {
    // In id order with the id as the cursor; a run that ended before the cutoff and still has a sample.
    const due = await db.$queryRaw<Array<{ id: number | bigint }>>`
      SELECT "id" FROM "Run"
      WHERE "id" > ${after} AND "status" IN (${Prisma.join([...FINAL_RUN_STATUSES])}) AND COALESCE("endedAt", "createdAt") < ${cutoff}
        AND EXISTS (SELECT 1 FROM "Sample" WHERE "Sample"."runId" = "Run"."id")
      ORDER BY "id" LIMIT ${batch}`;
    for (const { id } of due) {
      if (shouldStop()) break;
      result.samples += await compactRun(Number(id), now);
      result.runs += 1;
      // Between runs, whatever else waits for the database goes first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (due.length < batch) break;
    after = Number(due.at(-1)!.id);
  }
  return result;
}

/** One run: digest kept, samples deleted; returns how many samples were deleted. */
async function compactRun(runId: number, now: Date): Promise<number> {
  await getRunDigest(runId);
  const [deleted] = await db.$transaction([
    db.sample.deleteMany({ where: { runId } }),
    db.runDigest.update({ where: { runId }, data: { compactedAt: now } }),
  ]);
  return deleted.count;
}

/**
 * VACUUM: gives the space of deleted rows back to the file system by rewriting the database. On
 * Postgres, a plain VACUUM of the samples' table (where compaction deletes): their space is then
 * reused by new samples, without the exclusive lock and full copy of VACUUM FULL.
 */
export async function vacuumDatabase(): Promise<void> {
  if (dialect() === "postgres") {
    await db.$executeRawUnsafe(`VACUUM "Sample"`);
    return;
  }
  await db.$executeRawUnsafe("VACUUM");
  // In WAL mode the rewritten pages sit in the WAL until a checkpoint: the file shrinks only then.
  await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
}

/**
 * In the background, from start: the digests that runs ended before them lack, then a
 * compaction pass, then one every day at 03:30 (the server's local time). Returns the function
 * that stops it (between two runs). A failed pass is logged and tried again the next day.
 */
export function startRunMaintenance(env: ConfigEnv = process.env): () => void {
  const keepDays = samplesKeepDays(env);
  let isStopped = false;
  const shouldStop = () => isStopped;
  let running: Promise<void> | null = null;
  const pass = (first: boolean) => {
    running ??= (async () => {
      try {
        if (first) {
          const stored = await backfillRunDigests({ shouldStop });
          if (stored > 0)
            console.log(`[wirespeed] stored the digest of ${stored} run(s) that ended before digests were kept`);
        }
        const compacted = await compactRuns({ keepDays, shouldStop });
        if (compacted.runs > 0)
          console.log(
            `[wirespeed] compacted ${compacted.runs} run(s) older than ${keepDays} days: ` +
              `${compacted.samples} samples deleted, their thinned series and stream totals kept`,
          );
      } catch (error) {
        console.error(
          `[wirespeed] run maintenance: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
      } finally {
        running = null;
      }
    })();
  };
  // A moment after start, so that the first requests are served first.
  const first = setTimeout(() => pass(true), 30_000);
  first.unref();
  const daily = new Cron("30 3 * * *", { unref: true }, () => pass(false));
  return () => {
    isStopped = true;
    clearTimeout(first);
    daily.stop();
  };
}
