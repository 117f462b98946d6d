// A consistent copy of the SQLite database, taken while the app keeps running.
//
// SQLite's online backup API copies the file page by page, each step in a read
// transaction. A write by the app between two steps makes SQLite start the copy again;
// after a few such restarts the rest is copied in one step, in one read transaction.
// The database is in WAL mode (lib/sqlite.ts), where a read transaction never holds up a
// commit: the app's writes, a run's samples among them, go on at full speed however long
// a step takes. Either way the finished copy is one point in time, which PRAGMA
// integrity_check then confirms.
//
// Plain module (no "server-only"): `npm run backup` uses it outside the app.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { ensureDataDir } from "./data-dir";

/** Pages per step: 4 MiB with SQLite's default 4 KiB pages, a few milliseconds under the lock. */
const STEP_PAGES = 1024;
/** Restarts caused by the app's writes before the copy is finished in one step. */
const MAX_RESTARTS = 3;
/** The key file beside the database (lib/secrets/keys.ts), and the two a key rotation leaves while it runs. */
const KEY_FILE_NAMES = ["secret.key", "secret.key.new", "secret.key.old"];

export type BackupOptions = {
  /** The live database file. */
  databaseFile: string;
  /** A file to create, or an existing folder to create the default-named file in; default `<database folder>/backups`. */
  destination?: string;
  /** Also copy the key file(s) that seal the SSH credentials, next to the copy. */
  withKey?: boolean;
  /** The time in the file name; tests pass a fixed one. */
  now?: Date;
};

export type BackupResult = {
  file: string;
  bytes: number;
  /** How often the app's writes made SQLite start the copy again. */
  restarts: number;
  /** The key files beside the database when the copy was made (whether or not they were copied). */
  keyFilesFound: string[];
  /** The copies of those key files, with --with-key. */
  keyFilesCopied: string[];
};

/** A backup that could not be made; the message says why and what to do. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** `wirespeed-20261130T053012Z.db`: UTC, sortable, no characters that some file systems refuse. */
export function backupFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `wirespeed-${stamp}.db`;
}

/** Where a key file's copy goes: `<copy without .db>.secret.key` (and `.new`, `.old`). */
export function keyCopyPath(backupFile: string, keyFileName: string): string {
  return `${backupFile.replace(/\.db$/, "")}.${keyFileName}`;
}

function resolveDestination(options: BackupOptions): string {
  const name = backupFileName(options.now ?? new Date());
  if (options.destination === undefined) {
    const folder = path.join(path.dirname(options.databaseFile), "backups");
    // 0700, as the data folder: the copies hold everything the database holds
    ensureDataDir(folder);
    return path.join(folder, name);
  }
  const destination = path.resolve(options.destination);
  let isFolder = false;
  try {
    isFolder = fs.statSync(destination).isDirectory();
  } catch {
    // not there yet: a file name
  }
  if (isFolder) return path.join(destination, name);
  if (/[\\/]$/.test(options.destination))
    throw new BackupError(`The folder ${destination} does not exist: create it first, or give another destination.`);
  if (!fs.existsSync(path.dirname(destination))) {
    throw new BackupError(
      `The folder ${path.dirname(destination)} does not exist: create it first, or give another destination.`,
    );
  }
  return destination;
}

function refuseExisting(file: string): void {
  if (fs.existsSync(file))
    throw new BackupError(`${file} already exists: a backup never overwrites a file. Give another destination.`);
}

/** Moves a finished file to its name without ever replacing one that appeared meanwhile. */
function publish(temporary: string, file: string): void {
  try {
    // link() fails when the name exists, atomically, where a rename would replace it
    fs.linkSync(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST")
      throw new BackupError(`${file} already exists: a backup never overwrites a file. Give another destination.`);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
    // file systems without hard links: an exclusive copy refuses an existing name too
    fs.copyFileSync(temporary, file, fs.constants.COPYFILE_EXCL);
  }
  fs.rmSync(temporary, { force: true });
}

async function copyDatabase(databaseFile: string, temporary: string): Promise<number> {
  let source: Database.Database;
  try {
    source = new Database(databaseFile, { fileMustExist: true, timeout: 10_000 });
  } catch (error) {
    throw new BackupError(
      `Cannot open the database ${databaseFile}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let restarts = 0;
  let lastRemaining = Number.POSITIVE_INFINITY;
  try {
    await source.backup(temporary, {
      progress: ({ remainingPages }) => {
        // more pages left than after the last step: a write by the app made SQLite start over
        if (remainingPages > lastRemaining) restarts += 1;
        lastRemaining = remainingPages;
        return restarts >= MAX_RESTARTS ? 0x7fffffff : STEP_PAGES;
      },
    });
  } finally {
    source.close();
  }
  return restarts;
}

function checkCopy(temporary: string): void {
  const copy = new Database(temporary, { fileMustExist: true });
  try {
    // a copy of a WAL database would otherwise need its -wal file beside it: make it one self-contained file
    copy.pragma("journal_mode = DELETE");
    const rows = copy.pragma("integrity_check") as { integrity_check: string }[];
    const findings = rows.map((row) => row.integrity_check);
    if (findings.length !== 1 || findings[0] !== "ok") {
      throw new BackupError(
        `The copy fails PRAGMA integrity_check, so the database itself may be damaged: ${findings.slice(0, 5).join("; ")}`,
      );
    }
  } finally {
    copy.close();
  }
}

export async function backupDatabase(options: BackupOptions): Promise<BackupResult> {
  if (!fs.existsSync(options.databaseFile)) {
    throw new BackupError(
      `There is no database at ${options.databaseFile}: start Wirespeed once, or set WIRESPEED_DATA_DIR or DATABASE_URL to where it is.`,
    );
  }
  const file = resolveDestination(options);
  const keyFilesFound = KEY_FILE_NAMES.map((name) => path.join(path.dirname(options.databaseFile), name)).filter(
    (keyFile) => fs.existsSync(keyFile),
  );
  const keyCopies = options.withKey
    ? keyFilesFound.map((keyFile) => ({ from: keyFile, to: keyCopyPath(file, path.basename(keyFile)) }))
    : [];
  // Every name is checked before anything is written, so a refusal leaves nothing half done.
  for (const target of [file, ...keyCopies.map((copy) => copy.to)]) refuseExisting(target);

  // Hidden temporary name in the same folder: a reader of the folder never sees a partial copy.
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.partial-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  let restarts: number;
  try {
    restarts = await copyDatabase(options.databaseFile, temporary);
    checkCopy(temporary);
    fs.chmodSync(temporary, 0o600);
    publish(temporary, file);
  } finally {
    for (const leftover of [temporary, `${temporary}-journal`, `${temporary}-wal`, `${temporary}-shm`])
      fs.rmSync(leftover, { force: true });
  }

  const keyFilesCopied: string[] = [];
  for (const copy of keyCopies) {
    fs.copyFileSync(copy.from, copy.to, fs.constants.COPYFILE_EXCL);
    // the app refuses a key file that others may read: keep the copy as private as the original
    fs.chmodSync(copy.to, 0o600);
    keyFilesCopied.push(copy.to);
  }
  return { file, bytes: fs.statSync(file).size, restarts, keyFilesFound, keyFilesCopied };
}
