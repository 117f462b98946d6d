/**
 * No request body can make a 500: generated bodies (wrong types, nulls, missing and unknown fields,
 * huge numbers, deep nesting, long strings, every enum value and some that are not) sent to every
 * POST and PATCH route of the REST API, on a real migrated SQLite database. Each answer is a 2xx,
 * or a 4xx whose error has a code and a message, and names the fields at fault when it is a 400.
 *
 * The routes are loaded as a built server has them: the services that instrumentation.ts starts
 * (the run engine, the experiment runner, the scheduler, the alert watcher, kept on globalThis)
 * come from one copy of lib/, the route handlers from another (openTestApi's `separateServices`).
 *
 * Where a body is accepted, nothing it names is ever contacted beyond loopback: the hosts that
 * runs, checks and experiments reach are at 127.0.0.1 on port 1 (refused at once), every id a
 * generated body can name is one of the rows made below or one that does not exist, and the rows
 * a generated body may change (host C's address, a NIC's, a channel's URL) are never contacted.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EXPERIMENT_KINDS, SWEEP_FACTORS } from "@/lib/experiments/contract";
import { CHANNEL_TYPES, EMAIL_SECURITY } from "@/lib/notify/contract";
import { SAMPLE_KEYS, openTestApi, type TestApi } from "@/testing/test-api";

/** Generated bodies per route: enough to meet every field with most kinds of value, in seconds. */
const RUNS_PER_ROUTE = Number(process.env.WIRESPEED_PROPERTY_RUNS ?? 80);

let api: TestApi;
const log: string[] = [];
const ids = {
  hostA: 0,
  hostB: 0,
  hostC: 0,
  nicA: 0,
  nicB: 0,
  nicC: 0,
  spareA: 0,
  spareB: 0,
  link: 0,
  link2: 0,
  run: 0,
  channel: 0,
  patchChannel: 0,
  rule: 0,
  schedule: 0,
  experiment: 0,
};

// ------------------------------------------------------------------ values

/** Ids that no row has, and path segments that are not ids at all. */
const MISSING_ID = fc.constantFrom(0, -1, 1.5, 2_147_483_647, 2_147_483_648, 9_007_199_254_740_993, 1e308, 10_000_000);
const BAD_PATH_ID = fc.constantFrom(
  "0",
  "-1",
  "1.5",
  "abc",
  "1e3",
  "0x10",
  "99999999999999999999",
  "%20",
  " 1",
  "1;rm",
);

const HOSTILE_STRINGS = [
  "",
  " ",
  "TCP",
  "sctp",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e400",
  "$(touch /tmp/wirespeed-property)",
  "; reboot",
  "'\"`",
  "line\nbreak",
  "nul\u0000byte",
  "\u202Eright-to-left",
  "🚀",
  "../../etc/passwd",
  "-oProxyCommand=id",
];

/** One level of nesting 64 deep: a server must not recurse or choke on it. */
const deep = (leaf: unknown, depth = 64): unknown => (depth === 0 ? leaf : { a: deep(leaf, depth - 1), b: [leaf] });

/** Anything a field can be sent as, but small positive integers (they would be ids of real rows). */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  // once in a while, more than a request may carry (413) or a structure 200 deep
  { weight: 1, arbitrary: fc.constantFrom("é".repeat(70_000), deep("x", 200)) },
  {
    weight: 15,
    arbitrary: fc.oneof(
      fc.constantFrom(
        null,
        true,
        false,
        0,
        -1,
        -0,
        0.5,
        1e308,
        -1e308,
        Number.MAX_SAFE_INTEGER,
        2 ** 53 + 2,
        2 ** 31,
        1e-300,
      ),
      fc.integer({ min: 10_000_000 }),
      fc.integer({ max: -1 }),
      fc.double({ noNaN: true }),
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.string({ maxLength: 40 }),
      fc.constantFrom("x".repeat(5_000), "9".repeat(400)),
      fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(null, -1, 1e308)), { maxLength: 5 }),
      fc.constantFrom([], {}, [[]], { "": null }, { constructor: "x" }, deep(null)),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)), {
        maxKeys: 4,
      }),
    ),
  },
);

const text = (...values: string[]) => fc.constantFrom("nas1", "Link A", "fast one", ...values);
const fromSet = <T>(values: readonly T[]) => fc.constantFrom(...values);
const someOf = <T>(values: readonly T[]) => fc.subarray([...values]);
const int = (min: number, max: number) => fc.integer({ min, max });
const bool = fc.boolean();

/** A link id of the two rows made below, or one that does not exist. */
const linkId = () => fc.oneof(fc.constantFrom(ids.link, ids.link2), MISSING_ID);

/** The run options as POST /api/links/:id/runs takes them, every enum value included. */
function runOptions(): Record<string, fc.Arbitrary<unknown>> {
  return {
    protocol: fromSet(["tcp", "udp"]),
    duration: int(1, 5),
    bytes: fc.constantFrom(1, 1_000_000, "1M"),
    parallel: int(1, 128),
    direction: fromSet(["a-to-b", "b-to-a", "bidir"]),
    clientSide: fromSet(["a", "b"]),
    bitrate: fc.constantFrom(0, 1_000_000, 10_000_000_000),
    omit: int(0, 3),
    window: fc.constantFrom(65_536, 4_194_304),
    mss: int(88, 9216),
    length: int(1, 1_048_576),
    zerocopy: bool,
    congestion: fromSet(["cubic", "bbr", "reno"]),
    interval: fc.constantFrom(0.1, 1, 60),
    tos: int(0, 255),
    port: int(5201, 5299),
    affinity: fromSet(["2", "2,3"]),
    latency: bool,
    reverse: bool,
    bidir: bool,
  };
}

const UNKNOWN_KEYS = ["extra", "__proto__", "constructor", "id", "createdAt", "secret", "x".repeat(300)];

/** Sets `key` as an own property, even `__proto__` (as JSON.parse would). */
function withKey(body: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * An object of `fields` (those in `required` always, the others or not), each with a value it
 * allows; then, in most bodies, one or two of them given anything else, an unknown key added,
 * or a field left out. One wrong thing at a time reaches deeper than a body wrong everywhere.
 */
function objectOf(
  fields: Record<string, fc.Arbitrary<unknown>>,
  required: string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(fields);
  const changes = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Array<[string, unknown]>>([]) },
    { weight: 4, arbitrary: fc.array(fc.tuple(fc.constantFrom(...keys), hostile), { minLength: 1, maxLength: 2 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fc.constantFrom(...UNKNOWN_KEYS), hostile), { minLength: 1, maxLength: 2 }),
    },
  );
  const leftOut = fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...keys) },
  );
  return fc.tuple(fc.record(fields, { requiredKeys: required }), changes, leftOut).map(([valid, replaced, dropped]) => {
    const body: Record<string, unknown> = { ...valid };
    for (const [key, value] of replaced) withKey(body, key, value);
    if (dropped !== null) delete body[dropped];
    return body;
  });
}

/** A body: mostly an object of the route's fields, sometimes anything at all (null, a number, an array, text). */
function bodyOf(object: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: object },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
    { weight: 1, arbitrary: hostile },
  );
}

const hostFields = (): Record<string, fc.Arbitrary<unknown>> => ({
  name: text(),
  address: fc.constantFrom("127.0.0.1", "::1", "localhost"),
  port: fc.constantFrom(1, 22, 65_535),
  username: text("root", "DOMAIN\\user", "user@domain"),
  auth: fc.oneof(
    fc.constant({ method: "password", password: "secret" }),
    fc.constant({ method: "key", privateKey: SAMPLE_KEYS.openssh }),
    fc.constant({ method: "key", privateKey: SAMPLE_KEYS.rsaEncrypted, passphrase: "p" }),
    objectOf({
      method: fromSet(["password", "key", "agent", "none"]),
      password: text(),
      privateKey: text(SAMPLE_KEYS.pkcs8),
      passphrase: text(),
    }),
  ),
  platform: fromSet(["linux", "esxi", "windows", "macos", "freebsd", "unknown", "Linux", "truenas"]),
  iperf3Path: fc.constantFrom(null, "/usr/bin/iperf3", "C:\\iperf3\\iperf3.exe", "iperf3"),
  hostKeyFingerprint: fc.constantFrom(null, `SHA256:${"A".repeat(43)}`, "SHA256:short", "MD5:aa"),
  iperfPortMin: int(1, 65_535),
  iperfPortMax: int(1, 65_535),
  openFirewall: bool,
  notes: text("", "a\tb\nc"),
});

const nicFields = (hostIds: number[]): Record<string, fc.Arbitrary<unknown>> => ({
  hostId: fc.oneof(fc.constantFrom(...hostIds), MISSING_ID),
  name: text("eth0", "vmnic4", "Ethernet 2"),
  address: fc.constantFrom(null, "127.0.0.1", "127.0.0.2/8", "::1", "fd00::1/64", "256.1.1.1"),
  addresses: fc.array(fc.constantFrom("127.0.0.3", "fd00::3/64"), { maxLength: 17 }),
  speedMbps: fc.constantFrom(null, 1, 1000, 100_000, 1_000_000, 1_000_001),
  mtu: fc.constantFrom(null, 68, 1500, 9000, 65_535, 65_536),
  model: fc.constantFrom(null, "Intel X710"),
  driver: fc.constantFrom(null, "ixgbe", "i40e"),
  mac: fc.constantFrom(null, "00:11:22:33:44:55", "00-11-22-33-44-55"),
  pcieLinkSpeed: fc.constantFrom(null, "8.0 GT/s PCIe"),
  pcieLinkWidth: fc.constantFrom(null, 1, 8, 32, 33),
});

/** A note and labels, as PATCH /api/runs/:id, /api/experiments/:id and /api/links/:id take them. */
const noteFields = (): Record<string, fc.Arbitrary<unknown>> => ({
  note: text("", "after moving the card to slot 2", "a\tb\nc", "nul\u0000byte", "x".repeat(2001)),
  labels: fc.oneof(
    fc.array(fc.constantFrom("dac", "DAC", "slot-2", " jumbo ", "new dac", "a,b", "", "x".repeat(41)), {
      maxLength: 4,
    }),
    fc.constant(Array.from({ length: 21 }, (_, index) => `l${index}`)),
  ),
});

const linkFields = (): Record<string, fc.Arbitrary<unknown>> => ({
  name: text(),
  aNicId: fc.oneof(fc.constantFrom(ids.spareA, ids.nicA, ids.nicC), MISSING_ID),
  bNicId: fc.oneof(fc.constantFrom(ids.spareB, ids.nicB), MISSING_ID),
  speedMbps: fc.constantFrom(null, 1, 1000, 1_000_000),
  notes: text(""),
  baselineRuns: int(1, 100),
  importsInBaseline: bool,
  homeAssistantRunButton: bool,
});

/** An experiment request of each kind with its own fields, and of kinds that do not exist. */
const experimentBody = (): fc.Arbitrary<Record<string, unknown>> => {
  const common = { name: text(""), options: objectOf(runOptions()) };
  const oneLink = fc.oneof(
    { weight: 4, arbitrary: fc.constant([ids.link]) },
    { weight: 1, arbitrary: fc.array(linkId(), { maxLength: 3 }) },
  );
  const twoLinks = fc.oneof(
    { weight: 4, arbitrary: fc.constant([ids.link, ids.link2]) },
    { weight: 1, arbitrary: fc.array(linkId(), { maxLength: 3 }) },
  );
  const kinds = {
    sweep: {
      linkIds: oneLink,
      factor: fromSet([...SWEEP_FACTORS, "streams"]),
      values: fc.array(fc.oneof(int(1, 16), fromSet(["cubic", "bbr"]), bool), { maxLength: 4 }),
      repeats: int(1, 10),
      kneePercent: int(1, 100),
    },
    matrix: {
      linkIds: oneLink,
      directions: someOf(["a-to-b", "b-to-a", "bidir"]),
      protocols: someOf(["tcp", "udp"]),
      clientSides: someOf(["a", "b"]),
    },
    concurrent: { linkIds: twoLinks, baseline: bool },
    channels: { linkIds: oneLink, channels: int(2, 16), affinity: bool },
    "udp-ceiling": {
      linkIds: oneLink,
      lossPercent: fc.constantFrom(0.1, 1, 5),
      low: fc.constantFrom(1_000_000, 10_000_000),
      high: fc.constantFrom(100_000_000, 1_000_000_000),
    },
    mesh: {
      linkIds: twoLinks,
      hostIds: fc.oneof(
        fc.constant(null),
        fc.constant([ids.hostA, ids.hostB]),
        fc.array(fc.oneof(fc.constantFrom(ids.hostA, ids.hostB, ids.hostC), MISSING_ID), { maxLength: 3 }),
      ),
    },
    interference: { linkIds: twoLinks },
    versus: {
      linkIds: fc.oneof(oneLink, twoLinks),
      variants: fc.constantFrom(
        null,
        [
          { name: "cubic", options: { congestion: "cubic" } },
          { name: "bbr", options: { congestion: "bbr" } },
        ],
        [{ name: "", options: { parallel: 0 } }],
      ),
      repeats: int(1, 21),
    },
  } satisfies Record<(typeof EXPERIMENT_KINDS)[number], Record<string, fc.Arbitrary<unknown>>>;
  return fc.oneof(
    ...Object.entries(kinds).map(([kind, fields]) =>
      objectOf({ kind: fc.constant(kind), ...common, ...fields }, ["kind", "linkIds"]),
    ),
    objectOf({ kind: fromSet(["grid", "Sweep", ""]), linkIds: oneLink, ...common }),
  );
};

/** A schedule of a link's test or of an experiment, started by cron or every N minutes (and both, or neither). */
const scheduleBody = (patch: boolean): fc.Arbitrary<Record<string, unknown>> => {
  const common = {
    name: text(),
    timezone: fc.constantFrom("UTC", "Europe/Paris", "Mars/Olympus"),
    slipSeconds: int(0, 3600),
    enabled: bool,
  };
  const what: Array<Record<string, fc.Arbitrary<unknown>>> = [
    {
      linkId: linkId(),
      options: objectOf(runOptions()),
      direction: fromSet(["a-to-b", "b-to-a", "bidir"]),
      clientSide: fromSet(["a", "b"]),
    },
    { experimentPlan: experimentBody() },
  ];
  const when: Array<Record<string, fc.Arbitrary<unknown>>> = [
    { cron: fc.constantFrom("0 3 * * *", "*/5 * * * *", "0 0 3 * * *", "@daily", "61 * * * *", "not cron") },
    { everyMinutes: fc.constantFrom(1, 60, 10_080, 10_081) },
  ];
  return fc.oneof(
    ...what.flatMap((fields) =>
      when.map((timing) =>
        objectOf(
          { ...common, ...fields, ...timing },
          patch ? [] : ["name", Object.keys(fields)[0]!, Object.keys(timing)[0]!],
        ),
      ),
    ),
  );
};

const alertRuleFields = (): Record<string, fc.Arbitrary<unknown>> => ({
  name: text(),
  linkId: fc.oneof(linkId(), fc.constant(null)),
  belowBaselinePercent: fc.constantFrom(null, 1, 50, 100),
  belowLineRatePercent: fc.constantFrom(null, 1, 50, 100),
  failed: bool,
  m: int(1, 20),
  n: int(1, 20),
  channelIds: fc.array(fc.oneof(fc.constant(ids.patchChannel), MISSING_ID), { maxLength: 2 }),
  enabled: bool,
});

/** A channel of each type with its own config, and of a type that does not exist: every URL and mail host is loopback, and is never sent to. */
const channelBody = (patch: boolean): fc.Arbitrary<Record<string, unknown>> => {
  const url = fc.constantFrom(
    "http://127.0.0.1:1/hook",
    "https://[::1]:1/x",
    "ftp://127.0.0.1/",
    "http://169.254.169.254/",
  );
  const configs = {
    webhook: objectOf({ url, secret: text() }, ["url"]),
    ntfy: objectOf({ url, token: text("tk_123") }, ["url"]),
    discord: objectOf({ url }, ["url"]),
    slack: objectOf({ url }, ["url"]),
    gotify: objectOf({ url, token: text("tk_123") }, ["url", "token"]),
    email: objectOf(
      {
        host: fc.constantFrom("127.0.0.1", "localhost"),
        port: fc.constantFrom(1, 25, 587),
        security: fromSet([...EMAIL_SECURITY, "ssl"]),
        username: text(),
        password: text(),
        from: fc.constantFrom("wirespeed@lab.test", "not an address"),
        to: fc.constantFrom("ops@lab.test", "a@lab.test, b@lab.test", "x"),
        insecureTls: bool,
      },
      ["host", "port", "security", "from", "to"],
    ),
  } satisfies Record<(typeof CHANNEL_TYPES)[number], fc.Arbitrary<unknown>>;
  const required = patch ? [] : ["name", "type", "config"];
  return fc.oneof(
    ...Object.entries(configs).map(([type, config]) =>
      objectOf({ name: text(), type: fc.constant(type), config }, required),
    ),
    objectOf({ name: text(), type: fromSet(["pagerduty", "Webhook"]), config: configs.webhook }, required),
  );
};

const importBody = (): fc.Arbitrary<Record<string, unknown>> =>
  objectOf(
    {
      outputs: fc.array(
        objectOf(
          {
            text: fc.constantFrom(
              "",
              "Connecting to host 127.0.0.1, port 5201\n[  5]   0.00-1.00   sec   112 MBytes   940 Mbits/sec\n",
              '{"start":{},"intervals":[],"end":{}}',
              "{",
              "not iperf3 at all",
            ),
            startedAt: fc.constantFrom(
              "2026-01-01T00:00:00Z",
              "2026-01-01T00:00:00+02:00",
              "yesterday",
              "2026-13-01T00:00:00Z",
            ),
            name: text(""),
            clientSide: fromSet(["a", "b", "c"]),
          },
          ["text"],
        ),
        { maxLength: 3 },
      ),
    },
    ["outputs"],
  );

// ------------------------------------------------------------------ the routes

type RouteCase = { paths: () => fc.Arbitrary<string>; body: () => fc.Arbitrary<unknown> };

const pathWith = (prefix: string, suffix: string, existing: () => number[]) => () =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.constantFrom(...existing()).map(String) },
      { weight: 1, arbitrary: fc.oneof(MISSING_ID.map(String), BAD_PATH_ID) },
    )
    .map((id) => `${prefix}/${id}${suffix}`);
const fixed = (pathname: string) => () => fc.constant(pathname);
/** Routes that contact a host or a channel get only ids of rows that do not exist, or malformed ones. */
const missingOnly = (prefix: string, suffix: string) => () =>
  fc.oneof(MISSING_ID.map(String), BAD_PATH_ID).map((id) => `${prefix}/${id}${suffix}`);
const anyBody = () => fc.oneof(fc.constant(undefined), hostile, fc.anything({ maxDepth: 2 }));

/** Every POST and PATCH route, by `METHOD /api/path/:id`: the test below checks that none is missing. */
const ROUTES: Record<string, RouteCase> = {
  "POST /api/hosts": {
    paths: fixed("/api/hosts"),
    body: () => bodyOf(objectOf(hostFields(), ["name", "address", "auth"])),
  },
  "PATCH /api/hosts/:id": {
    paths: pathWith("/api/hosts", "", () => [ids.hostC]),
    body: () => bodyOf(objectOf(hostFields())),
  },
  "POST /api/hosts/:id/check": { paths: missingOnly("/api/hosts", "/check"), body: anyBody },
  "POST /api/hosts/:id/discover": { paths: missingOnly("/api/hosts", "/discover"), body: anyBody },
  "POST /api/nics": {
    paths: fixed("/api/nics"),
    body: () => bodyOf(objectOf(nicFields([ids.hostC]), ["hostId", "name"])),
  },
  "PATCH /api/nics/:id": {
    paths: pathWith("/api/nics", "", () => [ids.nicC]),
    body: () => bodyOf(objectOf(nicFields([ids.hostC, ids.hostA]))),
  },
  "POST /api/links": {
    paths: fixed("/api/links"),
    body: () => bodyOf(objectOf(linkFields(), ["name", "aNicId", "bNicId"])),
  },
  "PATCH /api/links/:id": {
    paths: pathWith("/api/links", "", () => [ids.link2]),
    body: () => bodyOf(objectOf({ ...linkFields(), ...noteFields() })),
  },
  "POST /api/links/:id/runs": {
    paths: pathWith("/api/links", "/runs", () => [ids.link, ids.link2]),
    body: () => bodyOf(objectOf(runOptions())),
  },
  "POST /api/links/:id/imports": {
    paths: pathWith("/api/links", "/imports", () => [ids.link2]),
    body: () => bodyOf(importBody()),
  },
  "POST /api/links/:id/listen": {
    // Neither link joins a device: each answer is a 4xx, a bad timeoutSeconds named or the link refused.
    paths: pathWith("/api/links", "/listen", () => [ids.link, ids.link2]),
    body: () =>
      bodyOf(
        objectOf({
          timeoutSeconds: fc.oneof(
            fc.integer({ min: -10, max: 4000 }),
            fc.double(),
            fc.string(),
            fc.constant(null),
            fc.constant(300),
          ),
        }),
      ),
  },
  "PATCH /api/runs/:id": {
    paths: pathWith("/api/runs", "", () => [ids.run]),
    body: () => bodyOf(objectOf(noteFields())),
  },
  "POST /api/runs/:id/cancel": { paths: pathWith("/api/runs", "/cancel", () => [ids.run]), body: anyBody },
  "POST /api/runs/:id/rerun": { paths: pathWith("/api/runs", "/rerun", () => [ids.run]), body: anyBody },
  "POST /api/experiments": { paths: fixed("/api/experiments"), body: () => bodyOf(experimentBody()) },
  "PATCH /api/experiments/:id": {
    paths: pathWith("/api/experiments", "", () => [ids.experiment]),
    body: () => bodyOf(objectOf(noteFields())),
  },
  "POST /api/experiments/:id/cancel": {
    paths: pathWith("/api/experiments", "/cancel", () => [ids.experiment]),
    body: anyBody,
  },
  "POST /api/experiments/:id/rerun": {
    paths: pathWith("/api/experiments", "/rerun", () => [ids.experiment]),
    body: anyBody,
  },
  "POST /api/schedules": { paths: fixed("/api/schedules"), body: () => bodyOf(scheduleBody(false)) },
  "PATCH /api/schedules/:id": {
    paths: pathWith("/api/schedules", "", () => [ids.schedule]),
    body: () => bodyOf(scheduleBody(true)),
  },
  "POST /api/alert-rules": {
    paths: fixed("/api/alert-rules"),
    body: () => bodyOf(objectOf(alertRuleFields(), ["name", "linkId"])),
  },
  "PATCH /api/alert-rules/:id": {
    paths: pathWith("/api/alert-rules", "", () => [ids.rule]),
    body: () => bodyOf(objectOf(alertRuleFields())),
  },
  "POST /api/alerts/:id/ack": { paths: pathWith("/api/alerts", "/ack", () => [1]), body: anyBody },
  "POST /api/channels": { paths: fixed("/api/channels"), body: () => bodyOf(channelBody(false)) },
  "PATCH /api/channels/:id": {
    paths: pathWith("/api/channels", "", () => [ids.patchChannel]),
    body: () => bodyOf(channelBody(true)),
  },
  "POST /api/channels/:id/test": { paths: missingOnly("/api/channels", "/test"), body: anyBody },
  "POST /api/shares": {
    paths: fixed("/api/shares"),
    body: () =>
      bodyOf(
        objectOf(
          {
            kind: fc.constantFrom("run", "experiment", "link", "host", ""),
            id: fc.oneof(fc.constantFrom(ids.run, ids.experiment, ids.link), MISSING_ID),
            expiresInDays: fc.oneof(int(-1, 400), fc.constant(null), fc.double()),
            hideAddresses: bool,
          },
          ["kind", "id"],
        ),
      ),
  },
};

/** `POST /api/hosts/:id/check` for each POST and PATCH a route.ts under app/api exports. */
function routesOfTheApp(): string[] {
  const apiDir = path.resolve(__dirname, "../../app/api");
  const files = fs
    .readdirSync(apiDir, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts");
  return files.flatMap((file) => {
    const source = fs.readFileSync(path.join(apiDir, file), "utf8");
    const route = `/api/${path.dirname(file).split(path.sep).join("/")}`.replaceAll("[id]", ":id");
    return [...source.matchAll(/export (?:const|async function) (POST|PATCH|PUT)\b/g)].map(
      ([, method]) => `${method} ${route}`,
    );
  });
}

// ------------------------------------------------------------------ the check

type Answer = {
  status: number;
  text: string;
  body: { error?: { code?: unknown; message?: unknown; fields?: unknown } } | null;
};

async function send(method: string, pathname: string, body: unknown): Promise<Answer> {
  const rawBody = body === undefined ? undefined : JSON.stringify(body);
  const response = await api.call(method, pathname, undefined, rawBody === undefined ? {} : { rawBody });
  const text = await response.text();
  let parsed: Answer["body"] = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, text, body: parsed };
}

/** A 2xx, or a 4xx with a code and a message; a 400 also names each field at fault, and its message names them. */
function expectAnswered(answer: Answer, what: string): void {
  const shown = `${what} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, shown).toBeGreaterThanOrEqual(200);
  expect(answer.status, shown).toBeLessThan(500);
  expect(answer.body, shown).not.toBeNull();
  if (answer.status < 300) return;
  expect(answer.status, shown).toBeGreaterThanOrEqual(400);
  const error = answer.body?.error;
  expect(typeof error?.code, shown).toBe("string");
  expect(typeof error?.message, shown).toBe("string");
  if (answer.status !== 400) return;
  const fields = error?.fields as Array<{ field?: unknown; message?: unknown }> | undefined;
  expect(Array.isArray(fields) && fields.length > 0, shown).toBe(true);
  for (const entry of fields ?? []) {
    expect(typeof entry.field === "string" && entry.field.length > 0, shown).toBe(true);
    expect(typeof entry.message === "string" && entry.message.length > 0, shown).toBe(true);
    expect(String(error?.message), shown).toContain(String(entry.field).slice(0, 64));
  }
}

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void log.push(args.map(String).join(" ")));
  api = await openTestApi({ separateServices: true });
  const created = async (pathname: string, body: unknown): Promise<number> => {
    const answer = await api.json("POST", pathname, body);
    expect(answer.status, `${pathname}: ${answer.text}`).toBeLessThan(300);
    return answer.body.id ?? answer.body.channel?.id ?? answer.body.rule?.id ?? answer.body.schedule?.id;
  };
  const auth = { method: "password", password: "not-a-real-one" };
  ids.hostA = await created("/api/hosts", { name: "alpha", address: "127.0.0.1", port: 1, auth });
  ids.hostB = await created("/api/hosts", { name: "beta", address: "127.0.0.1", port: 1, auth });
  ids.hostC = await created("/api/hosts", { name: "gamma", address: "127.0.0.1", port: 1, auth });
  ids.nicA = await created("/api/nics", { hostId: ids.hostA, name: "eth0", address: "127.0.0.1", speedMbps: 1000 });
  ids.nicB = await created("/api/nics", { hostId: ids.hostB, name: "eth0", address: "127.0.0.2", speedMbps: 1000 });
  ids.nicC = await created("/api/nics", { hostId: ids.hostC, name: "eth0", address: "127.0.0.3", speedMbps: 1000 });
  ids.spareA = await created("/api/nics", { hostId: ids.hostA, name: "eth1", address: "127.0.1.1", speedMbps: 1000 });
  ids.spareB = await created("/api/nics", { hostId: ids.hostB, name: "eth1", address: "127.0.1.2", speedMbps: 1000 });
  ids.link = await created("/api/links", { name: "alpha-beta", aNicId: ids.nicA, bNicId: ids.nicB });
  ids.link2 = await created("/api/links", { name: "alpha-beta 2", aNicId: ids.spareA, bNicId: ids.spareB });
  ids.channel = await created("/api/channels", {
    name: "hook",
    type: "webhook",
    config: { url: "http://127.0.0.1:1/hook" },
  });
  ids.patchChannel = await created("/api/channels", {
    name: "hook 2",
    type: "webhook",
    config: { url: "http://127.0.0.1:1/other" },
  });
  ids.rule = await created("/api/alert-rules", { name: "slow", linkId: ids.link, belowLineRatePercent: 50 });
  ids.schedule = await created("/api/schedules", {
    name: "nightly",
    linkId: ids.link,
    everyMinutes: 60,
    enabled: false,
  });
  // A run and an experiment to cancel and re-run: they fail at once (nothing listens on 127.0.0.1:1).
  ids.run = await created(`/api/links/${ids.link}/runs`, { duration: 1 });
  ids.experiment = await created("/api/experiments", {
    kind: "sweep",
    linkIds: [ids.link],
    factor: "parallel",
    values: [1, 2],
    options: { duration: 1 },
  });
  log.length = 0;
}, 60_000);

afterAll(async () => {
  // Let the runs and experiments the accepted bodies started end (each fails at once) before the database goes.
  for (let wait = 0; wait < 100 && api; wait += 1) {
    const active =
      (await api.db.run.count({ where: { status: { in: ["queued", "preparing", "running"] } } })) +
      (await api.db.experiment.count({ where: { status: { in: ["queued", "running"] } } }));
    if (active === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await api?.close();
  vi.restoreAllMocks();
});

describe("request bodies", () => {
  it("cover every POST and PATCH route of the app", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(routesOfTheApp().sort());
  });

  it("answers the bodies the issue reported as 500 with a 400 naming the field", async () => {
    log.length = 0;
    const one = await send("POST", "/api/experiments", {
      kind: "concurrent",
      linkIds: [ids.link],
      options: { duration: 3 },
    });
    expectAnswered(one, "concurrent with one link");
    expect(one.status).toBe(400);
    expect(one.body?.error?.fields).toEqual([expect.objectContaining({ field: "linkIds" })]);
    for (const body of [{ duration: 0 }, { linkIds: {}, kind: "sweep" }]) {
      const answer = await send("POST", "/api/experiments", body);
      expectAnswered(answer, JSON.stringify(body));
      expect(answer.status).toBe(400);
    }
    expect(log).toEqual([]);
  });

  it("answers issue 28's bad experiments with a 400 naming the field, and starts nothing", async () => {
    log.length = 0;
    const before = await api.db.experiment.count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: "mesh", linkIds: [ids.link] }, "linkIds"],
      [{ kind: "mesh", hostIds: [ids.hostA, ids.hostC] }, "hostIds"],
      [{ kind: "mesh", linkIds: [ids.link, ids.link2], hostIds: [ids.hostA, ids.hostB] }, "hostIds"],
      [{ kind: "interference", linkIds: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, "linkIds"],
      [{ kind: "versus", linkIds: [ids.link, ids.link2, ids.link + ids.link2] }, "linkIds"],
      [
        {
          kind: "versus",
          linkIds: [ids.link],
          variants: [
            { name: "cubic", options: {} },
            { name: "bbr", options: {} },
            { name: "reno", options: {} },
          ],
        },
        "variants",
      ],
      [
        {
          kind: "versus",
          linkIds: [ids.link],
          variants: [
            { name: "cubic", options: {} },
            { name: "bad", options: { congestion: "no such thing!" } },
          ],
        },
        "variants[1].options.congestion",
      ],
    ];
    for (const [body, field] of cases) {
      const answer = await send("POST", "/api/experiments", { options: { duration: 1 }, ...body });
      expectAnswered(answer, JSON.stringify(body));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body?.error?.fields, JSON.stringify(body)).toEqual([expect.objectContaining({ field })]);
    }
    expect(await api.db.experiment.count()).toBe(before);
    expect(log).toEqual([]);
  });

  it("answers a bad note or label on a run, an experiment and a link with a 400 naming it", async () => {
    log.length = 0;
    const cases: Array<[unknown, string]> = [
      [{ note: 5 }, "note"],
      [{ note: "x".repeat(2001) }, "note"],
      [{ note: "bell\u0007" }, "note"],
      [{ labels: "dac" }, "labels"],
      [{ labels: ["new dac"] }, "labels.0"],
      [{ labels: ["ok", ""] }, "labels.1"],
      [{ labels: Array.from({ length: 21 }, (_, index) => `l${index}`) }, "labels"],
    ];
    for (const pathname of [`/api/runs/${ids.run}`, `/api/experiments/${ids.experiment}`, `/api/links/${ids.link}`]) {
      for (const [body, field] of cases) {
        const what = `PATCH ${pathname} ${JSON.stringify(body).slice(0, 80)}`;
        const answer = await send("PATCH", pathname, body);
        expectAnswered(answer, what);
        expect(answer.status, what).toBe(400);
        expect(answer.body?.error?.fields, what).toEqual([expect.objectContaining({ field })]);
      }
    }
    const empty = await send("PATCH", `/api/runs/${ids.run}`, {});
    expectAnswered(empty, "PATCH run {}");
    expect(empty.status).toBe(400);
    const saved = await send("PATCH", `/api/runs/${ids.run}`, { note: "new DAC", labels: ["DAC", "slot-2", "dac"] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ id: ids.run, note: "new DAC", labels: ["dac", "slot-2"] });
    expect(log).toEqual([]);
  });

  it.each(Object.keys(ROUTES))("%s: a 2xx or a 4xx naming the field, never a 5xx", async (route) => {
    const [method = "", pattern = ""] = route.split(" ");
    const { paths, body } = ROUTES[route]!;
    log.length = 0;
    await fc.assert(
      fc.asyncProperty(paths(), body(), async (pathname, value) => {
        const what = `${method} ${pathname} ${JSON.stringify(value)?.slice(0, 300)}`;
        expect(pathname.startsWith(pattern.split("/:id")[0]!)).toBe(true);
        expectAnswered(await send(method, pathname, value), what);
        expect(log, what).toEqual([]);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
  });
});
