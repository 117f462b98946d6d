import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "@/lib/inventory/secrets";

describe("sealSecret / openSecret", () => {
  it("round-trips any characters", () => {
    const value = { privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n", passphrase: "$(x) `y` ; 'z' \"w\" \n 名前 \u0000" };
    const sealed = sealSecret(value);
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(openSecret(sealed)).toEqual(value);
  });

  it.each([
    ["not UTF-8", new Uint8Array([0xff, 0xfe, 0x00])],
    ["not JSON", new TextEncoder().encode("hunter2")],
    ["not an object", new TextEncoder().encode('"hunter2"')],
  ])("refuses bytes that are %s without quoting them", (_what, bytes) => {
    expect(() => openSecret(bytes)).toThrowError(/^The stored host secret cannot be read/);
    try {
      openSecret(bytes);
    } catch (error) {
      expect(String(error)).not.toContain("hunter2");
    }
  });
});
