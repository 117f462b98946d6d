import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { withApiAuth } from "@/lib/api/auth";
import { SAMPLE_KEYS, TEST_API_TOKEN, openTestApi, type TestApi } from "@/testing/test-api";
import { insertSweepExperiment } from "@/testing/sweep-experiment";
import { userWithToken } from "@/testing/user-tokens";
import { AppError } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import { updateUser } from "@/lib/auth/users";
import { createApiToken, revokeApiToken } from "@/lib/auth/tokens";
import { createSession } from "@/lib/auth/sessions";

// The REST API's permission check, on a real database with real users, sessions and tokens.

let api: TestApi;
/** A short iperf3 3.12 client output, for the import mutation. */
const IPERF3_OUTPUT = [
  "Connecting to host 198.18.0.2, port 5201",
  "[  5] local 198.18.0.1 port 47514 connected to 198.18.0.2 port 5201",
  "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
  "[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec    0    396 KBytes",
  "- - - - - - - - - - - - - - - - - - - - - - - - -",
  "[ ID] Interval           Transfer     Bitrate         Retr",
  "[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec    0             sender",
  "[  5]   0.00-1.00   sec   112 MBytes   940 Mbits/sec                  receiver",
  "",
  "iperf Done.",
].join("\n");
const tokens: Record<"admin" | "operator" | "viewer", string> = { admin: "", operator: "", viewer: "" };
let viewerId = 0;
let hostId = 0;
let nicAId = 0;
let linkId = 0;
let runId = 0;
let experimentId = 0;
let scheduleId = 0;
let channelId = 0;
let ruleId = 0;
let alertId = 0;

beforeAll(async () => {
  api = await openTestApi();
  for (const role of ["admin", "operator", "viewer"] as const) {
    const { user, token } = await userWithToken(`${role}1`, role);
    tokens[role] = token;
    if (role === "viewer") viewerId = user.id;
  }
  const host = await api.json("POST", "/api/hosts", {
    name: "nas1",
    address: "198.18.0.9",
    username: "root",
    auth: { method: "key", privateKey: SAMPLE_KEYS.openssh },
  });
  hostId = host.body.id;
  const second = await api.json("POST", "/api/hosts", {
    name: "nas2",
    address: "198.18.0.10",
    username: "root",
    auth: { method: "key", privateKey: SAMPLE_KEYS.openssh },
  });
  nicAId = (await api.json("POST", "/api/nics", { hostId, name: "eth0", address: "198.18.0.9/24" })).body.id;
  const nicB = (
    await api.json("POST", "/api/nics", { hostId: second.body.id, name: "eth0", address: "198.18.0.10/24" })
  ).body.id;
  linkId = (await api.json("POST", "/api/links", { name: "nas1-nas2", aNicId: nicAId, bNicId: nicB, speedMbps: 1000 }))
    .body.id;
  // A finished run to read, written directly: no test is started against these made-up hosts.
  runId = (await api.db.run.create({ data: { linkId, status: "succeeded", options: { protocol: "tcp" } } })).id;
  experimentId = await insertSweepExperiment(api.db, linkId, { status: "succeeded" });
  scheduleId = (
    await api.json("POST", "/api/schedules", { name: "nightly", linkId, cron: "0 3 * * *", enabled: false })
  ).body.id;
  channelId = (
    await api.json("POST", "/api/channels", {
      name: "hook",
      type: "webhook",
      config: { url: "http://127.0.0.1:9/hook", secret: "s3cret-hmac" },
    })
  ).body.id;
  ruleId = (
    await api.json("POST", "/api/alert-rules", {
      name: "slow",
      linkId,
      belowLineRatePercent: 80,
      channelIds: [channelId],
    })
  ).body.id;
  alertId = (
    await api.db.alert.create({
      data: { ruleId, linkId, title: "nas1-nas2: below its line rate", body: "…", runIds: [runId] },
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

function bearer(role: keyof typeof tokens) {
  return { token: tokens[role] };
}

describe("bearer tokens", () => {
  it("lets WIRESPEED_API_TOKEN act as an admin, whatever the scheme's case", async () => {
    expect(
      (
        await api.call("GET", "/api/hosts", undefined, {
          headers: { authorization: `bearer ${TEST_API_TOKEN}` },
          token: null,
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    ["no header and no cookie", null, undefined, /Sign in first/],
    ["a wrong token", "wst_wrong", undefined, /token is wrong, revoked/],
    ["a prefix of the env token", TEST_API_TOKEN.slice(0, 10), undefined, /token is wrong/],
    ["Basic auth", null, "Basic czNjcmV0LXRva2Vu", /must be Bearer/],
    ["an empty bearer", null, "Bearer ", /must be Bearer/],
  ])("answers 401 for %s", async (_what, token, header, message) => {
    const response = await api.call("GET", "/api/hosts", undefined, {
      token,
      headers: header ? { authorization: header } : {},
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="wirespeed"');
    const body = await response.json();
    expect(body).toEqual({ error: { code: "unauthorized", message: expect.stringMatching(message) } });
  });

  it("refuses WIRESPEED_API_TOKEN when the variable is unset: it is an admin token only when set", async () => {
    const saved = process.env.WIRESPEED_API_TOKEN;
    delete process.env.WIRESPEED_API_TOKEN;
    try {
      expect((await api.call("GET", "/api/hosts")).status).toBe(401);
      expect((await api.call("GET", "/api/hosts", undefined, bearer("viewer"))).status).toBe(200);
    } finally {
      process.env.WIRESPEED_API_TOKEN = saved;
    }
  });

  it("stores tokens hashed: the database holds no token in clear", async () => {
    const rows = await api.db.apiToken.findMany();
    const stored = JSON.stringify(rows);
    for (const token of Object.values(tokens)) expect(stored).not.toContain(token.slice(4));
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });

  it("stops a revoked token at once, and a disabled user's tokens", async () => {
    const { token, view } = await createApiToken(viewerId, "short-lived");
    expect((await api.call("GET", "/api/links", undefined, { token })).status).toBe(200);
    await revokeApiToken(view.id, { userId: viewerId, name: "viewer1", role: "viewer", via: "session" });
    const refused = await api.json("GET", "/api/links", undefined, { token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);

    const other = await userWithToken("leaver", "operator");
    expect((await api.call("GET", "/api/links", undefined, { token: other.token })).status).toBe(200);
    await updateUser(
      other.user.id,
      { disabled: true },
      { userId: null, name: "WIRESPEED_API_TOKEN", role: "admin", via: "env-token" },
    );
    expect((await api.call("GET", "/api/links", undefined, { token: other.token })).status).toBe(401);
  });
});

// Every mutation of the API with a body that would succeed for an admin, and the permission it needs.
const MUTATIONS: Array<{
  what: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  needs: "run" | "inventory" | "monitor" | "credentials";
}> = [
  {
    what: "add a host",
    method: "POST",
    path: () => "/api/hosts",
    body: () => ({ name: "new", address: "198.18.0.20", auth: { method: "key", privateKey: SAMPLE_KEYS.openssh } }),
    needs: "credentials",
  },
  {
    what: "edit a host's notes",
    method: "PATCH",
    path: () => `/api/hosts/${hostId}`,
    body: () => ({ notes: "rack 2" }),
    needs: "inventory",
  },
  {
    what: "set a host's credentials",
    method: "PATCH",
    path: () => `/api/hosts/${hostId}`,
    body: () => ({ auth: { method: "password", password: "hunter22" } }),
    needs: "credentials",
  },
  {
    // The program the SSH user runs on the host: an admin's, as the credentials are.
    what: "set a host's iperf3 path",
    method: "PATCH",
    path: () => `/api/hosts/${hostId}`,
    body: () => ({ iperf3Path: "/opt/iperf/bin/iperf3" }),
    needs: "credentials",
  },
  {
    what: "pin a host key",
    method: "PATCH",
    path: () => `/api/hosts/${hostId}`,
    body: () => ({ hostKeyFingerprint: `SHA256:${"A".repeat(43)}` }),
    needs: "credentials",
  },
  { what: "delete a host", method: "DELETE", path: () => `/api/hosts/${hostId}`, needs: "credentials" },
  { what: "check a host", method: "POST", path: () => `/api/hosts/${hostId}/check`, needs: "inventory" },
  { what: "discover NICs", method: "POST", path: () => `/api/hosts/${hostId}/discover`, needs: "inventory" },
  {
    what: "add a NIC",
    method: "POST",
    path: () => "/api/nics",
    body: () => ({ hostId, name: "eth9" }),
    needs: "inventory",
  },
  {
    what: "edit a NIC",
    method: "PATCH",
    path: () => `/api/nics/${nicAId}`,
    body: () => ({ mtu: 9000 }),
    needs: "inventory",
  },
  { what: "delete a NIC", method: "DELETE", path: () => `/api/nics/${nicAId}`, needs: "inventory" },
  {
    what: "add a link",
    method: "POST",
    path: () => "/api/links",
    body: () => ({ name: "x", aNicId: nicAId, bNicId: nicAId }),
    needs: "inventory",
  },
  {
    what: "edit a link",
    method: "PATCH",
    path: () => `/api/links/${linkId}`,
    body: () => ({ notes: "x" }),
    needs: "inventory",
  },
  { what: "delete a link", method: "DELETE", path: () => `/api/links/${linkId}`, needs: "inventory" },
  {
    what: "start a run",
    method: "POST",
    path: () => `/api/links/${linkId}/runs`,
    body: () => ({ duration: 5 }),
    needs: "run",
  },
  { what: "cancel a run", method: "POST", path: () => `/api/runs/${runId}/cancel`, needs: "run" },
  {
    what: "import results",
    method: "POST",
    path: () => `/api/links/${linkId}/imports`,
    body: () => ({ outputs: [{ text: IPERF3_OUTPUT, name: "old.txt" }] }),
    needs: "run",
  },
  { what: "re-run a run", method: "POST", path: () => `/api/runs/${runId}/rerun`, needs: "run" },
  {
    what: "start an experiment",
    method: "POST",
    path: () => "/api/experiments",
    body: () => ({ kind: "sweep", linkIds: [linkId], options: { duration: 5 }, factor: "parallel", values: [1, 2] }),
    needs: "run",
  },
  { what: "cancel an experiment", method: "POST", path: () => `/api/experiments/${experimentId}/cancel`, needs: "run" },
  {
    what: "run an experiment again",
    method: "POST",
    path: () => `/api/experiments/${experimentId}/rerun`,
    needs: "run",
  },
  {
    what: "create a schedule",
    method: "POST",
    path: () => "/api/schedules",
    body: () => ({ name: "hourly", linkId, everyMinutes: 60 }),
    needs: "monitor",
  },
  {
    what: "pause a schedule",
    method: "PATCH",
    path: () => `/api/schedules/${scheduleId}`,
    body: () => ({ enabled: false }),
    needs: "monitor",
  },
  { what: "delete a schedule", method: "DELETE", path: () => `/api/schedules/${scheduleId}`, needs: "monitor" },
  {
    what: "create a channel",
    method: "POST",
    path: () => "/api/channels",
    body: () => ({ name: "ntfy", type: "ntfy", config: { url: "http://127.0.0.1:9/topic" } }),
    needs: "monitor",
  },
  {
    what: "edit a channel",
    method: "PATCH",
    path: () => `/api/channels/${channelId}`,
    body: () => ({ name: "hook 2" }),
    needs: "monitor",
  },
  { what: "send a test notification", method: "POST", path: () => `/api/channels/${channelId}/test`, needs: "monitor" },
  { what: "delete a channel", method: "DELETE", path: () => `/api/channels/${channelId}`, needs: "monitor" },
  {
    what: "create an alert rule",
    method: "POST",
    path: () => "/api/alert-rules",
    body: () => ({ name: "failing", linkId: null, failed: true }),
    needs: "monitor",
  },
  {
    what: "edit an alert rule",
    method: "PATCH",
    path: () => `/api/alert-rules/${ruleId}`,
    body: () => ({ m: 1 }),
    needs: "monitor",
  },
  { what: "delete an alert rule", method: "DELETE", path: () => `/api/alert-rules/${ruleId}`, needs: "monitor" },
  { what: "acknowledge an alert", method: "POST", path: () => `/api/alerts/${alertId}/ack`, needs: "monitor" },
];

const READS = [
  () => "/api/hosts",
  () => `/api/hosts/${hostId}`,
  () => "/api/nics",
  () => `/api/nics/${nicAId}`,
  () => "/api/links",
  () => `/api/links/${linkId}`,
  () => `/api/links/${linkId}/runs`,
  () => `/api/runs/${runId}`,
  () => `/api/runs/${runId}/samples`,
  () => "/api/experiments",
  () => `/api/experiments/${experimentId}`,
  () => `/api/experiments?linkId=${linkId}`,
  () => "/api/schedules",
  () => `/api/schedules/${scheduleId}`,
  () => "/api/channels",
  () => `/api/channels/${channelId}`,
  () => "/api/alert-rules",
  () => `/api/alert-rules/${ruleId}`,
  () => "/api/alerts?status=firing",
  () => `/api/alerts/${alertId}`,
  () => `/api/links/${linkId}/baseline`,
  () => `/api/runs/${runId}/latency`,
  () => `/api/links/${linkId}/hints`,
];

async function snapshot() {
  const [hosts, nics, links, runs, experiments] = await Promise.all([
    api.db.host.findMany(),
    api.db.nic.findMany(),
    api.db.link.findMany(),
    api.db.run.findMany(),
    api.db.experiment.findMany(),
  ]);
  const [schedules, channels, rules, alerts, notifications] = await Promise.all([
    api.db.schedule.findMany(),
    api.db.notificationChannel.findMany(),
    api.db.alertRule.findMany(),
    api.db.alert.findMany(),
    api.db.notification.findMany(),
  ]);
  return JSON.stringify({ hosts, nics, links, runs, experiments, schedules, channels, rules, alerts, notifications });
}

describe("roles", () => {
  it("lets a viewer read every resource", async () => {
    for (const path of READS) {
      const response = await api.call("GET", path(), undefined, bearer("viewer"));
      expect(response.status, path()).toBe(200);
    }
  });

  it("answers 403 to every mutation by a viewer, and changes nothing", async () => {
    const before = await snapshot();
    for (const mutation of MUTATIONS) {
      const response = await api.json(mutation.method, mutation.path(), mutation.body?.(), bearer("viewer"));
      expect(response.status, mutation.what).toBe(403);
      expect(response.body.error.code).toBe("forbidden");
      expect(response.body.error.message).toMatch(/^Your role \(viewer\) does not allow /);
    }
    expect(await snapshot()).toBe(before);
  });

  it("answers 403 to an operator for credentials only, and changes nothing then", async () => {
    const before = await snapshot();
    for (const mutation of MUTATIONS.filter((entry) => entry.needs === "credentials")) {
      const response = await api.json(mutation.method, mutation.path(), mutation.body?.(), bearer("operator"));
      expect(response.status, mutation.what).toBe(403);
      expect(response.body.error.message).toMatch(/credentials|adding or deleting hosts/);
    }
    expect(await snapshot()).toBe(before);
  });

  it("lets an operator change schedules, rules and channels, and acknowledge an alert", async () => {
    for (const mutation of MUTATIONS.filter((entry) => entry.needs === "monitor" && entry.method !== "DELETE")) {
      const response = await api.json(mutation.method, mutation.path(), mutation.body?.(), bearer("operator"));
      expect(response.status, `${mutation.what}: ${response.text}`).toBeLessThan(300);
    }
    const acknowledged = await api.db.alert.findUniqueOrThrow({ where: { id: alertId } });
    expect(acknowledged.acknowledgedBy).toBe("operator1");
  });

  it("lets an operator edit a host's settings and the audit log names them", async () => {
    const response = await api.json("PATCH", `/api/hosts/${hostId}`, { notes: "under the desk" }, bearer("operator"));
    expect(response.status).toBe(200);
    const event = await api.db.auditEvent.findFirst({ where: { action: "host.update" }, orderBy: { id: "desc" } });
    expect(event).toMatchObject({ actorName: "operator1", target: "host", targetId: hostId, detail: "nas1: notes" });
  });

  it("lets an operator send a host's stored iperf3 path back unchanged, as the edit form does", async () => {
    const stored = await api.db.host.findUniqueOrThrow({ where: { id: hostId }, select: { iperf3Path: true } });
    const response = await api.json(
      "PATCH",
      `/api/hosts/${hostId}`,
      { notes: "by the window", iperf3Path: stored.iperf3Path },
      bearer("operator"),
    );
    expect(response.status, response.text).toBe(200);
    const cleared = await api.json(
      "PATCH",
      `/api/hosts/${hostId}`,
      { iperf3Path: "/usr/bin/iperf3" },
      bearer("operator"),
    );
    expect(cleared.status).toBe(403);
    expect(cleared.body.error.message).toMatch(/the iperf3 path/);
  });

  it("records who added hosts: the environment's token by its variable's name", async () => {
    const created = await api.db.auditEvent.findFirst({ where: { action: "host.create", targetId: hostId } });
    expect(created?.actorName).toBe("WIRESPEED_API_TOKEN");
    expect(created?.detail).toContain("root@198.18.0.9:22");
  });

  it("never returns a secret to any role", async () => {
    for (const role of ["admin", "operator", "viewer"] as const) {
      const text = (await api.json("GET", `/api/hosts/${hostId}`, undefined, bearer(role))).text;
      expect(text).not.toContain("OPENSSH PRIVATE KEY");
      expect(text).not.toContain("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW");
    }
  });
});

describe("session cookies", () => {
  let cookie = "";
  beforeAll(async () => {
    cookie = `wirespeed_session=${(await createSession(viewerId)).token}`;
  });

  it("authenticate the dashboard's reads, the event stream's included", async () => {
    expect((await api.call("GET", "/api/links", undefined, { token: null, headers: { cookie } })).status).toBe(200);
    const events = await api.call("GET", `/api/runs/${runId}/events`, undefined, { token: null, headers: { cookie } });
    expect(events.status).toBe(200);
    await events.body?.cancel();
    expect((await api.call("GET", `/api/runs/${runId}/events`, undefined, { token: null })).status).toBe(401);
  });

  it("refuse a change that another site could have made the browser send", async () => {
    const response = await api.json(
      "PATCH",
      `/api/hosts/${hostId}`,
      { notes: "x" },
      { token: null, headers: { cookie, "sec-fetch-site": "cross-site" } },
    );
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/own pages/);
  });

  it("still apply the role to a same-origin change", async () => {
    const response = await api.json(
      "PATCH",
      `/api/hosts/${hostId}`,
      { notes: "x" },
      { token: null, headers: { cookie, "sec-fetch-site": "same-origin" } },
    );
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("forbidden");
  });

  it("ignore an unknown or expired session", async () => {
    expect(
      (
        await api.call("GET", "/api/links", undefined, {
          token: null,
          headers: { cookie: "wirespeed_session=wss_nothing" },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api.call("GET", "/api/links", undefined, {
          token: null,
          headers: { cookie: "wirespeed_session=%E0%A4%A" },
        })
      ).status,
    ).toBe(401);
    const { token } = await createSession(viewerId);
    await api.db.session.updateMany({ where: {}, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(
      (
        await api.call("GET", "/api/links", undefined, {
          token: null,
          headers: { cookie: `wirespeed_session=${token}` },
        })
      ).status,
    ).toBe(401);
  });
});

describe("withApiAuth", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const asAdmin = (method = "GET") =>
    new Request("http://localhost/api/hosts", { method, headers: { authorization: `Bearer ${TEST_API_TOKEN}` } });

  it("does not call the handler when unauthorized", async () => {
    const handler = vi.fn(async () => new Response("ok"));
    const response = await withApiAuth("read", handler)(
      new Request("http://localhost/api/hosts", { headers: { authorization: "Bearer nope" } }),
      {},
    );
    expect(response.status).toBe(401);
    expect(handler).not.toHaveBeenCalled();
  });

  it("turns AppError and InventoryError into their statuses", async () => {
    const cases: Array<[Error, number, string]> = [
      [
        new AppError("invalid", "port must be …", { fields: [{ field: "port", message: "must be …" }] }),
        400,
        "invalid",
      ],
      [new InventoryError("invalid", "x", { fields: [{ field: "name", message: "y" }] }), 400, "invalid"],
      [new InventoryError("not-found", "no host has id 3"), 404, "not_found"],
      [new InventoryError("conflict", "taken"), 409, "conflict"],
    ];
    for (const [error, status, code] of cases) {
      const response = await withApiAuth("read", async () => {
        throw error;
      })(asAdmin(), {});
      expect(response.status).toBe(status);
      expect((await response.json()).error.code).toBe(code);
    }
  });

  it("answers a generic 500 to anything else and logs only the first line of it", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    const response = await withApiAuth("inventory", async () => {
      throw new Error("Invalid `prisma.host.create()` invocation:\n  secret: PRIVATE-KEY-MATERIAL");
    })(asAdmin("POST"), {});
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "Internal error: see the server log." } });
    expect(logged).toEqual(["POST /api/hosts: unexpected Error: Invalid `prisma.host.create()` invocation:"]);
    expect(logged.join("\n") + text).not.toContain("PRIVATE-KEY-MATERIAL");
  });
});

describe("who the connection comes from", () => {
  const PEER = "x-wirespeed-peer-00112233445566778899aabb";
  const saved = { ...process.env };
  const peer = (address: string, more: Record<string, string> = {}) => ({ [PEER]: address, ...more });
  afterEach(() => {
    for (const name of [
      "WIRESPEED_PEER_HEADER",
      "WIRESPEED_TRUSTED_PROXIES",
      "WIRESPEED_AUTH_HEADER",
      "WIRESPEED_AUTH_GROUPS_HEADER",
      "WIRESPEED_OIDC_ADMIN_GROUPS",
      "WIRESPEED_OIDC_VIEWER_GROUPS",
    ]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    vi.restoreAllMocks();
  });

  it("slows down a client after 10 wrong bearer tokens with 429 and Retry-After, and no other client", async () => {
    process.env.WIRESPEED_PEER_HEADER = PEER;
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await api.call("GET", "/api/hosts", undefined, {
        token: `wst_wrong${attempt}`,
        headers: peer("198.51.100.20"),
      });
      expect(response.status).toBe(401);
    }
    // Even the right token waits: the check comes before the token is looked at.
    const held = await api.call("GET", "/api/hosts", undefined, { headers: peer("198.51.100.20") });
    expect(held.status).toBe(429);
    expect(held.headers.get("retry-after")).toBe("1");
    expect((await held.json()).error.message).toMatch(/Too many wrong bearer tokens: try again in 1 second/);
    const other = await api.call("GET", "/api/hosts", undefined, { headers: peer("198.51.100.21") });
    expect(other.status).toBe(200);
  });

  it("counts wrong bearer tokens from IPv6 clients by their /64", async () => {
    process.env.WIRESPEED_PEER_HEADER = PEER;
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await api.call("GET", "/api/hosts", undefined, {
        token: `wst_wrong_v6_${attempt}`,
        headers: peer(`2001:db8:42:1::${(attempt + 1).toString(16)}`),
      });
      expect(response.status).toBe(401);
    }
    const held = await api.call("GET", "/api/hosts", undefined, { headers: peer("2001:db8:42:1:dead:beef:0:1") });
    expect(held.status).toBe(429);
    expect((await held.json()).error.message).toMatch(/Too many wrong bearer tokens/);
    const other = await api.call("GET", "/api/hosts", undefined, { headers: peer("2001:db8:42:2::1") });
    expect(other.status).toBe(200);
  });

  it("signs in the user a trusted proxy names, with the role of its groups, and ignores the header from anyone else", async () => {
    Object.assign(process.env, {
      WIRESPEED_PEER_HEADER: PEER,
      WIRESPEED_TRUSTED_PROXIES: "10.9.0.0/16",
      WIRESPEED_AUTH_HEADER: "Remote-User",
      WIRESPEED_AUTH_GROUPS_HEADER: "Remote-Groups",
      WIRESPEED_OIDC_ADMIN_GROUPS: "lab-admins",
      WIRESPEED_OIDC_VIEWER_GROUPS: "lab",
    });
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.join(" ")));
    const asProxy = (address: string, user: string, groups: string) =>
      api.call("GET", "/api/hosts", undefined, {
        token: null,
        headers: peer(address, { "remote-user": user, "remote-groups": groups }),
      });

    const viewer = await asProxy("10.9.0.2", "carol", "lab, media");
    expect(viewer.status).toBe(200);
    const carol = await api.db.user.findFirstOrThrow({ where: { username: "carol" } });
    expect(carol).toMatchObject({ role: "viewer", source: "proxy", passwordHash: "" });
    // A viewer may not write; the groups decide at every request.
    const write = await api.call(
      "POST",
      "/api/hosts",
      { name: "x" },
      {
        token: null,
        headers: peer("::ffff:10.9.0.2", {
          "remote-user": "carol",
          "remote-groups": "lab",
          "sec-fetch-site": "same-origin",
        }),
      },
    );
    expect(write.status).toBe(403);
    expect((await asProxy("10.9.0.2", "carol", "lab-admins")).status).toBe(200);
    expect((await api.db.user.findUniqueOrThrow({ where: { id: carol.id } })).role).toBe("admin");

    // From an address that is not a trusted proxy, the header counts for nothing, and is said once.
    expect((await asProxy("192.0.2.50", "carol", "lab-admins")).status).toBe(401);
    expect((await asProxy("192.0.2.50", "mallory", "lab-admins")).status).toBe(401);
    expect(await api.db.user.count({ where: { username: "mallory" } })).toBe(0);
    expect(warnings.filter((line) => line.includes("192.0.2.50"))).toHaveLength(1);

    // No group that grants a role, a local account of the same name, a disabled user: 403 saying why.
    const none = await asProxy("10.9.0.2", "dave", "guests");
    expect(none.status).toBe(403);
    expect((await none.json()).error.message).toMatch(/grants dave no role/);
    const local = await asProxy("10.9.0.2", "viewer1", "lab-admins");
    expect(local.status).toBe(403);
    expect((await local.json()).error.message).toMatch(/A local account named viewer1 exists/);
    await api.db.user.update({ where: { id: carol.id }, data: { disabledAt: new Date() } });
    expect((await asProxy("10.9.0.2", "carol", "lab")).status).toBe(403);
  });
});
