/**
 * Hostile input at every field of every REST endpoint that takes a body, a query or an id, on a real
 * (migrated, empty) SQLite database. Each value is either refused with a 400 that names the field
 * and says what is allowed, or, where the field legitimately holds it (free-text notes, a NIC model,
 * a password), stored and returned verbatim as an escaped JSON string. Nothing reaches the run
 * engine, no run is recorded and no shell ever sees the values (a marker file would appear).
 *
 * The server actions (lib/<feature>/actions/*) need a signed-in session from Next's request scope before they
 * validate anything, so they are not called here: the last block checks the schemas and parsers they
 * share with these routes (HostCreateSchema, HostUpdateSchema, LinkCreateSchema, IdSchema,
 * parseRunRequest) directly.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import {
  HOST_FIELDS,
  HOSTILE_TEXT,
  LINK_FIELDS,
  MARKER,
  MAX_ID,
  NIC_FIELDS,
  RUN_FIELDS,
  bodyWith,
  expand,
  expectRefused,
  timedCall,
  type Answer,
  type FieldSpec,
} from "@/testing/hostile-values";
import { SAMPLE_KEYS, openTestApi, type TestApi } from "@/testing/test-api";
import { AppError, parseInput } from "@/lib/errors";
import {
  HostCreateSchema,
  HostUpdateSchema,
  IdSchema,
  LinkCreateSchema,
  NicCreateSchema,
  NicUpdateSchema,
  LinkUpdateSchema,
} from "@/lib/inventory/schemas";
import { parseRunRequest } from "@/lib/runs/request";
import { getApp } from "@/lib/app";
import { openSecret } from "@/lib/inventory/secrets";

let api: TestApi;
let engineSpies: MockInstance[] = [];
let hostA: number;
let hostB: number;
let nicA: number;
let nicB: number;
// a pair no link joins yet: links created with allowed values join these (one at a time)
let spareNics: [number, number];
let linkId: number;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const keyAuth = { method: "key", privateKey: SAMPLE_KEYS.openssh };

beforeAll(async () => {
  fs.rmSync(MARKER, { force: true });
  api = await openTestApi();
  // The engine is the only way to a host: none of its entry points may be reached by hostile input.
  const runEngine = getApp().runs;
  engineSpies = [vi.spyOn(runEngine, "startRun"), vi.spyOn(runEngine, "rerun"), vi.spyOn(runEngine, "cancelRun")];
  hostA = (await api.json("POST", "/api/hosts", { name: "alpha", address: "198.18.0.1", auth: keyAuth })).body.id;
  hostB = (await api.json("POST", "/api/hosts", { name: "beta", address: "198.18.0.2", auth: keyAuth })).body.id;
  nicA = (
    await api.json("POST", "/api/nics", { hostId: hostA, name: "eth0", address: "198.18.0.1/24", speedMbps: 1000 })
  ).body.id;
  nicB = (
    await api.json("POST", "/api/nics", { hostId: hostB, name: "eth0", address: "198.18.0.2/24", speedMbps: 1000 })
  ).body.id;
  linkId = (await api.json("POST", "/api/links", { name: "alpha-beta", aNicId: nicA, bNicId: nicB })).body.id;
  spareNics = [
    (await api.json("POST", "/api/nics", { hostId: hostA, name: "eth1", address: "198.18.2.1/24", speedMbps: 1000 }))
      .body.id,
    (await api.json("POST", "/api/nics", { hostId: hostB, name: "eth1", address: "198.18.2.2/24", speedMbps: 1000 }))
      .body.id,
  ];
  expect([hostA, hostB, nicA, nicB, linkId].every((id) => Number.isInteger(id))).toBe(true);
}, 60_000);

afterAll(async () => {
  for (const spy of engineSpies) spy.mockRestore();
  await api?.close();
});

function send(method: string, path: string, body?: unknown, rawBody?: string): Promise<Answer> {
  return timedCall(api, method, path, body, rawBody === undefined ? {} : { rawBody });
}

/** Stored and returned verbatim, as an escaped JSON string. */
function expectStored(answer: Answer, status: number, key: string, value: unknown, label: string): void {
  expect(answer.status, `${key} = ${label}: ${answer.text.slice(0, 300)}`).toBe(status);
  expect(answer.body[key], label).toEqual(value);
  if (typeof value === "string") expect(answer.text, label).toContain(JSON.stringify(value));
  // JSON escapes line breaks and NUL: the raw response never carries them
  expect(answer.text, label).not.toMatch(/[\n\r\0]/);
}

async function runCount(): Promise<number> {
  return api.db.run.count();
}

describe.each(Object.entries(HOST_FIELDS))("hosts: %s", (field, spec) => {
  const isSecret = field === "auth.password" || field === "auth.passphrase";
  const secretKey = field.split(".")[1] ?? "";

  it("POST /api/hosts refuses each hostile value naming the field, or stores it verbatim", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      const answer = await send(
        "POST",
        "/api/hosts",
        bodyWith({ name: unique("h"), address: "198.18.0.10", auth: keyAuth }, field, value),
      );
      if (!isAllowed) {
        expectRefused(answer, field, label);
        continue;
      }
      if (isSecret) {
        expect(answer.status, label).toBe(201);
        if (typeof value === "string" && value.length > 3)
          expect(answer.text, label).not.toContain(JSON.stringify(value).slice(1, -1));
        const row = await api.db.host.findUniqueOrThrow({ where: { id: answer.body.id }, select: { secret: true } });
        expect((openSecret(row.secret!) as Record<string, unknown>)[secretKey], label).toBe(value);
      } else {
        expectStored(answer, 201, field, value, label);
        expectStored(await send("GET", `/api/hosts/${answer.body.id}`), 200, field, value, label);
      }
      expect((await send("DELETE", `/api/hosts/${answer.body.id}`)).status).toBe(200);
    }
  });

  it("PATCH /api/hosts/:id refuses each hostile value and leaves the host as it was", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      const before = (await send("GET", `/api/hosts/${hostA}`)).text;
      const answer = await send("PATCH", `/api/hosts/${hostA}`, bodyWith({}, field, value));
      if (!isAllowed) {
        expectRefused(answer, field, label);
        expect((await send("GET", `/api/hosts/${hostA}`)).text, label).toBe(before);
      } else if (!isSecret) {
        expectStored(answer, 200, field, value, label);
      } else {
        expect(answer.status, label).toBe(200);
      }
    }
    // the host keeps working values for the other tests
    expect(
      (await send("PATCH", `/api/hosts/${hostA}`, { name: "alpha", auth: keyAuth, iperf3Path: null, notes: "" }))
        .status,
    ).toBe(200);
  });
});

describe.each(Object.entries(NIC_FIELDS))("nics: %s", (field, spec) => {
  it("POST /api/nics refuses each hostile value naming the field, or stores it verbatim", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      const answer = await send("POST", "/api/nics", { hostId: hostA, name: unique("eth"), [field]: value });
      if (!isAllowed) {
        expectRefused(answer, field, label);
        continue;
      }
      expectStored(answer, 201, field, value, label);
      expect((await send("DELETE", `/api/nics/${answer.body.id}`)).status).toBe(200);
    }
  });

  it("PATCH /api/nics/:id refuses each hostile value and leaves the NIC as it was", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      const before = (await send("GET", `/api/nics/${nicA}`)).text;
      const answer = await send("PATCH", `/api/nics/${nicA}`, { [field]: value });
      if (isAllowed) {
        expectStored(answer, 200, field, value, label);
      } else {
        expectRefused(answer, field, label);
        expect((await send("GET", `/api/nics/${nicA}`)).text, label).toBe(before);
      }
    }
    expect(
      (await send("PATCH", `/api/nics/${nicA}`, { name: "eth0", address: "198.18.0.1/24", speedMbps: 1000 })).status,
    ).toBe(200);
  });

  if (field === "name") {
    it("POST /api/nics refuses a hostile hostId", async () => {
      for (const { label, value } of expand({ kind: "number", min: 1, max: MAX_ID, integer: true }).filter(
        (entry) => !entry.isAllowed,
      )) {
        expectRefused(await send("POST", "/api/nics", { hostId: value, name: unique("eth") }), "hostId", label);
      }
    });
  }
});

describe.each(Object.entries({ ...LINK_FIELDS, aNicId: null, bNicId: null }))("links: %s", (field, given) => {
  const spec: FieldSpec = given ?? { kind: "number", min: 1, max: MAX_ID, integer: true };

  it("POST /api/links refuses each hostile value naming the field, or stores it verbatim", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      // an id in range that is no NIC is a 400 of its own (covered in links' route tests)
      if (isAllowed && given === null) continue;
      const [aNicId, bNicId] = isAllowed ? spareNics : [nicA, nicB];
      const answer = await send("POST", "/api/links", { name: unique("l"), aNicId, bNicId, [field]: value });
      if (!isAllowed) {
        expectRefused(answer, field, label);
        continue;
      }
      expectStored(answer, 201, field, value === null ? 1000 : value, label);
      expect((await send("DELETE", `/api/links/${answer.body.id}`)).status).toBe(200);
    }
  });

  it("PATCH /api/links/:id refuses each hostile value and leaves the link as it was", async () => {
    for (const { label, value, isAllowed } of expand(spec)) {
      if (isAllowed && given === null) continue;
      const before = (await send("GET", `/api/links/${linkId}`)).text;
      const answer = await send("PATCH", `/api/links/${linkId}`, { [field]: value });
      if (isAllowed) {
        expectStored(answer, 200, field, value === null ? 1000 : value, label);
      } else {
        expectRefused(answer, field, label);
        expect((await send("GET", `/api/links/${linkId}`)).text, label).toBe(before);
      }
    }
    expect(
      (await send("PATCH", `/api/links/${linkId}`, { name: "alpha-beta", notes: "", speedMbps: null })).status,
    ).toBe(200);
  });
});

describe.each(Object.entries(RUN_FIELDS))("POST /api/links/:id/runs: %s", (field, spec) => {
  it("refuses each hostile value with a 400 naming the option, and starts nothing", async () => {
    const runsBefore = await runCount();
    const sent = expand(spec).filter((entry) => !entry.isAllowed);
    expect(sent.length).toBeGreaterThan(20);
    for (const { label, value } of sent) {
      expectRefused(await send("POST", `/api/links/${linkId}/runs`, { [field]: value }), field, label);
    }
    expect(await runCount()).toBe(runsBefore);
    for (const spy of engineSpies) expect(spy).not.toHaveBeenCalled();
  });
});

describe("POST /api/links/:id/runs: the request as a whole", () => {
  it("names every unknown key instead of dropping it (args, a typo, __proto__, constructor)", async () => {
    for (const [key, raw] of [
      ["args", JSON.stringify({ args: [`; touch ${MARKER}`] })],
      ["paralel", JSON.stringify({ paralel: 4 })],
      ["__proto__", '{"__proto__": {"isAdmin": true}}'],
      ["constructor", '{"constructor": {"prototype": {"isAdmin": true}}}'],
    ] as const) {
      const answer = await send("POST", `/api/links/${linkId}/runs`, undefined, raw);
      expectRefused(answer, key, key);
      expect(answer.body.error.fields[0].message).toBe("is not a known field here");
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(await runCount()).toBe(0);
  });

  it("refuses numbers beyond what JSON's doubles hold (1e400 parses to Infinity)", async () => {
    for (const field of ["duration", "parallel", "bitrate", "interval", "port"]) {
      expectRefused(await send("POST", `/api/links/${linkId}/runs`, undefined, `{"${field}": 1e400}`), field, "1e400");
      expectRefused(
        await send("POST", `/api/links/${linkId}/runs`, undefined, `{"${field}": -1e400}`),
        field,
        "-1e400",
      );
    }
  });
});

describe("every body: not an object, not JSON, too large, unknown and prototype keys", () => {
  const endpoints = (): Array<[string, string]> => [
    ["POST", "/api/hosts"],
    ["PATCH", `/api/hosts/${hostA}`],
    ["POST", "/api/nics"],
    ["PATCH", `/api/nics/${nicA}`],
    ["POST", "/api/links"],
    ["PATCH", `/api/links/${linkId}`],
    ["POST", `/api/links/${linkId}/runs`],
  ];

  it("answers 400 naming the body for JSON that is not an object, or no JSON at all", async () => {
    for (const [method, path] of endpoints()) {
      for (const raw of ["[]", '"x"', "42", "null", "true", "{", "{'a': 1}", "", "   ", `$(touch ${MARKER})`]) {
        expectRefused(await send(method, path, undefined, raw), "body", `${method} ${path} ${JSON.stringify(raw)}`);
      }
    }
  });

  it("answers 413 naming the body for 100 kB, before parsing it", async () => {
    for (const [method, path] of endpoints()) {
      const answer = await send(method, path, { notes: "n".repeat(100 * 1024) });
      expect(answer.status, `${method} ${path}`).toBe(413);
      expect(answer.body.error.fields, `${method} ${path}`).toEqual([
        { field: "body", message: "must be at most 65536 bytes" },
      ]);
      expect(answer.text).not.toContain("n".repeat(100));
    }
  });

  it("names unknown keys, including __proto__ and constructor, and pollutes no prototype", async () => {
    for (const [method, path] of endpoints()) {
      for (const [key, raw] of [
        ["__proto__", '{"__proto__": {"isAdmin": true}}'],
        ["constructor", '{"constructor": {"prototype": {"isAdmin": true}}}'],
        ["secret", '{"secret": "x"}'],
      ] as const) {
        const answer = await send(method, path, undefined, raw);
        expect(answer.status, `${method} ${path} ${key}`).toBe(400);
        expect(
          answer.body.error.fields.map((entry: { field: string }) => entry.field),
          `${method} ${path} ${key}`,
        ).toContain(key);
      }
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("takes the last of duplicated keys, and checks it", async () => {
    expectRefused(
      await send("PATCH", `/api/hosts/${hostA}`, undefined, `{"name": "alpha", "name": "$(touch ${MARKER})"}`),
      "name",
      "duplicate key",
    );
  });
});

describe("ids in the path", () => {
  const routes = (): Array<[string, string, unknown?]> => [
    ["GET", "/api/hosts/:id"],
    ["PATCH", "/api/hosts/:id", { notes: "x" }],
    ["DELETE", "/api/hosts/:id"],
    ["POST", "/api/hosts/:id/check"],
    ["POST", "/api/hosts/:id/discover"],
    ["GET", "/api/nics/:id"],
    ["PATCH", "/api/nics/:id", { mtu: 1500 }],
    ["DELETE", "/api/nics/:id"],
    ["GET", "/api/links/:id"],
    ["PATCH", "/api/links/:id", { notes: "x" }],
    ["DELETE", "/api/links/:id"],
    ["GET", "/api/links/:id/runs"],
    ["POST", "/api/links/:id/runs", { duration: 1 }],
    ["POST", "/api/links/:id/imports", { outputs: [{ text: "x" }] }],
    ["GET", "/api/runs/:id"],
    ["GET", "/api/runs/:id/samples"],
    ["GET", "/api/runs/:id/events"],
    ["POST", "/api/runs/:id/cancel"],
    ["POST", "/api/runs/:id/rerun"],
  ];
  const hostileIds = [
    ...HOSTILE_TEXT.map((entry) => [entry.label, entry.value as string] as const),
    ...([
      ["zero", "0"],
      ["negative", "-1"],
      ["fraction", "1.5"],
      ["exponent", "1e3"],
      ["hex", "0x10"],
      ["leading space", " 1"],
      ["trailing space", "1 "],
      ["plus sign", "+1"],
      ["leading zero", "01"],
      ["2^31", "2147483648"],
      ["eleven digits", "99999999999"],
      ["NaN", "NaN"],
      ["Infinity", "Infinity"],
      ["full-width digit", "\uFF11"],
      ["list", "1,2"],
      ["JSON array", "[1]"],
      ["null", "null"],
      ["true", "true"],
      ["percent-encoded NUL", "1%00"],
    ] as const),
  ];

  it("answers 400 naming id for every hostile id on every route, and changes nothing", async () => {
    const counts = async () => [
      await api.db.host.count(),
      await api.db.nic.count(),
      await api.db.link.count(),
      await runCount(),
    ];
    const before = await counts();
    for (const [method, pattern, body] of routes()) {
      for (const [label, id] of hostileIds) {
        const path = pattern.replace(":id", encodeURIComponent(id));
        expectRefused(await send(method, path, body), "id", `${method} ${pattern} ${label}`);
      }
    }
    expect(await counts()).toEqual(before);
    for (const spy of engineSpies) expect(spy).not.toHaveBeenCalled();
  });
});

describe("query strings", () => {
  const queries = (): Array<[path: string, field: string, min: number, max: number]> => [
    ["/api/nics", "hostId", 1, MAX_ID],
    [`/api/links/${linkId}/runs`, "page", 1, 1_000_000],
    [`/api/links/${linkId}/runs`, "pageSize", 1, 500],
    ["/api/runs/1/samples", "after", 0, MAX_ID],
    ["/api/runs/1/samples", "limit", 1, 10_000],
  ];
  const values = [
    ...HOSTILE_TEXT.map((entry) => [entry.label, entry.value as string] as const),
    ["minus one", "-1"],
    ["fraction", "1.5"],
    ["exponent", "1e3"],
    ["hex", "0x10"],
    ["leading space", " 1"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["eleven digits", "99999999999"],
    ["full-width digit", "\uFF11"],
    ["100 kB", "9".repeat(100 * 1024)],
  ] as const;

  it("answers 400 naming the parameter for every hostile value", async () => {
    for (const [path, field, min, max] of queries()) {
      for (const [label, value] of values) {
        const isAllowed = /^[0-9]+$/.test(value) && Number(value) >= min && Number(value) <= max;
        if (isAllowed) continue;
        expectRefused(await send("GET", `${path}?${field}=${encodeURIComponent(value)}`), field, `${path} ${label}`);
      }
      expectRefused(await send("GET", `${path}?${field}=${min - 1}`), field, `${path} below ${min}`);
      expectRefused(await send("GET", `${path}?${field}=${max + 1}`), field, `${path} above ${max}`);
    }
  });

  it("ignores a hostile Last-Event-ID on the event stream (it only says where to resume)", async () => {
    for (const [label, value] of values.filter(([, text]) => !/[\r\n\0]/.test(text) && text.length < 1000)) {
      const byQuery = await send("GET", `/api/runs/999/events?lastEventId=${encodeURIComponent(value)}`);
      expect(byQuery.status, label).toBe(404);
      expect(byQuery.text).not.toContain(MARKER);
    }
  });
});

describe("server actions' validation (the schemas and parsers they share with these routes)", () => {
  function expectInvalid(run: () => unknown, field: string, label: string): void {
    let thrown: unknown;
    try {
      run();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `${field} = ${label}`).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect(error.kind).toBe("invalid");
    expect(error.fields.length, `${field} = ${label}`).toBeGreaterThan(0);
    for (const entry of error.fields)
      expect(entry.field === field || entry.field.startsWith(`${field}.`), `${field} = ${label}: ${entry.field}`).toBe(
        true,
      );
    expect(error.message).not.toContain(MARKER);
  }

  it("createHostAction and updateHostAction: HostCreateSchema and HostUpdateSchema", () => {
    for (const [field, spec] of Object.entries(HOST_FIELDS)) {
      for (const { label, value, isAllowed } of expand(spec)) {
        if (isAllowed) continue;
        expectInvalid(
          () =>
            parseInput(HostCreateSchema, bodyWith({ name: "h", address: "198.18.0.10", auth: keyAuth }, field, value)),
          field,
          label,
        );
        expectInvalid(() => parseInput(HostUpdateSchema, bodyWith({}, field, value)), field, label);
      }
    }
  });

  it("NIC and link forms: NicCreateSchema, NicUpdateSchema, LinkCreateSchema and LinkUpdateSchema", () => {
    for (const [field, spec] of Object.entries(NIC_FIELDS)) {
      for (const { label, value, isAllowed } of expand(spec)) {
        if (isAllowed) continue;
        expectInvalid(() => parseInput(NicCreateSchema, { hostId: 1, name: "eth0", [field]: value }), field, label);
        expectInvalid(() => parseInput(NicUpdateSchema, { [field]: value }), field, label);
      }
    }
    for (const [field, spec] of Object.entries(LINK_FIELDS)) {
      for (const { label, value, isAllowed } of expand(spec)) {
        if (isAllowed) continue;
        expectInvalid(
          () => parseInput(LinkCreateSchema, { name: "l", aNicId: 1, bNicId: 2, [field]: value }),
          field,
          label,
        );
        expectInvalid(() => parseInput(LinkUpdateSchema, { [field]: value }), field, label);
      }
    }
  });

  it("the host id of check, discover, delete and update: IdSchema as hostId", () => {
    for (const { label, value, isAllowed } of expand({ kind: "number", min: 1, max: MAX_ID, integer: true })) {
      if (isAllowed) continue;
      expectInvalid(() => parseInput(IdSchema, value, "hostId"), "hostId", label);
    }
  });

  it("startRun: parseRunRequest", () => {
    for (const [field, spec] of Object.entries(RUN_FIELDS)) {
      for (const { label, value, isAllowed } of expand(spec)) {
        if (isAllowed) continue;
        expectInvalid(() => parseRunRequest({ [field]: value }), field, label);
      }
    }
    for (const body of [null, [], "x", 42]) expectInvalid(() => parseRunRequest(body), "body", JSON.stringify(body));
  });
});

describe("after all of it", () => {
  it("no run was recorded, the engine was never called, and no shell ran anything", async () => {
    expect(await runCount()).toBe(0);
    for (const spy of engineSpies) expect(spy).not.toHaveBeenCalled();
    expect(fs.existsSync(MARKER)).toBe(false);
  });
});
