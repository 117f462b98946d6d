import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { resolveDatabaseUrl } from "@/lib/config";

// One client per process; outside production it is kept on globalThis so that
// hot reloads do not open a new SQLite connection each time.
const globalForPrisma = globalThis as unknown as { wirespeedPrisma?: PrismaClient };

function createPrismaClient(): PrismaClient {
  const adapter = new PrismaBetterSQLite3({ url: resolveDatabaseUrl() });
  // Credentials never leave the database by accident: a query that needs them asks with `omit: { secret: false }`.
  return new PrismaClient({ adapter, omit: { host: { secret: true }, notificationChannel: { secret: true } } });
}

export const db = globalForPrisma.wirespeedPrisma ?? createPrismaClient();

if (process.env.NODE_ENV !== "production") globalForPrisma.wirespeedPrisma = db;
