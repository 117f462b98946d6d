// Pure: the host-key fingerprint exactly as `ssh-keygen -l` prints it.
import { createHash } from "node:crypto";

/** SHA256 of the raw public key blob, base64 without padding: `SHA256:...` (what `ssh-keygen -lf` prints). */
export function sshFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** Fingerprint of an OpenSSH public key line (`ssh-ed25519 AAAA... comment`). */
export function fingerprintOfPublicKeyLine(line: string): string {
  const blob = line.trim().split(/\s+/)[1];
  if (!blob) throw new Error("not an OpenSSH public key line: expected `<type> <base64> [comment]`");
  return sshFingerprint(Buffer.from(blob, "base64"));
}

const FINGERPRINT_RE = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** Whether text is a SHA256 fingerprint as ssh-keygen prints it (43 base64 characters, no padding). */
export function isSshFingerprint(text: string): boolean {
  return FINGERPRINT_RE.test(text);
}
