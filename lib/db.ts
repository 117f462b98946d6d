import "server-only";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { resolveDatabaseUrl } from "@/lib/config";
import { createSqliteAdapter } from "@/lib/sqlite";

// One client per process; outside production it is kept on globalThis so that
// hot reloads do not open a new SQLite connection each time.
const globalForPrisma = globalThis as unknown as { wirespeedPrisma?: PrismaClient };

function createPrismaClient(): PrismaClient {
  // WAL, synchronous NORMAL and a busy timeout on the connection; a private file (lib/sqlite.ts)
  const adapter = createSqliteAdapter(resolveDatabaseUrl());
  // Credentials never leave the database by accident: a query that needs them asks with `omit: { secret: false }`.
  return new PrismaClient({ adapter, omit: { host: { secret: true }, notificationChannel: { secret: true } } });
}

export const db = globalForPrisma.wirespeedPrisma ?? createPrismaClient();

if (process.env.NODE_ENV !== "production") globalForPrisma.wirespeedPrisma = db;
