// Pure: the one decision on the host key a server presents. It runs during key exchange, before any
// credential is sent, for every SSH connection Wirespeed opens (lib/ssh/connect.ts).
import { hostKeyMismatch, SshError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import type { HostTarget } from "./types";

/**
 * - `pinned`: only the target's pinned key goes on to authentication; a target with none is refused.
 * - `read`: any key is read and refused, so the handshake stops before authentication (first contact).
 */
export type HostKeyPolicy = "pinned" | "read";

type KeyHolder = Pick<HostTarget, "name" | "pinnedFingerprint">;

/** Why a presented key (`SHA256:...`) is refused, or null when the connection may authenticate. */
export function hostKeyRefusal(target: KeyHolder, policy: HostKeyPolicy, presented: string): SshError | null {
  if (policy === "read") {
    return new SshError(
      "host-key",
      `the host key of ${target.name} was read; the connection stopped before authentication`,
      { host: target.name },
    );
  }
  if (target.pinnedFingerprint === null) {
    return new SshError(
      "host-key",
      `the host key of ${target.name} is not pinned: check the host and confirm its fingerprint before connecting`,
      { host: target.name },
    );
  }
  if (presented !== target.pinnedFingerprint) return hostKeyMismatch(target.name, target.pinnedFingerprint, presented);
  return null;
}

/** ssh2's `hostVerifier` for one handshake, which remembers the key presented and why it was refused. */
export type HostKeyVerifier = {
  readonly policy: HostKeyPolicy;
  verify(keyBlob: Buffer): boolean;
  /** the presented key's fingerprint, once the server sent it */
  readonly presented: string | null;
  /** set when verify refused the key; the connection then fails with this error */
  readonly refusal: SshError | null;
};

export function hostKeyVerifier(target: KeyHolder, policy: HostKeyPolicy): HostKeyVerifier {
  let presented: string | null = null;
  let refusal: SshError | null = null;
  return {
    policy,
    verify(keyBlob) {
      presented = sshFingerprint(keyBlob);
      refusal = hostKeyRefusal(target, policy, presented);
      return refusal === null;
    },
    get presented() {
      return presented;
    },
    get refusal() {
      return refusal;
    },
  };
}
