import "server-only";

/**
 * The one place that knows how a host's credential is stored in `Host.secret`.
 *
 * FOR NOW THE BYTES ARE PLAIN JSON. The security work replaces the bodies of these two
 * functions with AES-256-GCM under a key derived from WIRESPEED_SECRET (version byte,
 * nonce, ciphertext, tag); nothing else in the code base may read or write the format,
 * so that change stays inside this file.
 *
 * Neither function puts the value in an error message: a corrupt secret reports only that.
 */
export function sealSecret(value: object): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(value));
}

export function openSecret(bytes: Uint8Array): object {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Error("The stored host secret cannot be read: set the host's credentials again.");
  }
  if (typeof value !== "object" || value === null) {
    throw new Error("The stored host secret cannot be read: set the host's credentials again.");
  }
  return value;
}
