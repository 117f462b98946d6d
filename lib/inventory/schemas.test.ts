import { describe, expect, it } from "vitest";
import { SAMPLE_KEYS } from "@/testing/test-api";
import { describeFieldErrors, fieldErrorsFromZod } from "@/lib/errors";
import { HostCreateSchema, NameSchema, isHostAddress, isNicAddress, isPrivateKeyText } from "@/lib/inventory/schemas";

describe("isPrivateKeyText", () => {
  it.each(Object.entries(SAMPLE_KEYS))("accepts %s", (_kind, key) => {
    expect(isPrivateKeyText(key)).toBe(true);
  });

  it("accepts CRLF line ends and surrounding whitespace", () => {
    expect(isPrivateKeyText(`\n  ${SAMPLE_KEYS.openssh.replaceAll("\n", "\r\n")}\n`)).toBe(true);
  });

  it.each([
    ["a public key", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host"],
    ["DSA (unsupported armour)", "-----BEGIN DSA PRIVATE KEY-----\nMIIBuwIBAAKBgQ\n-----END DSA PRIVATE KEY-----"],
    ["no body", "-----BEGIN OPENSSH PRIVATE KEY-----\n-----END OPENSSH PRIVATE KEY-----"],
    ["text after the end", `${SAMPLE_KEYS.openssh}ssh-rsa AAAA`],
    ["two keys", `${SAMPLE_KEYS.openssh}${SAMPLE_KEYS.rsa}`],
    ["a quote in the body", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl'bnNz\n-----END OPENSSH PRIVATE KEY-----"],
    ["16 KiB plus one", `-----BEGIN PRIVATE KEY-----\n${"A".repeat(16 * 1024)}\n-----END PRIVATE KEY-----`],
  ])("refuses %s", (_what, text) => {
    expect(isPrivateKeyText(text)).toBe(false);
  });
});

describe("addresses", () => {
  it.each(["198.18.0.1", "fd00::1", "::1", "nas", "nas.lab.example", "host-1.example.com", "xn--bcher-kva.example"])(
    "host address %s is accepted",
    (value) => {
      expect(isHostAddress(value)).toBe(true);
    },
  );

  it.each([
    "",
    "999.1.1.1",
    "198.18.0.1/24",
    "[fd00::1]",
    "fe80::1%eth0",
    "-nas",
    "nas-",
    "a..b",
    "nas.",
    "under_score",
    "a b",
    `${"a".repeat(64)}.example`,
    "$(id)",
  ])("host address %j is refused", (value) => {
    expect(isHostAddress(value)).toBe(false);
  });

  it.each(["198.18.0.1", "198.18.0.1/24", "198.18.0.1/32", "fd00::1", "fd00::1/64"])(
    "NIC address %s is accepted",
    (value) => {
      expect(isNicAddress(value)).toBe(true);
    },
  );

  it.each(["nas", "198.18.0.1/33", "fd00::1/129", "198.18.0.256", "198.18.0.1 /24"])(
    "NIC address %j is refused",
    (value) => {
      expect(isNicAddress(value)).toBe(false);
    },
  );
});

describe("NameSchema", () => {
  it.each([
    "nas",
    "eth0",
    "Ethernet 2",
    "vEthernet (Default Switch)",
    "enp1s0f0.100",
    "nas-01 (local)",
    "Подключение",
    "br-lan:1",
    "a",
  ])("accepts %j", (name) => {
    expect(NameSchema.safeParse(name).success).toBe(true);
  });

  it.each([
    "",
    " nas",
    "nas ",
    ".",
    "..",
    "-x",
    "a/b",
    "a\\b",
    "a;b",
    "a$b",
    "a`b",
    "a'b",
    'a"b',
    "a\nb",
    "a\tb",
    "a".repeat(65),
    "🚀",
  ])("refuses %j", (name) => {
    expect(NameSchema.safeParse(name).success).toBe(false);
  });
});

// fieldErrorsFromZod and parseInput themselves are tested in lib/errors.test.ts; these check the inventory's messages through them.
describe("field errors", () => {
  it("name every field with what it allows, and say each problem once", () => {
    const result = HostCreateSchema.safeParse({
      name: "x".repeat(100),
      address: "ok",
      auth: { method: "local" },
      port: 0,
    });
    expect(result.success).toBe(false);
    const fields = fieldErrorsFromZod(result.error!);
    expect(fields).toEqual([
      { field: "name", message: expect.stringMatching(/^must be 1-64 characters/) },
      { field: "port", message: "must be a whole number from 1 to 65535" },
    ]);
    expect(describeFieldErrors(fields)).toMatch(
      /^name must be 1-64 characters.*; port must be a whole number from 1 to 65535$/,
    );
  });

  it("never repeat the rejected value", () => {
    const secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nTOPSECRET\n";
    const result = HostCreateSchema.safeParse({
      name: secret,
      address: secret,
      username: secret,
      auth: { method: "key", privateKey: secret, passphrase: "" },
      notes: secret.repeat(200),
    });
    const text = JSON.stringify(fieldErrorsFromZod(result.error!));
    expect(text).not.toContain("TOPSECRET");
  });
});
