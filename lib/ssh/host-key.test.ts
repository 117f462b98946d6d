import { describe, expect, it } from "vitest";
import { sshConnectConfig } from "./connect";
import { HostKeyMismatchError, SshError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import { hostKeyRefusal, hostKeyVerifier } from "./host-key";
import type { HostTarget } from "./types";

// Any bytes stand for a key blob: the decision is on their fingerprint.
const KEY_A = Buffer.from("host key A");
const KEY_B = Buffer.from("host key B");
const FP_A = sshFingerprint(KEY_A);
const FP_B = sshFingerprint(KEY_B);

function target(overrides: Partial<HostTarget> = {}): HostTarget {
  return {
    name: "alpha",
    address: "198.18.0.2",
    port: 22,
    username: "root",
    auth: { method: "password", password: "s3cret" },
    pinnedFingerprint: FP_A,
    ...overrides,
  };
}

describe("hostKeyVerifier", () => {
  it("accepts the pinned key", () => {
    const verifier = hostKeyVerifier(target(), "pinned");
    expect(verifier.verify(KEY_A)).toBe(true);
    expect(verifier.presented).toBe(FP_A);
    expect(verifier.refusal).toBeNull();
  });

  it("refuses another key than the pinned one, naming both", () => {
    const verifier = hostKeyVerifier(target(), "pinned");
    expect(verifier.verify(KEY_B)).toBe(false);
    expect(verifier.presented).toBe(FP_B);
    expect(verifier.refusal).toBeInstanceOf(HostKeyMismatchError);
    expect(verifier.refusal).toMatchObject({ kind: "host-key", host: "alpha", pinned: FP_A, presented: FP_B });
  });

  it("refuses every key when none is pinned and pinning is required", () => {
    const verifier = hostKeyVerifier(target({ pinnedFingerprint: null }), "pinned");
    expect(verifier.verify(KEY_A)).toBe(false);
    expect(verifier.presented).toBe(FP_A);
    expect(verifier.refusal).toBeInstanceOf(SshError);
    expect(verifier.refusal?.kind).toBe("host-key");
    expect(verifier.refusal?.message).toMatch(/host key of alpha is not pinned/);
  });

  it("reads any key and refuses it, the pinned one too, when only reading", () => {
    for (const pinned of [null, FP_A]) {
      const verifier = hostKeyVerifier(target({ pinnedFingerprint: pinned }), "read");
      expect(verifier.verify(KEY_A)).toBe(false);
      expect(verifier.presented).toBe(FP_A);
      expect(verifier.refusal?.kind).toBe("host-key");
    }
  });

  it("decides with hostKeyRefusal and nothing else", () => {
    expect(hostKeyRefusal(target(), "pinned", FP_A)).toBeNull();
    expect(hostKeyRefusal(target(), "pinned", FP_B)).toBeInstanceOf(HostKeyMismatchError);
    expect(hostKeyRefusal(target({ pinnedFingerprint: null }), "pinned", FP_A)?.kind).toBe("host-key");
    expect(hostKeyRefusal(target(), "read", FP_A)?.kind).toBe("host-key");
  });
});

describe("sshConnectConfig", () => {
  it("hands ssh2 the verifier as hostVerifier", () => {
    const config = sshConnectConfig(target(), hostKeyVerifier(target(), "pinned"), 5000);
    const hostVerifier = config.hostVerifier as (key: Buffer) => boolean;
    expect(hostVerifier(KEY_B)).toBe(false);
    expect(hostVerifier(KEY_A)).toBe(true);
    expect(config).toMatchObject({ host: "198.18.0.2", port: 22, username: "root", readyTimeout: 5000 });
  });

  it("carries the credentials only when the key may be accepted", () => {
    const password = sshConnectConfig(target(), hostKeyVerifier(target(), "pinned"), 5000);
    expect(password).toMatchObject({ password: "s3cret", tryKeyboard: true });
    const key = target({ auth: { method: "key", privateKey: "PRIVATE", passphrase: "phrase" } });
    expect(sshConnectConfig(key, hostKeyVerifier(key, "pinned"), 5000)).toMatchObject({
      privateKey: "PRIVATE",
      passphrase: "phrase",
    });

    for (const reading of [target(), key]) {
      const config = sshConnectConfig(reading, hostKeyVerifier(reading, "read"), 5000);
      for (const field of ["password", "privateKey", "passphrase", "tryKeyboard", "agent"])
        expect(config).not.toHaveProperty(field);
    }
  });

  it("has no SSH connection for the local transport", () => {
    const local = target({ auth: { method: "local" } });
    expect(() => sshConnectConfig(local, hostKeyVerifier(local, "pinned"), 5000)).toThrow(/local transport/);
  });
});
