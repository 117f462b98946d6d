import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "@/testing/notification-receivers";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { userWithToken } from "@/testing/user-tokens";

// The channels API with real users and tokens on a real database: who may read and change,
// the 400s naming each field, secrets never in an answer, and "Send test" to a real receiver.

type Context = { params: Promise<{ id: string }> };
type Handler = (request: Request, context: Context) => Promise<Response>;

let api: TestApi;
let receiver: HttpReceiver;
let routes: {
  list: { GET: Handler; POST: Handler };
  one: { GET: Handler; PATCH: Handler; DELETE: Handler };
  test: { POST: Handler };
};
const tokens: Record<"admin" | "operator" | "viewer", string> = { admin: "", operator: "", viewer: "" };

beforeAll(async () => {
  api = await openTestApi();
  const [list, one, test] = await Promise.all([
    import("@/app/api/channels/route"),
    import("@/app/api/channels/[id]/route"),
    import("@/app/api/channels/[id]/test/route"),
  ]);
  routes = { list, one, test } as typeof routes;
  for (const role of ["admin", "operator", "viewer"] as const) {
    tokens[role] = (await userWithToken(`${role}1`, role, { tokenName: `${role}'s script` })).token;
  }
  receiver = await startHttpReceiver();
}, 60_000);

afterEach(async () => {
  receiver.requests.length = 0;
  receiver.respondWith(200, 0);
  await api.db.notification.deleteMany();
  await api.db.notificationChannel.deleteMany();
});

afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

/** Calls the route for `method path` as Next.js does, as `role`. */
async function call(
  role: keyof typeof tokens,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
) {
  const url = new URL(path, "http://localhost");
  const match = /^\/api\/channels(?:\/(?<id>[^/]+)(?<test>\/test)?)?$/.exec(url.pathname);
  if (!match) throw new Error(`no route for ${path}`);
  const { id, test } = match.groups!;
  const routeModule = (test ? routes.test : id ? routes.one : routes.list) as Partial<Record<typeof method, Handler>>;
  const handler = routeModule[method];
  if (!handler) throw new Error(`no ${method} for ${path}`);
  const headers: Record<string, string> = { authorization: `Bearer ${tokens[role]}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await handler(
    new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { params: Promise.resolve({ id: id ?? "" }) },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

const NTFY = {
  name: "phone",
  type: "ntfy",
  config: { url: "http://ntfy.lan/wirespeed", token: "tk_route-secret-token" },
};

describe("the channels API", () => {
  it("lets a viewer read but not change, and an operator change", async () => {
    const refused = await call("viewer", "POST", "/api/channels", NTFY);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(await api.db.notificationChannel.count()).toBe(0);

    const created = await call("operator", "POST", "/api/channels", NTFY);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "phone",
      type: "ntfy",
      config: { url: "http://ntfy.lan/wirespeed" },
      secretsSet: ["token"],
    });
    const id = created.body.id as number;

    const list = await call("viewer", "GET", "/api/channels");
    expect(list.status).toBe(200);
    // A viewer gets the URL's origin only (a topic URL is a secret of its own).
    const asViewer = { ...created.body, config: { url: "http://ntfy.lan" } };
    expect(list.body).toEqual({ channels: [asViewer] });
    expect((await call("viewer", "GET", `/api/channels/${id}`)).body).toEqual(asViewer);
    expect((await call("operator", "GET", "/api/channels")).body).toEqual({ channels: [created.body] });
    expect((await call("admin", "GET", `/api/channels/${id}`)).body).toEqual(created.body);
    expect((await call("viewer", "PATCH", `/api/channels/${id}`, { name: "x" })).status).toBe(403);
    expect((await call("viewer", "DELETE", `/api/channels/${id}`)).status).toBe(403);
    expect((await call("viewer", "POST", `/api/channels/${id}/test`)).status).toBe(403);
    expect(receiver.requests).toHaveLength(0);

    const patched = await call("operator", "PATCH", `/api/channels/${id}`, { name: "phone 2" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "phone 2", secretsSet: ["token"] });
    const deleted = await call("admin", "DELETE", `/api/channels/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call("viewer", "GET", `/api/channels/${id}`)).status).toBe(404);
  });

  it("never answers a secret", async () => {
    const created = await call("operator", "POST", "/api/channels", NTFY);
    const patched = await call("operator", "PATCH", `/api/channels/${created.body.id}`, {
      config: { token: "tk_second-route-token" },
    });
    const answers = [
      created.text,
      patched.text,
      (await call("viewer", "GET", "/api/channels")).text,
      (await call("viewer", "GET", `/api/channels/${created.body.id}`)).text,
    ];
    for (const text of answers) expect(text).not.toMatch(/tk_route-secret-token|tk_second-route-token/);
  });

  it("drops the token when a PATCH points the channel elsewhere, so Send test does not carry it there", async () => {
    const created = await call("operator", "POST", "/api/channels", {
      name: "phone",
      type: "ntfy",
      config: { url: `${receiver.url}/topic`, token: "tk_route-secret-token" },
    });
    const id = created.body.id as number;
    // An admin too: the rule is for whoever asks.
    const moved = await call("admin", "PATCH", `/api/channels/${id}`, { config: { url: `${receiver.url}/elsewhere` } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ config: { url: `${receiver.url}/elsewhere` }, secretsSet: [] });
    expect((await call("operator", "POST", `/api/channels/${id}/test`)).body.result.status).toBe("sent");
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe("/elsewhere");
    expect(request!.headers.authorization).toBeUndefined();

    const gotify = await call("operator", "POST", "/api/channels", {
      name: "gotify",
      type: "gotify",
      config: { url: receiver.url, token: "AgotifyRouteToken" },
    });
    const refused = await call("operator", "PATCH", `/api/channels/${gotify.body.id}`, {
      config: { url: `${receiver.url}/other` },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual([
      {
        field: "config.token",
        message: expect.stringMatching(/^is required again: the channel's destination changed/),
      },
    ]);
  });

  it("refuses a link-local or metadata address with a 400 naming the field", async () => {
    const refused = await call("operator", "POST", "/api/channels", {
      name: "meta",
      type: "webhook",
      config: { url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual([
      { field: "config.url", message: expect.stringMatching(/^must not be a link-local or cloud metadata address/) },
    ]);
    const mail = await call("operator", "POST", "/api/channels", {
      name: "mail",
      type: "email",
      config: { host: "fd00:ec2::254", port: 25, security: "none", from: "w@nas.lan", to: "a@nas.lan" },
    });
    expect(mail.status).toBe(400);
    expect(mail.body.error.fields).toEqual([
      { field: "config.host", message: expect.stringMatching(/^must not be a link-local or cloud metadata address/) },
    ]);
  });

  it("answers 400 naming the field", async () => {
    const bad = await call("operator", "POST", "/api/channels", {
      name: "ftp",
      type: "webhook",
      config: { url: "ftp://x" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      code: "invalid",
      message: "config.url must be an http:// or https:// URL",
      fields: [{ field: "config.url", message: "must be an http:// or https:// URL" }],
    });
    expect(
      (await call("operator", "POST", "/api/channels", { name: "x", type: "sms", config: {} })).body.error.fields,
    ).toEqual([{ field: "type", message: expect.stringMatching(/^must be one of webhook/) }]);
    expect((await call("operator", "GET", "/api/channels/abc")).body.error.fields).toEqual([
      { field: "id", message: expect.any(String) },
    ]);
    const created = await call("operator", "POST", "/api/channels", NTFY);
    expect((await call("operator", "PATCH", `/api/channels/${created.body.id}`, { type: "gotify" })).status).toBe(400);
    const duplicate = await call("operator", "POST", "/api/channels", NTFY);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.fields).toEqual([
      { field: "name", message: "is already used by another notification channel" },
    ]);
  });

  it("sends a test to a real receiver, answers a failed delivery as a 200 with its reason, and audits each", async () => {
    const created = await call("operator", "POST", "/api/channels", {
      name: "hook",
      type: "webhook",
      config: { url: `${receiver.url}/hook`, secret: "route-hmac" },
    });
    const id = created.body.id as number;
    const sent = await call("operator", "POST", `/api/channels/${id}/test`);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      result: { channelId: id, channelName: "hook", status: "sent", attempts: 1, error: null },
    });
    const [request] = await receiver.waitFor(1);
    expect(request!.json).toMatchObject({ event: "test", title: "Wirespeed test notification" });
    expect(request!.headers["x-wirespeed-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);

    receiver.respondWith(500);
    const failed = await call("operator", "POST", `/api/channels/${id}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body.result).toMatchObject({
      status: "failed",
      attempts: 1,
      error: `HTTP 500 from ${receiver.url}/hook`,
    });
    expect(failed.text).not.toContain("route-hmac");

    expect((await call("operator", "POST", "/api/channels/424242/test")).status).toBe(404);
    const audit = await api.db.auditEvent.findMany({
      where: { action: "channel.test", targetId: id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((event) => [event.actorName, event.targetId, event.detail])).toEqual([
      ["operator1", id, "hook: sent"],
      ["operator1", id, "hook: failed"],
    ]);
  });
});
