// File modes of what Wirespeed keeps on disk. The data folder holds the database, its backups
// and the key file that opens the stored SSH credentials: the folder is created 0700, the
// database 0600 before SQLite first opens it, so that the -wal and -shm files SQLite makes
// beside it (which take the database file's mode) are 0600 from their first byte.
//
// An existing folder's mode is never changed: it may be a Docker volume or a share whose mode
// its owner set for a reason (a backup user's group, say), and the files in it are 0600 anyway.
// A folder that others can read or enter gets a warning at start instead, with the fix.
// The database files themselves are Wirespeed's own: they are narrowed to 0600 when wider (a
// restored copy made with `cp` has the umask's 0644), and that is said once in the log.
//
// Plain module (no "server-only"): prisma.config.ts and the scripts use it too. Every path here is
// the data folder's, known at run time: turbopackIgnore keeps the build from tracing it.
import fs from "node:fs";
import path from "node:path";
import { resolveStateDir, type ConfigEnv } from "./config";

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;
/** Group and others: any of these bits on the folder or a file lets another user in. */
const OTHERS_BITS = 0o077;

export function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

/**
 * Creates the data folder with mode 0700 (whatever the umask) when it is missing, with any
 * missing parent as private; returns whether it was created. An existing folder is left as it is.
 */
export function ensureDataDir(dir: string): boolean {
  // One level at a time, not mkdirSync's `recursive`: that loops for ever where mkdir answers
  // ENOENT under a parent that exists (a path under /proc), and the server would hang, not fail.
  if (fs.existsSync(/*turbopackIgnore: true*/ dir)) return false;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureDataDir(parent);
  try {
    fs.mkdirSync(/*turbopackIgnore: true*/ dir, { mode: DATA_DIR_MODE });
  } catch (error) {
    // made meanwhile by another process (the migrations, a second server)
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  // mkdir's mode passes through the umask; a umask wider than 022 must not loosen it either way
  fs.chmodSync(/*turbopackIgnore: true*/ dir, DATA_DIR_MODE);
  return true;
}

/** The database file and the files SQLite keeps beside it while it runs. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

export type PreparedDatabaseFile = {
  isCreated: boolean;
  /** Files found wider than 0600 and narrowed to it, with the mode they had. */
  narrowed: Array<{ file: string; mode: number }>;
  /** Files wider than 0600 that could not be narrowed (another owner's), with their mode. */
  left: Array<{ file: string; mode: number }>;
};

/**
 * Before SQLite opens `file`: its folder made (0700) when missing, the file created empty with
 * mode 0600 when missing (SQLite reads an empty file as an empty database), and the database
 * files already there narrowed to 0600 when group or others had any access.
 */
export function prepareDatabaseFile(file: string): PreparedDatabaseFile {
  ensureDataDir(path.dirname(/*turbopackIgnore: true*/ file));
  let isCreated = false;
  try {
    const fd = fs.openSync(/*turbopackIgnore: true*/ file, "wx", DATA_FILE_MODE);
    try {
      fs.fchmodSync(fd, DATA_FILE_MODE);
    } finally {
      fs.closeSync(fd);
    }
    isCreated = true;
  } catch (error) {
    // another process (the migrations, a second server) made it first: narrowed below like any other
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const narrowed: PreparedDatabaseFile["narrowed"] = [];
  const left: PreparedDatabaseFile["left"] = [];
  for (const candidate of databaseFiles(file)) {
    let mode: number;
    try {
      mode = fs.statSync(/*turbopackIgnore: true*/ candidate).mode;
    } catch {
      continue;
    }
    if ((mode & OTHERS_BITS) === 0) continue;
    try {
      fs.chmodSync(/*turbopackIgnore: true*/ candidate, DATA_FILE_MODE);
      narrowed.push({ file: candidate, mode: mode & 0o777 });
    } catch {
      // another owner's file: said in the log, the database still opens
      left.push({ file: candidate, mode: mode & 0o777 });
    }
  }
  return { isCreated, narrowed, left };
}

/** The log lines for what `prepareDatabaseFile` narrowed or could not. */
export function preparedMessages({ narrowed, left }: PreparedDatabaseFile): string[] {
  return [
    ...narrowed.map(
      ({ file, mode }) =>
        `${file} had mode ${modeText(mode)}: narrowed to 0600, as the database and its -wal and -shm files are kept`,
    ),
    ...left.map(
      ({ file, mode }) =>
        `warning: ${file} has mode ${modeText(mode)} and could not be narrowed to 0600: run \`chmod 600 ${file}\` as its owner`,
    ),
  ];
}

/**
 * The warning for a data folder (the database's folder, where the key file and backups/ live too)
 * that group or others can read or enter: one line naming it, its mode and the command that
 * fixes it; none when it is private or not there yet.
 */
export function checkDataDir(env: ConfigEnv = process.env): string[] {
  const dir = resolveStateDir(env);
  let mode: number;
  try {
    mode = fs.statSync(/*turbopackIgnore: true*/ dir).mode;
  } catch {
    return [];
  }
  if ((mode & OTHERS_BITS) === 0) return [];
  return [
    `warning: the data folder ${dir} has mode ${modeText(mode)}: other users of this machine can look into it (the database, its backups, the key file). ` +
      `Wirespeed leaves an existing folder's mode as it is; run \`chmod 700 ${dir}\` to keep it private.`,
  ];
}

/** `checkDataDir` for the server's start: each warning on one line of the log. */
export function warnAboutDataDir(env: ConfigEnv = process.env): void {
  for (const warning of checkDataDir(env)) console.warn(`[wirespeed] ${warning}`);
}
