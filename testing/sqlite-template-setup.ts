/**
 * globalSetup of the vitest projects: one migrated SQLite file for the whole run, which
 * createTestDatabase (testing/database.ts) copies for each test file instead of running the Prisma
 * CLI's migration again (seconds each on a busy 2-core machine, for some hundred databases).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SQLITE_TEMPLATE_ENV, migrateSqliteFile } from "./database";

let dir: string | null = null;

/** Migrates a file in a folder of its own and returns its path: a single file, with no -wal or -shm beside it. */
export function createSqliteTemplate(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-template-"));
  const file = path.join(dir, "wirespeed.db");
  migrateSqliteFile(file);
  // The migrations leave the file in WAL mode: the last connection's close checkpoints the log into
  // the file and removes it, so that a copy of the one file holds every table.
  new Database(file).close();
  for (const suffix of ["-wal", "-shm"]) {
    if (fs.existsSync(file + suffix)) throw new Error(`the SQLite template kept ${path.basename(file + suffix)}`);
  }
  return file;
}

export function setup(): void {
  process.env[SQLITE_TEMPLATE_ENV] = createSqliteTemplate();
}

export function teardown(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
}
