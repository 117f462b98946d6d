import { describe, expect, it } from "vitest";
import {
  type Keyring,
  type SecretKey,
  SecretOpenError,
  envelopeKeyId,
  envelopeKind,
  generateSecretKey,
  openText,
  sealText,
  secretKeyFromPassphrase,
} from "@/lib/secrets/envelope";

const PLAINTEXT = JSON.stringify({
  privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAhunter2\n-----END OPENSSH PRIVATE KEY-----\n",
  passphrase: "名前 $(x)",
});

function ringOf(...keys: SecretKey[]): Keyring {
  return { current: keys[0]!, all: keys };
}

function openError(bytes: Uint8Array, keyring: Keyring): SecretOpenError {
  try {
    openText(bytes, keyring);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretOpenError);
    return error as SecretOpenError;
  }
  throw new Error("expected the secret not to open");
}

function flipped(bytes: Uint8Array, index: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

describe("sealText / openText", () => {
  const key = generateSecretKey();

  it("round-trips any text and lays the bytes out as version, key id, nonce, ciphertext, tag", () => {
    const sealed = sealText(PLAINTEXT, key);
    expect(openText(sealed, ringOf(key))).toBe(PLAINTEXT);
    expect(sealed[0]).toBe(0x01);
    expect(envelopeKind(sealed)).toBe("sealed");
    expect(envelopeKeyId(sealed)).toBe(key.id);
    expect(sealed.length).toBe(1 + 8 + 12 + Buffer.byteLength(PLAINTEXT) + 16);
    expect(Buffer.from(sealed).toString("latin1")).not.toContain("hunter2");
  });

  it("uses a new nonce for every seal", () => {
    const first = Buffer.from(sealText(PLAINTEXT, key));
    const second = Buffer.from(sealText(PLAINTEXT, key));
    expect(first.subarray(9, 21).equals(second.subarray(9, 21))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it.each([
    ["the ciphertext", 1 + 8 + 12 + 3],
    ["the tag", -1],
    ["the nonce", 1 + 8],
  ])("reports a change in %s as a failed integrity check, without the secret", (_part, offset) => {
    const sealed = sealText(PLAINTEXT, key);
    const error = openError(flipped(sealed, offset < 0 ? sealed.length + offset : offset), ringOf(key));
    expect(error.kind).toBe("tampered");
    expect(error.message).toMatch(/^The stored host secret cannot be read: it failed its integrity check/);
    expect(error.message).not.toContain("hunter2");
  });

  it("reports a secret sealed with another key as a key mismatch, naming both key ids", () => {
    const other = generateSecretKey();
    const error = openError(sealText(PLAINTEXT, other), ringOf(key));
    expect(error.kind).toBe("key-mismatch");
    expect(error.message).toContain(`sealed with another key (key id ${other.id}; this server's key id is ${key.id})`);
    expect(error.message).toMatch(/WIRESPEED_SECRET or secret\.key/);
    expect(error.message).not.toContain("hunter2");
  });

  it("opens with any key of the keyring, found by its id", () => {
    const old = generateSecretKey();
    expect(openText(sealText(PLAINTEXT, old), ringOf(key, old))).toBe(PLAINTEXT);
  });

  it("authenticates the key id: a header pointing at another key of the ring fails the tag", () => {
    const other = generateSecretKey();
    const sealed = new Uint8Array(sealText(PLAINTEXT, key));
    sealed.set(Buffer.from(other.id, "hex"), 1);
    expect(openError(sealed, ringOf(key, other)).kind).toBe("tampered");
  });

  it.each([
    ["truncated", (bytes: Uint8Array) => bytes.subarray(0, 30), /it is truncated/],
    [
      "of an unknown version",
      (bytes: Uint8Array) => Uint8Array.of(0x02, ...bytes.subarray(1)),
      /not in a format this version of Wirespeed knows/,
    ],
    ["empty", () => new Uint8Array(0), /not in a format/],
  ])("refuses bytes that are %s", (_what, change, message) => {
    const error = openError(change(sealText(PLAINTEXT, key)), ringOf(key));
    expect(error.kind).toBe("malformed");
    expect(error.message).toMatch(message);
  });

  it("still reads the plain JSON of databases written before encryption", () => {
    const legacy = new TextEncoder().encode('{"password":"p"}');
    expect(envelopeKind(legacy)).toBe("legacy-json");
    expect(envelopeKeyId(legacy)).toBeNull();
    expect(openText(legacy, ringOf(key))).toBe('{"password":"p"}');
  });
});

describe("secretKeyFromPassphrase", () => {
  it("derives the same key from the same value, and another from another", () => {
    const value = "correct horse battery staple, and then some more";
    expect(secretKeyFromPassphrase(value).id).toBe(secretKeyFromPassphrase(value).id);
    expect(secretKeyFromPassphrase(`${value}!`).id).not.toBe(secretKeyFromPassphrase(value).id);
    expect(secretKeyFromPassphrase(value).key).toHaveLength(32);
  });
});
