import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

// What route handlers ask the database themselves, kept here so that they only validate and call lib/.

const COUNTS = {
  run: (id: number) => db.run.count({ where: { id } }),
  link: (id: number) => db.link.count({ where: { id } }),
  experiment: (id: number) => db.experiment.count({ where: { id } }),
} as const;

/**
 * Refuses with `not-found` (404) and `message` unless the row exists: for a route whose read answers
 * an empty list (or an empty stream) for an id that has no row, only the row tells the two apart.
 */
export async function requireRow(model: keyof typeof COUNTS, id: number, message: string): Promise<void> {
  if ((await COUNTS[model](id)) === 0) throw new AppError("not-found", message);
}

export type DatabaseHealth = { ok: true; db: "ok" } | { ok: false; db: "error"; reason?: string };

/** Whether the database answers, with its migrated tables: for GET /api/health. */
export async function databaseHealth(): Promise<DatabaseHealth> {
  try {
    await db.$queryRaw`SELECT 1`;
    // A database without the migrated tables is not usable either.
    await db.host.count();
    return { ok: true, db: "ok" };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error);
    return { ok: false, db: "error", reason };
  }
}
