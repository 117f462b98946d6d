import "server-only";
import type { DatabaseKind } from "@/lib/config";
import { db } from "@/lib/db";
import { getApp } from "@/lib/running-app";
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

export type DatabaseHealth = {
  ok: boolean;
  db: "ok" | "error";
  /** Which database this instance uses. */
  database: DatabaseKind;
  /** This instance's id (WIRESPEED_INSTANCE, or its host name): which one answered, behind a balancer. */
  instance: string;
  reason?: string;
};

/** Whether the database answers, with its migrated tables: for GET /api/health. */
export async function databaseHealth(): Promise<DatabaseHealth> {
  const { database, instance } = getApp();
  const about = { database, instance: instance.id };
  try {
    await db.$queryRaw`SELECT 1`;
    // A database without the migrated tables is not usable either.
    await db.host.count();
    return { ok: true, db: "ok", ...about };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error);
    return { ok: false, db: "error", ...about, reason };
  }
}
