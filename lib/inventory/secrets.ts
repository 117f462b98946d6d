import "server-only";
import { db } from "@/lib/db";
import { type Keyring, envelopeKeyId, envelopeKind, openText, sealText } from "@/lib/secrets/envelope";
import { type LoadedKeys, SecretKeyConfigError, loadKeys } from "@/lib/secrets/keys";
import { resealHostSecrets, scrubFreedPages } from "@/lib/secrets/reseal";

/**
 * The one place that knows how a host's credential is stored in `Host.secret`: AES-256-GCM
 * under the key of lib/secrets/keys.ts (WIRESPEED_SECRET, or the key file in the data
 * folder), in the format described in lib/secrets/envelope.ts. Plain JSON written by older
 * versions is still read, and re-sealed once at start by `prepareHostSecrets`.
 *
 * The secret is not bound to its host id: a new host's secret is sealed before the row (and
 * its id) exists, and whoever can swap two rows' secrets can also change a host's address.
 *
 * Neither function puts the value in an error message: a secret that cannot be opened
 * reports why (another key, altered bytes, unknown format) and nothing else.
 */

let loaded: LoadedKeys | undefined;

// Loaded once per process; a running server does not see a rotation (stop it first).
function keys(): LoadedKeys {
  loaded ??= loadKeys(process.env);
  return loaded;
}

function keyring(): Keyring {
  return keys().keyring;
}

/** The id of the key new secrets are sealed with, and of every key this instance can open (lib/instances/shared-key.ts). */
export function sealingKeyIds(): { current: string; all: string[] } {
  const ring = keyring();
  return { current: ring.current.id, all: ring.all.map((key) => key.id) };
}

export function sealSecret(value: object): Uint8Array<ArrayBuffer> {
  return sealText(JSON.stringify(value), keyring().current);
}

export function openSecret(bytes: Uint8Array): object {
  const text = openText(bytes, keyring());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("The stored host secret cannot be read: it is not valid JSON; set the host's credentials again.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      "The stored host secret cannot be read: it is not a credential object; set the host's credentials again.",
    );
  }
  return value;
}

export type PreparedSecrets = { migrated: number; messages: string[] };

/**
 * At start, before serving: loads the key (a short WIRESPEED_SECRET or an unsafe key file
 * throws here, so the server refuses to start), re-seals the plain-JSON secrets an older
 * version stored and scrubs their old pages from the file, and reports secrets sealed
 * under a key this server does not have.
 */
export async function prepareHostSecrets(): Promise<PreparedSecrets> {
  const { keyring: ring, source } = keys();
  const messages: string[] = [];
  if (source.kind === "file" && source.isCreated)
    messages.push(`created the key file ${source.paths.current} (mode 0600): back it up with the database`);
  if (source.kind === "file" && source.hasInterruptedRotation) {
    messages.push(
      "a key rotation was interrupted: stop Wirespeed and run `npm run --silent wirespeed -- rotate-secret` again to finish it",
    );
  }
  const rows = await db.host.findMany({ where: { secret: { not: null } }, select: { id: true, secret: true } });
  const hasLegacy = rows.some((row) => envelopeKind(row.secret!) === "legacy-json");
  let migrated = 0;
  if (hasLegacy) {
    const result = await resealHostSecrets(db, {
      keyring: ring,
      target: ring.current,
      isLegacyOnly: true,
      onUnreadable: "skip",
    });
    migrated = result.resealed;
    await scrubFreedPages(db);
    messages.push(`encrypted ${migrated} host secret(s) stored in clear by an older version`);
    for (const problem of result.unreadable)
      messages.push(`host "${problem.hostName}" (id ${problem.hostId}): ${problem.reason}`);
  }
  const known = new Set(ring.all.map((key) => key.id));
  const foreign = rows.filter((row) => {
    const id = envelopeKeyId(row.secret!);
    return id !== null && !known.has(id);
  });
  if (foreign.length > 0) {
    messages.push(
      `${foreign.length} host secret(s) were sealed with another key than this server's (key id ${ring.current.id}): ` +
        "start Wirespeed with the WIRESPEED_SECRET or secret.key they were sealed with, or set those hosts' credentials again",
    );
  }
  return { migrated, messages };
}

/** `prepareHostSecrets` for instrumentation.ts: logs what it did; an unusable key ends the process, naming the variable or file. */
export async function startHostSecrets(): Promise<void> {
  try {
    const { messages } = await prepareHostSecrets();
    for (const message of messages) console.log(`[wirespeed] ${message}`);
  } catch (error) {
    if (!(error instanceof SecretKeyConfigError)) throw error;
    console.error(`[wirespeed] cannot start: ${error.message}`);
    process.exit(1);
  }
}
