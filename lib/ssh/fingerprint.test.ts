import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprintOfPublicKeyLine, isSshFingerprint, sshFingerprint } from "./fingerprint";

describe("sshFingerprint", () => {
  it("matches `ssh-keygen -lf` for freshly generated ed25519, RSA and ECDSA keys", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ws-fp-"));
    try {
      for (const type of ["ed25519", "rsa", "ecdsa"]) {
        const key = path.join(dir, type);
        execFileSync("ssh-keygen", ["-q", "-t", type, "-N", "", "-f", key]);
        const expected = execFileSync("ssh-keygen", ["-lf", `${key}.pub`], { encoding: "utf8" }).split(/\s+/)[1];
        const line = fs.readFileSync(`${key}.pub`, "utf8");
        expect(fingerprintOfPublicKeyLine(line)).toBe(expected);
        expect(sshFingerprint(Buffer.from(line.split(" ")[1]!, "base64"))).toBe(expected);
        expect(isSshFingerprint(expected!)).toBe(true);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has no base64 padding and recognises only SHA256 fingerprints", () => {
    expect(sshFingerprint(Buffer.from("x"))).not.toMatch(/=$/);
    expect(isSshFingerprint("SHA256:abc")).toBe(false);
    expect(isSshFingerprint("MD5:aa:bb")).toBe(false);
    expect(() => fingerprintOfPublicKeyLine("garbage")).toThrow(/not an OpenSSH public key line/);
  });
});
