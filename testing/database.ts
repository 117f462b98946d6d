import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { LAB_POSTGRES_ENV, TEST_POSTGRES_ENV } from "./postgres/template";

type Db = typeof import("@/lib/db").db;

const ROOT = path.resolve(__dirname, "..");

/** A migrated SQLite file the test projects copy (testing/sqlite-template-setup.ts sets it before the first file). */
export const SQLITE_TEMPLATE_ENV = "WIRESPEED_TEST_SQLITE_TEMPLATE";

/** `prisma migrate deploy` on a SQLite file, as `npm start` migrates a fresh install. */
export function migrateSqliteFile(file: string): void {
  execFileSync(path.join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
}

/**
 * A real, migrated SQLite file in a temporary folder, with no client opened on it: for code that
 * brings its own (scripts, backups, benchmarks). Tests of app code use `openTestDatabase`. In the
 * test projects it is a copy of the template migrated once per run (a migration is a Prisma CLI
 * process: seconds each on a busy 2-core machine, for every file); elsewhere it is migrated here.
 */
export function createTestDatabase(): { dataDir: string; url: string; remove: () => void } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-test-"));
  const file = path.join(dataDir, "wirespeed.db");
  const template = process.env[SQLITE_TEMPLATE_ENV];
  // copyFile keeps the template's mode (0600, as the migration creates it)
  if (template) fs.copyFileSync(template, file);
  else migrateSqliteFile(file);
  return { dataDir, url: `file:${file}`, remove: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Builds an app (lib/app.ts) on `url`, with the SSH agents as its remote, and makes it the running
 * one: every module of lib/, imported before or after, reads and writes this database, and
 * `getApp()` answers its services. DATABASE_URL is set too, for child processes.
 */
export async function connectAppDatabase(url: string): Promise<Db> {
  // Loaded here, not at the top: benchmarks and scripts import createTestDatabase from this file
  // without the app's server-only modules.
  const [{ createApp, installApp }, { createDatabaseClient }, { agentRunRemote }] = await Promise.all([
    import("@/lib/app"),
    import("@/lib/db"),
    import("@/lib/runs/remote-agents"),
  ]);
  process.env.DATABASE_URL = url;
  const client = createDatabaseClient(url);
  installApp(createApp({ db: client, remote: agentRunRemote }));
  return client;
}

export type TestDatabase = {
  /** The app's client (`@/lib/db`), on this database. */
  db: Db;
  /** `file:` URL of the SQLite file, for a child process or a second client. */
  url: string;
  /** The temporary folder holding the file (WIRESPEED_DATA_DIR for code that wants one). */
  dataDir: string;
  /** Empties every table (ids start again at 1); the schema stays. */
  reset: () => Promise<void>;
  /** Disconnects the client and removes the folder. */
  close: () => Promise<void>;
};

/**
 * A migrated database for one test file, with an app (lib/app.ts) on it: the modules under test,
 * imported statically, read and write it, and `getApp()` gives its services.
 *
 *   import { SampleWriter } from "@/lib/runs/samples";
 *   const database = await openTestDatabase();
 *   afterEach(() => database.reset());
 *   afterAll(() => database.close());
 */
export async function openTestDatabase({ postgres = false }: { postgres?: boolean } = {}): Promise<TestDatabase> {
  // In the `postgres` project every file is on Postgres; elsewhere a file asks for it (the lab's instances test).
  const postgresAdmin = process.env[TEST_POSTGRES_ENV] ?? (postgres ? requireLabPostgres() : undefined);
  if (postgresAdmin) return openPostgresTestDatabase(postgresAdmin);
  const file = createTestDatabase();
  const db = await connectAppDatabase(file.url);
  return {
    db,
    url: file.url,
    dataDir: file.dataDir,
    async reset() {
      const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name <> '_prisma_migrations'`,
      );
      const names = rows.map((row) => row.name);
      // sqlite_sequence holds the last id of each table: emptied too, so ids start again at 1.
      const tables = names.filter((name) => !name.startsWith("sqlite_") || name === "sqlite_sequence");
      // Foreign keys are checked at commit, so the order of the deletes does not matter.
      await db.$transaction([
        db.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON"),
        ...tables.map((name) => db.$executeRawUnsafe(`DELETE FROM "${name}"`)),
      ]);
    },
    async close() {
      await db.$disconnect();
      file.remove();
    },
  };
}

function requireLabPostgres(): string {
  const url = process.env[LAB_POSTGRES_ENV];
  if (!url)
    throw new Error(`no Postgres cluster for this test: ${LAB_POSTGRES_ENV} is set by the lab project's global setup`);
  return url;
}

/**
 * The same on Postgres, in the `postgres` test projects (WIRESPEED_TEST_POSTGRES_URL, set by
 * testing/postgres/vitest-global-setup.ts): a database of its own on the throwaway cluster, copied
 * from the migrated template; `dataDir` is a temporary folder for the key file and backups.
 */
async function openPostgresTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const { createPostgresDatabase } = await import("./postgres/template");
  const database = await createPostgresDatabase(adminUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-test-"));
  const db = await connectAppDatabase(database.url);
  return {
    db,
    url: database.url,
    dataDir,
    async reset() {
      const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
        `SELECT tablename::text AS "name" FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
      );
      // ids start again at 1, as on SQLite
      await db.$executeRawUnsafe(`TRUNCATE ${rows.map((row) => `"${row.name}"`).join(", ")} RESTART IDENTITY CASCADE`);
    },
    async close() {
      await db.$disconnect();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
