import path from "node:path";
import { defineConfig } from "prisma/config";
import { resolveDatabaseFile, resolveDatabaseUrl } from "./lib/config";
import { ensureDataDir } from "./lib/data-dir";
import { createSqliteAdapter } from "./lib/sqlite";

// schema.prisma reads DATABASE_URL: resolve it the one way the app does.
process.env.DATABASE_URL = resolveDatabaseUrl();
// SQLite creates the file but not its folder: the first `migrate deploy` on a fresh clone makes ./data, mode 0700.
ensureDataDir(path.dirname(resolveDatabaseFile()));
// No usage reports to Prisma's servers (lab servers are often offline; CI has no network).
process.env.CHECKPOINT_DISABLE = "1";

// The JS schema engine with the better-sqlite3 adapter: the Prisma CLI then needs
// no native engine, so nothing is downloaded (air-gapped lab servers work too).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  // the app's own connection settings: the migrations create the file 0600 and switch it to WAL
  adapter: async () => createSqliteAdapter(process.env.DATABASE_URL!),
});
