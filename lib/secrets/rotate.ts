// Key rotation: every Host.secret re-sealed under a new key in one transaction.
//
// With the key file (WIRESPEED_SECRET unset), in this order, so that a crash at any point
// leaves every key a stored secret may be sealed with on disk under a name the app reads
// (secret.key, secret.key.new, secret.key.old), and running the command again finishes:
//   1. the new key is written to secret.key.new (temporary file of mode 0600, fsync, link);
//      an interrupted rotation's secret.key.new is reused instead
//   2. secret.key gets a second name, secret.key.old
//   3. one transaction re-seals every secret (opened with any of those keys) under the new key
//   4. secret.key.new is renamed over secret.key (atomic)
//   5. VACUUM, so that no free page keeps a secret sealed under the old key
//   6. secret.key.old is removed
// A crash before 3 commits leaves the secrets under the old key (still secret.key); after
// it, under the new one (secret.key.new until 4 renames it). Either way the app opens them.
//
// With WIRESPEED_SECRET: the new key comes from WIRESPEED_SECRET and the old one from
// WIRESPEED_SECRET_OLD (and from a key file in the data folder, if one is there: moving from
// the key file to the variable is a rotation too). Only the database changes.
//
// The app must be stopped while this runs: a running server keeps the key it started with.
import { SHARED_KEY_SETTING } from "./shared-key-setting";
import fs from "node:fs";
import type { PrismaClient } from "../generated/prisma/client";
import type { ConfigEnv } from "../config";
import { type SecretKey, generateSecretKey } from "./envelope";
import {
  SecretKeyConfigError,
  keyFromVariable,
  linkKeyFile,
  readKeyFile,
  readOrCreateKeyFile,
  removeKeyFile,
  replaceKeyFile,
  resolveKeyFilePaths,
  writeKeyFileExclusive,
} from "./keys";
import { resealHostSecrets, scrubFreedPages } from "./reseal";

export type RotateResult = { resealed: number; keyId: string; notes: string[] };

function uniqueKeys(keys: SecretKey[]): SecretKey[] {
  return keys.filter((key, index) => keys.findIndex((other) => other.id === key.id) === index);
}

export async function rotateSecretKey(client: PrismaClient, env: ConfigEnv = process.env): Promise<RotateResult> {
  const result = env.WIRESPEED_SECRET
    ? await rotateVariableKey(client, env, env.WIRESPEED_SECRET)
    : await rotateKeyFile(client, env);
  // The key id every instance must now hold (lib/instances/shared-key.ts): an instance still on the old key refuses to start.
  await client.setting.upsert({
    where: { key: SHARED_KEY_SETTING },
    create: { key: SHARED_KEY_SETTING, value: result.keyId },
    update: { value: result.keyId },
  });
  return result;
}

async function rotateVariableKey(client: PrismaClient, env: ConfigEnv, secret: string): Promise<RotateResult> {
  const target = keyFromVariable("WIRESPEED_SECRET", secret);
  const paths = resolveKeyFilePaths(env);
  const keyFiles = [paths.current, paths.next, paths.old].filter((file) => fs.existsSync(file));
  if (!env.WIRESPEED_SECRET_OLD && keyFiles.length === 0) {
    throw new SecretKeyConfigError(
      "rotate-secret with WIRESPEED_SECRET set re-encrypts from the old value to the new one: " +
        "set WIRESPEED_SECRET_OLD to the value the secrets are sealed with now and WIRESPEED_SECRET to the new value.",
    );
  }
  const previous = env.WIRESPEED_SECRET_OLD
    ? keyFromVariable("WIRESPEED_SECRET_OLD", env.WIRESPEED_SECRET_OLD)
    : undefined;
  if (previous?.id === target.id) {
    throw new SecretKeyConfigError(
      "WIRESPEED_SECRET_OLD and WIRESPEED_SECRET are the same: set WIRESPEED_SECRET to the new value.",
    );
  }
  const fileKeys = keyFiles.map(readKeyFile);
  const keyring = { current: target, all: uniqueKeys([target, ...(previous ? [previous] : []), ...fileKeys]) };
  const { resealed } = await resealHostSecrets(client, { keyring, target, onUnreadable: "abort" });
  await scrubFreedPages(client);
  const notes = ["Start Wirespeed with the new WIRESPEED_SECRET, and without WIRESPEED_SECRET_OLD."];
  if (keyFiles.length > 0)
    notes.push(`The key file is no longer used while WIRESPEED_SECRET is set: delete ${keyFiles.join(", ")}.`);
  return { resealed, keyId: target.id, notes };
}

async function rotateKeyFile(client: PrismaClient, env: ConfigEnv): Promise<RotateResult> {
  const paths = resolveKeyFilePaths(env);
  const { key: current } = readOrCreateKeyFile(paths.current);
  const old = fs.existsSync(paths.old) ? readKeyFile(paths.old) : undefined;
  // 1. the new key on disk before any secret is sealed with it
  let target: SecretKey;
  let isNextCreated = false;
  if (fs.existsSync(paths.next)) {
    target = readKeyFile(paths.next);
  } else {
    target = generateSecretKey();
    isNextCreated = writeKeyFileExclusive(paths.next, target);
    if (!isNextCreated) target = readKeyFile(paths.next);
  }
  // 2. the key being replaced keeps a name until the rotation is done
  const isOldCreated = !old;
  linkKeyFile(paths.current, paths.old);
  const keyring = { current: target, all: uniqueKeys([target, current, ...(old ? [old] : [])]) };
  let resealed: number;
  try {
    // 3.
    ({ resealed } = await resealHostSecrets(client, { keyring, target, onUnreadable: "abort" }));
  } catch (error) {
    // Nothing was committed: undo only what this run made (a reused secret.key.new may hold the key of secrets already re-sealed).
    if (isNextCreated) removeKeyFile(paths.next);
    if (isOldCreated) removeKeyFile(paths.old);
    throw error;
  }
  replaceKeyFile(paths.next, paths.current); // 4.
  await scrubFreedPages(client); // 5.
  removeKeyFile(paths.old); // 6.
  return { resealed, keyId: target.id, notes: [`The new key is in ${paths.current}; back it up with the database.`] };
}
