// The SQLite migrations (prisma/migrations), applied in order, as `prisma migrate deploy` applies them,
// without the Prisma CLI: the image runs this compiled to plain JavaScript (deploy/bundle-scripts.mjs),
// with no dev dependency. The applied migrations are recorded in Prisma's own table,
// `_prisma_migrations`, as Prisma writes it (the SHA-256 of the file, ISO times), so that a database
// migrated here and one migrated by `prisma migrate deploy` are the same, and either may go on.
// The connection is the app's (lib/sqlite.ts): the folder and file private, WAL mode.
// Plain module (no "server-only"): scripts/migrate.ts and the tests use it.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { ensureDataDir } from "./data-dir";
import { pendingMigrations, readMigrations } from "./postgres/migrate";
import { createSqliteAdapter } from "./sqlite";

/** Prisma's table, as `prisma migrate deploy` creates it in a SQLite file. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** The time as Prisma stores it in `_prisma_migrations`: 2026-12-08T01:06:08.315+00:00. */
const now = () => new Date().toISOString().replace(/Z$/, "+00:00");

/** A statement whose arguments are all text, as the driver adapter takes it. */
const statement = (sql: string, args: string[]) => ({
  sql,
  args,
  argTypes: args.map(() => ({ scalarType: "string" as const, arity: "scalar" as const })),
});

/** Applies the migrations of `folder` not yet applied to the SQLite file `file`; returns their names. */
export async function migrateSqlite(file: string, folder: string): Promise<string[]> {
  ensureDataDir(path.dirname(file));
  const connection = await createSqliteAdapter(`file:${file}`).connect();
  try {
    await connection.executeScript(MIGRATIONS_TABLE);
    const { rows } = await connection.queryRaw({
      sql: `SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL`,
      args: [],
      argTypes: [],
    });
    const applied = new Map(rows.map(([name, checksum, finished]) => [String(name), { checksum, finished }]));
    const done: string[] = [];
    const pending = pendingMigrations(
      readMigrations(folder),
      applied,
      (name) => `npx prisma migrate resolve --rolled-back ${name}`,
    );
    for (const migration of pending) {
      const id = randomUUID();
      await connection.executeRaw(
        statement(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at") VALUES (?, ?, ?, ?)`,
          [id, migration.checksum, migration.name, now()],
        ),
      );
      try {
        await connection.executeScript(migration.sql);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await connection.executeRaw(
          statement(`UPDATE "_prisma_migrations" SET "logs" = ? WHERE "id" = ?`, [message, id]),
        );
        throw new Error(`the migration ${migration.name} failed: ${message}`);
      }
      await connection.executeRaw(
        statement(`UPDATE "_prisma_migrations" SET "finished_at" = ?, "applied_steps_count" = 1 WHERE "id" = ?`, [
          now(),
          id,
        ]),
      );
      done.push(migration.name);
    }
    return done;
  } finally {
    await connection.dispose();
  }
}
