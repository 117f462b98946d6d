import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { getApp } from "@/lib/running-app";
import { resolveDatabase, type DatabaseKind } from "@/lib/config";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-postgres/client";
import { isPostgresClient } from "@/lib/postgres/kind";
import { createSqliteAdapter } from "@/lib/sqlite";

// Credentials never leave the database by accident: a query that needs them asks with `omit: { secret: false }`.
const OMIT = { host: { secret: true }, notificationChannel: { secret: true } } as const;

/**
 * A client on `url` (default: DATABASE_URL, or the SQLite file in the data folder): SQLite through
 * better-sqlite3 (WAL, synchronous NORMAL and a busy timeout: lib/sqlite.ts), or Postgres through pg
 * for a postgres:// URL. Both clients are generated from the one schema (scripts/postgres-schema.mjs)
 * and answer the same models and queries, so the app types the Postgres one as the SQLite one; the
 * few raw statements that differ between the two ask lib/sql-dialect.ts.
 */
export function createDatabaseClient(url?: string): PrismaClient {
  const database = resolveDatabase(url === undefined ? process.env : { DATABASE_URL: url });
  if (database.kind === "postgres") {
    // A pool of 10: runs write their samples while pages read.
    const adapter = new PrismaPg({ connectionString: database.url, max: 10 });
    return new PostgresPrismaClient({ adapter, omit: OMIT }) as unknown as PrismaClient;
  }
  return new PrismaClient({ adapter: createSqliteAdapter(database.url), omit: OMIT });
}

/** Which database a client talks to. */
export function databaseKindOf(client: PrismaClient): DatabaseKind {
  return isPostgresClient(client) ? "postgres" : "sqlite";
}

/**
 * The running app's database client (lib/running-app.ts), for the reads and writes of lib/: each use
 * reaches the client of the app running at that moment, so a test that builds its own app on
 * its own database needs no fresh import of the modules it tests.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, key) {
    const client = getApp().db;
    const value: unknown = Reflect.get(client, key, client);
    return typeof value === "function" ? value.bind(client) : value;
  },
});
