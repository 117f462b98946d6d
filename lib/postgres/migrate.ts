// The Postgres migrations (prisma/postgres/migrations), applied in order, each in its own transaction.
// `prisma migrate deploy` cannot do it through the pg driver adapter (its schema engine fails on
// Postgres's `name` column type: prisma/prisma#27403), and without the adapter it downloads a native
// engine. The applied migrations are recorded in Prisma's own table, `_prisma_migrations`, with the
// checksum Prisma writes (the SHA-256 of the file), so that `prisma migrate status` and a later
// `prisma migrate deploy` agree with what is here. Two instances starting at once wait for each other
// on an advisory lock: the second finds nothing left to do.
// Plain module (no "server-only"): scripts/migrate.ts and the tests use it.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const POSTGRES_MIGRATIONS = path.join(__dirname, "..", "..", "prisma", "postgres", "migrations");

/** Any number, the same in every instance: the key of the advisory lock the migrations hold. */
const MIGRATION_LOCK = 72_707_301;

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(folder: string = POSTGRES_MIGRATIONS): Migration[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(folder, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** What `_prisma_migrations` says of one migration: its checksum, and whether it finished. */
export type AppliedMigration = { checksum: unknown; finished: unknown };

/**
 * The migrations of `migrations` still to apply, in order, given what the database has applied. One
 * changed after it was applied is warned about; one that failed before stops the start, with
 * `rolledBackHint(name)` saying how to mark it rolled back on this database.
 */
export function pendingMigrations(
  migrations: Migration[],
  applied: Map<string, AppliedMigration>,
  rolledBackHint: (name: string) => string,
): Migration[] {
  return migrations.filter((migration) => {
    const row = applied.get(migration.name);
    if (row?.finished) {
      if (row.checksum !== migration.checksum) {
        console.warn(
          `[wirespeed] warning: the migration ${migration.name} was changed after it was applied to this database`,
        );
      }
      return false;
    }
    if (row) {
      throw new Error(
        `the migration ${migration.name} failed on this database before: fix what it reports, then ` +
          `mark it rolled back (${rolledBackHint(migration.name)})`,
      );
    }
    return true;
  });
}

/** Applies the migrations not yet applied; returns their names. */
export async function migratePostgres(url: string, folder: string = POSTGRES_MIGRATIONS): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    // Prisma's own table, as `prisma migrate deploy` creates it.
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL`,
    );
    const applied = new Map(
      rows.map((row) => [row.migration_name, { checksum: row.checksum, finished: row.finished_at }]),
    );
    const done: string[] = [];
    const pending = pendingMigrations(
      readMigrations(folder),
      applied,
      (name) => `UPDATE "_prisma_migrations" SET "rolled_back_at" = now() WHERE "migration_name" = '${name}'`,
    );
    for (const migration of pending) {
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "finished_at", "applied_steps_count")
           VALUES ($1, $2, $3, now(), 1)`,
          [id, migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`the migration ${migration.name} failed: ${error instanceof Error ? error.message : error}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.end().catch(() => {});
  }
}
