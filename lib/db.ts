import "server-only";
import { getApp } from "@/lib/running-app";
import { resolveDatabaseUrl } from "@/lib/config";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createSqliteAdapter } from "@/lib/sqlite";

/** A client on `url` (default: DATABASE_URL, or the SQLite file in the data folder). */
export function createDatabaseClient(url: string = resolveDatabaseUrl()): PrismaClient {
  // WAL, synchronous NORMAL and a busy timeout on the connection; a private file (lib/sqlite.ts)
  const adapter = createSqliteAdapter(url);
  // Credentials never leave the database by accident: a query that needs them asks with `omit: { secret: false }`.
  return new PrismaClient({ adapter, omit: { host: { secret: true }, notificationChannel: { secret: true } } });
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
