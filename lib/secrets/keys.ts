// Where the key that seals host credentials comes from.
//
//   WIRESPEED_SECRET set      the key is derived from it (scrypt, see envelope.ts); at least
//                             32 characters. WIRESPEED_SECRET_OLD, when also set, is accepted
//                             for opening (the value before a rotation).
//   otherwise                 <folder of the database>/secret.key: 32 random bytes in base64,
//                             created with mode 0600 on first start, refused when other users
//                             may read it or when it is not a key.
//
// secret.key.new and secret.key.old exist only while `rotate-secret` runs (or after it was
// interrupted); their keys are accepted for opening so that the app reads every secret in
// any state an interrupted rotation can leave (see rotate.ts).
//
// Plain module (no "server-only"): the wirespeed command line uses it too.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { resolveStateDir, type ConfigEnv } from "../config";
import { ensureDataDir } from "../data-dir";
import {
  type Keyring,
  type SecretKey,
  generateSecretKey,
  secretKeyFromBytes,
  secretKeyFromPassphrase,
} from "./envelope";

export const MIN_SECRET_LENGTH = 32;
export const KEY_FILE_NAME = "secret.key";

/** A configuration problem with the key; the message names the variable or file and the fix. */
export class SecretKeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyConfigError";
  }
}

export type KeyFilePaths = { current: string; next: string; old: string };

/** The key file lives beside the database, in the data folder: `<data dir>/secret.key`. */
export function resolveKeyFilePaths(env: ConfigEnv = process.env): KeyFilePaths {
  // turbopackIgnore: a run-time path, not a file the server bundle should trace.
  const current = path.join(/*turbopackIgnore: true*/ resolveStateDir(env), KEY_FILE_NAME);
  return { current, next: `${current}.new`, old: `${current}.old` };
}

/** The key a WIRESPEED_SECRET-like variable stands for; `name` is the variable, for the message. */
export function keyFromVariable(name: string, value: string): SecretKey {
  if ([...value].length < MIN_SECRET_LENGTH) {
    throw new SecretKeyConfigError(
      `${name} is too short: it must be at least ${MIN_SECRET_LENGTH} characters (for example the output of \`openssl rand -base64 32\`), ` +
        `or unset WIRESPEED_SECRET to use the key file in the data folder.`,
    );
  }
  return secretKeyFromPassphrase(value);
}

function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/** Reads and checks a key file: a regular file, mode 0600 or narrower, 32 bytes in base64. */
export function readKeyFile(file: string): SecretKey {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new SecretKeyConfigError(
      `cannot read the key file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
  }
  if (!stat.isFile()) throw new SecretKeyConfigError(`the key file ${file} is not a regular file`);
  // Any bit beyond 0600 (group, others, execute) is refused: the key opens every host's credentials.
  if ((stat.mode & 0o777 & ~0o600) !== 0) {
    throw new SecretKeyConfigError(
      `the key file ${file} has mode ${modeText(stat.mode)}, wider than 0600: Wirespeed only uses a key file that nobody but its owner can read. ` +
        `Run \`chmod 600 ${file}\` (and check who could have read it).`,
    );
  }
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new SecretKeyConfigError(
      `cannot read the key file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
  }
  // Strict base64 of exactly 32 bytes: 43 characters and one "=". The content is never quoted.
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    throw new SecretKeyConfigError(
      `the key file ${file} is malformed: it must hold one line, 32 random bytes in base64 (44 characters). ` +
        `Restore it from a backup; a new key cannot open the secrets sealed with the lost one.`,
    );
  }
  return secretKeyFromBytes(Buffer.from(text, "base64"));
}

function fsyncDirectory(dir: string): void {
  // Makes a rename or link durable; some file systems refuse fsync on a folder, which is fine.
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes `key` to `file` as a complete, fsynced file of mode 0600 that appears at once
 * (temporary file, then link). Returns false, writing nothing, when `file` already exists.
 */
export function writeKeyFileExclusive(file: string, key: SecretKey): boolean {
  const dir = path.dirname(file);
  ensureDataDir(dir); // 0700 when it is made here
  const temporary = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const fd = fs.openSync(temporary, "wx", 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // whatever the umask
    fs.writeSync(fd, `${key.key.toString("base64")}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // link() never replaces: of two processes starting at once, one key wins and both use it.
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
    fsyncDirectory(dir);
  }
}

/** Atomically makes `to` the file `from` is (rename), durably. */
export function replaceKeyFile(from: string, to: string): void {
  fs.renameSync(from, to);
  fsyncDirectory(path.dirname(to));
}

/** Gives `file` a second name `alias` (a hard link), durably; nothing when `alias` exists. */
export function linkKeyFile(file: string, alias: string): void {
  try {
    fs.linkSync(file, alias);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  fsyncDirectory(path.dirname(alias));
}

export function removeKeyFile(file: string): void {
  fs.rmSync(file, { force: true });
  fsyncDirectory(path.dirname(file));
}

/** The key file's key, creating the file (32 random bytes, mode 0600) when there is none. */
export function readOrCreateKeyFile(file: string): { key: SecretKey; isCreated: boolean } {
  if (!fs.existsSync(file)) {
    const key = generateSecretKey();
    if (writeKeyFileExclusive(file, key)) return { key, isCreated: true };
  }
  return { key: readKeyFile(file), isCreated: false };
}

export type KeySource =
  { kind: "variable" } | { kind: "file"; paths: KeyFilePaths; isCreated: boolean; hasInterruptedRotation: boolean };

export type LoadedKeys = { keyring: Keyring; source: KeySource };

function uniqueKeys(keys: SecretKey[]): SecretKey[] {
  return keys.filter((key, index) => keys.findIndex((other) => other.id === key.id) === index);
}

/**
 * The keyring this process seals and opens with. Throws SecretKeyConfigError (naming the
 * variable or file) when WIRESPEED_SECRET is too short or a key file is unsafe or malformed.
 */
export function loadKeys(env: ConfigEnv = process.env): LoadedKeys {
  if (env.WIRESPEED_SECRET) {
    const current = keyFromVariable("WIRESPEED_SECRET", env.WIRESPEED_SECRET);
    const previous = env.WIRESPEED_SECRET_OLD
      ? [keyFromVariable("WIRESPEED_SECRET_OLD", env.WIRESPEED_SECRET_OLD)]
      : [];
    return { keyring: { current, all: uniqueKeys([current, ...previous]) }, source: { kind: "variable" } };
  }
  const paths = resolveKeyFilePaths(env);
  const { key: current, isCreated } = readOrCreateKeyFile(paths.current);
  const leftovers = [paths.next, paths.old]
    .filter((file) => fs.existsSync(/*turbopackIgnore: true*/ file))
    .map(readKeyFile);
  return {
    keyring: { current, all: uniqueKeys([current, ...leftovers]) },
    source: { kind: "file", paths, isCreated, hasInterruptedRotation: leftovers.length > 0 },
  };
}
