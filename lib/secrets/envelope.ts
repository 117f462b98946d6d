// The sealed format of a host credential in `Host.secret`: AES-256-GCM.
//
//   byte 0        version, 0x01
//   bytes 1-8     key id: the first 8 bytes of SHA-256 of the 32-byte key
//   bytes 9-20    nonce: 12 random bytes, new for every seal
//   bytes 21..-16 ciphertext of the UTF-8 JSON text
//   last 16       GCM tag
//
// Bytes 0-8 (version and key id) are the additional authenticated data, so changing
// either is caught by the tag. Databases written before encryption hold the plain JSON
// text, which always starts with "{" (0x7b); a version byte is never 0x7b, so the two
// cannot be confused. Nothing here ever puts a plaintext, a key or the sealed bytes
// into an error message.
//
// Plain module (no "server-only"): the wirespeed command line (rotate-secret) uses it too.
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from "node:crypto";
import { AppError, type AppErrorOptions } from "../errors";

export const ENVELOPE_VERSION = 0x01;
const KEY_ID_BYTES = 8;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const LEGACY_JSON_FIRST_BYTE = 0x7b; // "{"

/** An AES-256 key and its public id (which tells which key sealed a secret without revealing it). */
export type SecretKey = { readonly key: Buffer; readonly id: string };

/** The keys a process knows: it seals with `current` and opens with any of `all` (current first). */
export type Keyring = { readonly current: SecretKey; readonly all: readonly SecretKey[] };

export type SecretOpenFailure = "key-mismatch" | "tampered" | "malformed";

/** A stored secret that cannot be opened; `kind` says why. The message never quotes the secret. */
export class SecretOpenError extends AppError {
  static override readonly errorName: string = "SecretOpenError";
  declare readonly kind: SecretOpenFailure;
  /** The id of the key the secret was sealed with, when it could be read. */
  readonly keyId?: string;

  constructor(
    kind: SecretOpenFailure,
    message: string,
    { keyId, ...options }: AppErrorOptions & { keyId?: string } = {},
  ) {
    super(kind, message, options);
    this.keyId = keyId;
  }
}

export function keyId(key: Uint8Array): string {
  return createHash("sha256").update(key).digest().subarray(0, KEY_ID_BYTES).toString("hex");
}

export function secretKeyFromBytes(bytes: Uint8Array): SecretKey {
  if (bytes.length !== 32) throw new Error(`an AES-256 key is 32 bytes, not ${bytes.length}`);
  const key = Buffer.from(bytes);
  return { key, id: keyId(key) };
}

export function generateSecretKey(): SecretKey {
  return secretKeyFromBytes(randomBytes(32));
}

// Fixed and public on purpose: the salt only separates Wirespeed's keys from other uses of
// the same passphrase; changing it would make every stored secret unreadable.
export const PASSPHRASE_SALT = "wirespeed/host-secrets/v1";
// scrypt N=2^15, r=8, p=1 (32 MiB, ~0.1 s once per process): slows down guessing a
// human-chosen WIRESPEED_SECRET from a stolen database.
const SCRYPT_OPTIONS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** The key a passphrase (WIRESPEED_SECRET) stands for. The caller checks its length first. */
export function secretKeyFromPassphrase(passphrase: string): SecretKey {
  return secretKeyFromBytes(scryptSync(passphrase.normalize("NFC"), PASSPHRASE_SALT, 32, SCRYPT_OPTIONS));
}

export type EnvelopeKind = "sealed" | "legacy-json" | "unknown";

/** What the stored bytes are, without opening them. */
export function envelopeKind(bytes: Uint8Array): EnvelopeKind {
  if (bytes[0] === ENVELOPE_VERSION) return "sealed";
  if (bytes[0] === LEGACY_JSON_FIRST_BYTE) return "legacy-json";
  return "unknown";
}

/** The id of the key that sealed these bytes, or null when they are not sealed (or too short to say). */
export function envelopeKeyId(bytes: Uint8Array): string | null {
  if (envelopeKind(bytes) !== "sealed" || bytes.length < HEADER_BYTES) return null;
  return Buffer.from(bytes.subarray(1, HEADER_BYTES)).toString("hex");
}

/** Seals `plaintext` (UTF-8 text) under `key` with a fresh random nonce. */
export function sealText(plaintext: string, key: SecretKey): Uint8Array<ArrayBuffer> {
  const header = Buffer.concat([Buffer.of(ENVELOPE_VERSION), Buffer.from(key.id, "hex")]);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(header);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const sealed = Buffer.concat([header, nonce, ciphertext, cipher.getAuthTag()]);
  // A copy on its own ArrayBuffer: Buffer.concat may return a view into Node's shared pool.
  return new Uint8Array(sealed);
}

const CANNOT_READ = "The stored host secret cannot be read";
const SET_AGAIN = "set the host's credentials again";

/**
 * The UTF-8 text inside sealed bytes, opened with the keyring's key of the same id; plain
 * JSON from a database written before encryption is returned as it is.
 */
export function openText(bytes: Uint8Array, keyring: Keyring): string {
  const kind = envelopeKind(bytes);
  if (kind === "legacy-json") return decodeUtf8(bytes);
  if (kind === "unknown") {
    throw new SecretOpenError(
      "malformed",
      `${CANNOT_READ}: it is not in a format this version of Wirespeed knows, or it is damaged; ${SET_AGAIN}.`,
    );
  }
  if (bytes.length < HEADER_BYTES + NONCE_BYTES + TAG_BYTES) {
    throw new SecretOpenError("malformed", `${CANNOT_READ}: it is truncated; ${SET_AGAIN}.`);
  }
  const id = envelopeKeyId(bytes)!;
  const key = keyring.all.find((candidate) => candidate.id === id);
  if (!key) {
    throw new SecretOpenError(
      "key-mismatch",
      `${CANNOT_READ}: it was sealed with another key (key id ${id}; this server's key id is ${keyring.current.id}). ` +
        `Start Wirespeed with the WIRESPEED_SECRET or secret.key it was sealed with, or ${SET_AGAIN}.`,
      { keyId: id },
    );
  }
  const data = Buffer.from(bytes);
  const header = data.subarray(0, HEADER_BYTES);
  const nonce = data.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
  const ciphertext = data.subarray(HEADER_BYTES + NONCE_BYTES, data.length - TAG_BYTES);
  const tag = data.subarray(data.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(header);
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    return decodeUtf8(plaintext);
  } catch (error) {
    if (error instanceof SecretOpenError) throw error;
    // Node's own message ("Unsupported state or unable to authenticate data") says nothing useful.
    throw new SecretOpenError(
      "tampered",
      `${CANNOT_READ}: it failed its integrity check (the sealed bytes were altered or damaged in the database); ${SET_AGAIN}.`,
      { keyId: id },
    );
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SecretOpenError("malformed", `${CANNOT_READ}: it is not valid text; ${SET_AGAIN}.`);
  }
}
