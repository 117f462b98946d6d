import fs from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  AppError,
  STATUS_OF_KIND,
  describeFieldErrors,
  fieldErrorsFromZod,
  fieldPath,
  invalidInput,
  isRequestErrorKind,
  parseInput,
  type AppErrorKind,
} from "@/lib/errors";
import type { IperfErrorKind } from "@/lib/iperf";
import type { SshErrorKind } from "@/lib/ssh/errors";

describe("the status of each kind", () => {
  it("answers each request kind with its own status", () => {
    const requestKinds = Object.entries(STATUS_OF_KIND).filter(([kind]) => isRequestErrorKind(kind as AppErrorKind));
    expect(Object.fromEntries(requestKinds)).toEqual({
      invalid: 400,
      unauthorized: 401,
      forbidden: 403,
      "not-found": 404,
      conflict: 409,
      "payload-too-large": 413,
      "rate-limited": 429,
      "shutting-down": 503,
    });
  });

  it("answers every other kind (a host or a run failed) with 502", () => {
    const others = Object.entries(STATUS_OF_KIND).filter(([kind]) => !isRequestErrorKind(kind as AppErrorKind));
    expect(others.map(([kind]) => kind).sort()).toEqual(
      [
        "auth",
        "cancelled",
        "connection-lost",
        "connection-refused",
        "control-socket-closed",
        "host-key",
        "interrupted",
        "key-mismatch",
        "listener-failed",
        "malformed",
        "no-client",
        "parameter",
        "ports-exhausted",
        "server-busy",
        "tampered",
        "timeout",
        "unknown",
        "unreachable",
      ].sort(),
    );
    for (const [, status] of others) expect(status).toBe(502);
  });

  it("covers every kind lib/iperf's classifier and lib/ssh give, so the engine can raise them", () => {
    expectTypeOf<IperfErrorKind>().toExtend<AppErrorKind>();
    expectTypeOf<SshErrorKind>().toExtend<AppErrorKind>();
  });
});

describe("AppError", () => {
  it("carries its kind, the status of that kind, a hint and the fields at fault", () => {
    const error = new AppError("conflict", "name is taken", {
      hint: "pick another",
      fields: [{ field: "name", message: "is taken" }],
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "AppError",
      kind: "conflict",
      status: 409,
      message: "name is taken",
      hint: "pick another",
      fields: [{ field: "name", message: "is taken" }],
    });
  });

  it("has no hint and no fields unless given, and keeps a cause", () => {
    const cause = new Error("ECONNREFUSED");
    const error = new AppError("unreachable", "cannot reach nas1", { cause });
    expect(error).toMatchObject({ status: 502, hint: "", fields: [] });
    expect(error.cause).toBe(cause);
    expect(new AppError("unknown", "x").cause).toBeUndefined();
  });
});

describe("fieldPath", () => {
  it.each([
    [["port"], "", "port"],
    [["auth", "privateKey"], "", "auth.privateKey"],
    [["addresses", 0], "", "addresses.0"],
    [[], "", "body"],
    [[], "hostId", "hostId"],
    [["a"], "request", "request.a"],
  ] as const)("%j with prefix %j is %s", (path, prefix, expected) => {
    expect(fieldPath(path, prefix)).toBe(expected);
  });
});

describe("fieldErrorsFromZod", () => {
  const HostSchema = z.strictObject({
    // Two checks with one message, as the inventory's text fields have: a value failing both is named once.
    name: z
      .string()
      .max(64, "must be 1-64 letters")
      .regex(/^[a-z]+$/, "must be 1-64 letters"),
    port: z.number().int().min(1, "must be a whole number from 1 to 65535"),
    auth: z.strictObject({ method: z.enum(["key", "local"]) }),
    addresses: z.array(z.string().regex(/^\d+\.\d+\.\d+\.\d+$/, "must be an IPv4 address")).optional(),
  });

  it("names every field with its message, and says each problem once", () => {
    const result = HostSchema.safeParse({ name: "X".repeat(100), port: 0, auth: { method: "key" } });
    const fields = fieldErrorsFromZod(result.error!);
    expect(fields).toEqual([
      { field: "name", message: "must be 1-64 letters" },
      { field: "port", message: "must be a whole number from 1 to 65535" },
    ]);
    expect(describeFieldErrors(fields)).toBe("name must be 1-64 letters; port must be a whole number from 1 to 65535");
  });

  it("names unknown keys one by one, nested ones with their path, long ones cut short", () => {
    const long = "k".repeat(300);
    const result = HostSchema.safeParse({ name: "a", port: 1, auth: { method: "local", extra: 1 }, [long]: 1 });
    const fields = fieldErrorsFromZod(result.error!);
    expect(fields).toContainEqual({ field: "auth.extra", message: "is not a known field here" });
    expect(fields).toContainEqual({ field: `${"k".repeat(64)}…`, message: "is not a known field here" });
    expect(JSON.stringify(fields)).not.toContain("k".repeat(65));
  });

  it("names array items by index", () => {
    const result = HostSchema.safeParse({
      name: "a",
      port: 1,
      auth: { method: "local" },
      addresses: ["198.18.0.1", "x"],
    });
    expect(fieldErrorsFromZod(result.error!)).toEqual([{ field: "addresses.1", message: "must be an IPv4 address" }]);
  });

  it("calls a body that is no object the body, or names it by the prefix", () => {
    expect(fieldErrorsFromZod(HostSchema.safeParse("text").error!)).toEqual([
      { field: "body", message: "must be a JSON object" },
    ]);
    const IdSchema = z.number({ error: "must be an id" });
    expect(fieldErrorsFromZod(IdSchema.safeParse("7").error!, "hostId")).toEqual([
      { field: "hostId", message: "must be an id" },
    ]);
  });

  it("never repeats the rejected value", () => {
    const secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nTOPSECRET\n";
    const result = HostSchema.safeParse({ name: secret, port: secret, auth: { method: secret }, addresses: [secret] });
    expect(JSON.stringify(fieldErrorsFromZod(result.error!))).not.toContain("TOPSECRET");
  });
});

describe("parseInput", () => {
  it("returns the parsed value", () => {
    expect(parseInput(z.strictObject({ speedMbps: z.number().nullable() }), { speedMbps: null })).toEqual({
      speedMbps: null,
    });
    expect(parseInput(z.string().trim(), "  eth0 ")).toBe("eth0");
  });

  it("throws an invalid AppError (400) naming each field", () => {
    expect(() => parseInput(z.strictObject({}), { a: 1 })).toThrowError(
      expect.objectContaining({
        name: "AppError",
        kind: "invalid",
        status: 400,
        message: "a is not a known field here",
        fields: [{ field: "a", message: "is not a known field here" }],
      }),
    );
  });

  it("names a single value by the field it came from", () => {
    expect(() => parseInput(z.number().int().positive("must be an id"), -1, "runId")).toThrowError(
      expect.objectContaining({ kind: "invalid", fields: [{ field: "runId", message: "must be an id" }] }),
    );
  });
});

describe("invalidInput", () => {
  it("is a 400 whose message names every field", () => {
    const error = invalidInput([
      { field: "iperfPortMax", message: "must be at least iperfPortMin" },
      { field: "name", message: "is required" },
    ]);
    expect(error).toMatchObject({
      kind: "invalid",
      status: 400,
      message: "iperfPortMax must be at least iperfPortMin; name is required",
    });
    expect(error.fields).toHaveLength(2);
  });
});

describe("each AppError subclass", () => {
  // `instanceof` recognises an error from another copy of a module by the `errorName` its class
  // declares (AppError[Symbol.hasInstance]): a subclass without one would only match its own copy.
  const root = path.resolve(__dirname, "..");
  const sources = ["lib", "agents"].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes("generated"))
      .map((file) => fs.readFileSync(path.join(root, dir, file), "utf8")),
  );
  const classes = sources.flatMap((text) =>
    [...text.matchAll(/class (\w+) extends (\w+) \{\n([^]*?)\n\}/g)].map(([, name = "", base = "", body = ""]) => ({
      name,
      base,
      body,
    })),
  );
  const family = new Set(["AppError"]);
  for (let grew = true; grew;) {
    grew = false;
    for (const { name, base } of classes) if (family.has(base) && !family.has(name)) grew = family.add(name).has(name);
  }
  const subclasses = classes.filter(({ name }) => name !== "AppError" && family.has(name));

  it("declares its name, as its class name (in lib/ and agents/)", () => {
    expect(subclasses.map(({ name }) => name)).toEqual(
      expect.arrayContaining(["RunError", "SshError", "HostKeyMismatchError", "AuthError"]),
    );
    for (const { name, body } of subclasses)
      expect(body, name).toContain(`static override readonly errorName: string = "${name}";`);
  });

  it("is constructed as (kind, message, options?), (message, options?) or ()", () => {
    const shapes = [["kind", "message", "options"], ["message", "options"], []];
    for (const { name, body } of subclasses) {
      const params = /\bconstructor\(([^]*?)\) \{\n/.exec(body)?.[1];
      // No constructor of its own: AppError's, (kind, message, options?).
      if (params === undefined) continue;
      expect(shapes, `${name}(${params})`).toContainEqual(parameterNames(params));
    }
  });
});

/** `kind`, `message`, `options` of "kind: K, message: string, { host, ...options }: O = {}": a destructured one is `options`. */
function parameterNames(params: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= params.length; i++) {
    const char = params[i];
    if (char === '"' || char === "'" || char === "`") i = params.indexOf(char, i + 1);
    else if (char === "{" || char === "(" || char === "[" || char === "<") depth++;
    else if (char === "}" || char === ")" || char === "]" || char === ">") depth--;
    else if ((char === "," && depth === 0) || char === undefined) {
      const param = params.slice(start, i).trim();
      if (param) names.push(param.startsWith("{") ? "options" : (/^\w+/.exec(param)?.[0] ?? param));
      start = i + 1;
    }
  }
  return names;
}
