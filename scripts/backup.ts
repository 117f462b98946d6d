// `npm run backup -- [DESTINATION] [--with-key]`: a consistent copy of the database while the app runs.
// DESTINATION is a new file or an existing folder; default <data dir>/backups/wirespeed-<UTC time>.db.
import type { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { backupDatabase } from "../lib/backup";
import { resolveDatabase, resolveDatabaseFile, type ConfigEnv } from "../lib/config";

/** The configured database, or null when DATABASE_URL is malformed (resolveDatabaseFile then says why). */
function resolveDatabaseSafely(env: ConfigEnv) {
  try {
    return resolveDatabase(env);
  } catch {
    return null;
  }
}

export type BackupIo = { stdout: Writable; stderr: Writable };

const USAGE = `usage: npm run backup -- [DESTINATION] [--with-key]

  DESTINATION   a new file, or an existing folder (default: backups/ beside the database)
  --with-key    also copy the key file that encrypts the SSH credentials (secret.key), mode 0600
`;

function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export async function runBackup(
  args: string[],
  io: BackupIo,
  env: ConfigEnv = process.env,
  now?: Date,
): Promise<number> {
  let destination: string | undefined;
  let withKey = false;
  for (const arg of args) {
    if (arg === "--help" || arg === "-h") {
      io.stdout.write(USAGE);
      return 0;
    }
    if (arg === "--with-key") withKey = true;
    else if (destination === undefined && arg !== "" && !arg.startsWith("-")) destination = arg;
    else {
      io.stderr.write(`backup: unexpected argument "${arg}"\n\n${USAGE}`);
      return 2;
    }
  }

  // A Postgres database is backed up with Postgres's own tool; the key goes with it as for SQLite.
  const database = resolveDatabaseSafely(env);
  if (database?.kind === "postgres") {
    io.stderr.write(
      `backup: DATABASE_URL names a Postgres server (${database.host}:${database.port}, database ${database.database}): ` +
        `back it up with pg_dump, e.g.\n  pg_dump --format=custom --file=wirespeed-$(date -u +%Y%m%dT%H%M%SZ).dump "$DATABASE_URL"\n` +
        "and keep WIRESPEED_SECRET (or the key file secret.key in the data folder) with the dump: without it the SSH credentials in it cannot be read\n",
    );
    return 1;
  }

  let result;
  try {
    result = await backupDatabase({ databaseFile: resolveDatabaseFile(env), destination, withKey, now });
  } catch (error) {
    io.stderr.write(`backup: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  io.stdout.write(`${result.file}\n${formatBytes(result.bytes)} (${result.bytes} bytes), integrity_check ok\n`);
  for (const keyFile of result.keyFilesCopied)
    io.stdout.write(
      `key file copied to ${keyFile} (mode 0600): whoever has it and the copy can read the SSH credentials\n`,
    );

  // The credentials in the copy are sealed: say what opens them, never the key itself.
  if (withKey && result.keyFilesFound.length === 0) io.stdout.write("no key file beside the database to copy\n");
  if (env.WIRESPEED_SECRET) {
    io.stdout.write(
      "the SSH credentials in the copy are encrypted with WIRESPEED_SECRET: keep that value, the copy cannot be read without it\n",
    );
  } else if (!withKey && result.keyFilesFound.length > 0) {
    io.stdout.write(
      `the SSH credentials in the copy are encrypted with the key file ${result.keyFilesFound[0]}: ` +
        `keep a copy of it apart from the backups (or run again with --with-key)\n`,
    );
  }
  return 0;
}

// run only when started as a script, not when a test imports it
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBackup(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`backup: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
