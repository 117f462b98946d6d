import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { resolveDatabase } from "./lib/config";
import { ensureDataDir } from "./lib/data-dir";
import { createSqliteAdapter } from "./lib/sqlite";

// No usage reports to Prisma's servers (lab servers are often offline; CI has no network).
process.env.CHECKPOINT_DISABLE = "1";

// DATABASE_URL selects the database the one way the app does (lib/config.ts): a postgres:// URL, the
// Postgres schema and its migrations; else the SQLite file, with the app's own connection settings
// (the migrations create the file 0600 and switch it to WAL). Both through the JS schema engine and a
// driver adapter: the Prisma CLI then needs no native engine, so nothing is downloaded.
const database = resolveDatabase();
process.env.DATABASE_URL = database.url;
// SQLite creates the file but not its folder: the first `migrate deploy` on a fresh clone makes ./data, mode 0700.
if (database.kind === "sqlite") ensureDataDir(path.dirname(database.file));
const folder = database.kind === "postgres" ? path.join("prisma", "postgres") : "prisma";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(folder, "schema.prisma"),
  migrations: { path: path.join(folder, "migrations") },
  adapter: async () =>
    database.kind === "postgres" ? new PrismaPg({ connectionString: database.url }) : createSqliteAdapter(database.url),
});
