import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { authorizeApiRequest, withApiAuth } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { TEST_API_TOKEN, openTestApi, type TestApi } from "@/lib/api/route-testing";
import { InventoryError } from "@/lib/inventory/errors";

function request(authorization?: string): Request {
  return new Request("http://localhost/api/hosts", { headers: authorization === undefined ? {} : { authorization } });
}

describe("authorizeApiRequest", () => {
  const env = { WIRESPEED_API_TOKEN: "s3cret-token" };

  it("lets the right bearer token through, whatever the scheme's case", () => {
    expect(authorizeApiRequest(request("Bearer s3cret-token"), env)).toBeNull();
    expect(authorizeApiRequest(request("bearer s3cret-token"), env)).toBeNull();
  });

  it.each([
    ["no header", undefined, /Missing Authorization header/],
    ["a wrong token", "Bearer s3cret-tokem", /token is wrong/],
    ["a prefix of the token", "Bearer s3cret", /token is wrong/],
    ["the token with more after it", "Bearer s3cret-token2", /token is wrong/],
    ["Basic auth", "Basic czNjcmV0LXRva2Vu", /must be Bearer/],
    ["the bare token", "s3cret-token", /must be Bearer/],
    ["an empty bearer", "Bearer ", /must be Bearer/],
  ])("answers 401 for %s", async (_what, header, message) => {
    const response = authorizeApiRequest(request(header), env)!;
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="wirespeed"');
    const body = await response.json();
    expect(body).toEqual({ error: { code: "unauthorized", message: expect.stringMatching(message) } });
    expect(JSON.stringify(body)).not.toContain("s3cret-token");
  });

  it.each([
    ["unset", {}],
    ["empty", { WIRESPEED_API_TOKEN: "" }],
  ])("answers 401 saying the API is disabled when the token is %s, even to a matching header", async (_what, unset) => {
    const response = authorizeApiRequest(request("Bearer "), unset)!;
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toBe("The API is disabled until WIRESPEED_API_TOKEN is set in the server's environment.");
  });

  it("lets the dashboard's own reads through (same-origin GET), but not its writes or other sites' reads", () => {
    const fromDashboard = (method: string, site: string) =>
      new Request("http://localhost/api/runs/1/events", { method, headers: { "sec-fetch-site": site } });
    expect(authorizeApiRequest(fromDashboard("GET", "same-origin"), env)).toBeNull();
    expect(authorizeApiRequest(fromDashboard("POST", "same-origin"), env)?.status).toBe(401);
    expect(authorizeApiRequest(fromDashboard("GET", "cross-site"), env)?.status).toBe(401);
    expect(authorizeApiRequest(fromDashboard("GET", "same-site"), env)?.status).toBe(401);
  });
});

describe("withApiAuth", () => {
  const saved = process.env.WIRESPEED_API_TOKEN;
  afterEach(() => {
    process.env.WIRESPEED_API_TOKEN = saved;
    vi.restoreAllMocks();
  });

  it("does not call the handler when unauthorized", async () => {
    process.env.WIRESPEED_API_TOKEN = "abc";
    const handler = vi.fn(async () => new Response("ok"));
    const response = await withApiAuth(handler)(request("Bearer nope"), {});
    expect(response.status).toBe(401);
    expect(handler).not.toHaveBeenCalled();
  });

  it("turns ApiError and InventoryError into their statuses", async () => {
    process.env.WIRESPEED_API_TOKEN = "abc";
    const cases: Array<[Error, number, string]> = [
      [new ApiError(400, "invalid", "port must be …", [{ field: "port", message: "must be …" }]), 400, "invalid"],
      [new InventoryError("invalid", "x", [{ field: "name", message: "y" }]), 400, "invalid"],
      [new InventoryError("not_found", "no host has id 3"), 404, "not_found"],
      [new InventoryError("conflict", "taken"), 409, "conflict"],
    ];
    for (const [error, status, code] of cases) {
      const response = await withApiAuth(async () => {
        throw error;
      })(request("Bearer abc"), {});
      expect(response.status).toBe(status);
      expect((await response.json()).error.code).toBe(code);
    }
  });

  it("answers a generic 500 to anything else and logs only the first line of it", async () => {
    process.env.WIRESPEED_API_TOKEN = "abc";
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    const response = await withApiAuth(async () => {
      throw new Error("Invalid `prisma.host.create()` invocation:\n  secret: PRIVATE-KEY-MATERIAL");
    })(new Request("http://localhost/api/hosts", { method: "POST", headers: { authorization: "Bearer abc" } }), {});
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "Internal error: see the server log." } });
    expect(logged).toEqual(["POST /api/hosts: unexpected Error: Invalid `prisma.host.create()` invocation:"]);
    expect(logged.join("\n") + text).not.toContain("PRIVATE-KEY-MATERIAL");
  });
});

describe("every inventory endpoint requires the token", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi();
  }, 60_000);
  afterAll(async () => {
    process.env.WIRESPEED_API_TOKEN = TEST_API_TOKEN;
    await api?.close();
  });

  const endpoints: Array<[string, string]> = [
    ["GET", "/api/hosts"],
    ["POST", "/api/hosts"],
    ["GET", "/api/hosts/1"],
    ["PATCH", "/api/hosts/1"],
    ["DELETE", "/api/hosts/1"],
    ["GET", "/api/nics"],
    ["POST", "/api/nics"],
    ["GET", "/api/nics/1"],
    ["PATCH", "/api/nics/1"],
    ["DELETE", "/api/nics/1"],
    ["GET", "/api/links"],
    ["POST", "/api/links"],
    ["GET", "/api/links/1"],
    ["PATCH", "/api/links/1"],
    ["DELETE", "/api/links/1"],
  ];

  it.each(endpoints)("%s %s: 401 without a token, with a wrong one and when the API is disabled; through with the right one", async (method, path) => {
    process.env.WIRESPEED_API_TOKEN = TEST_API_TOKEN;
    const body = method === "POST" || method === "PATCH" ? {} : undefined;
    const none = await api.json(method, path, body, { token: null });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("unauthorized");
    const wrong = await api.json(method, path, body, { token: `${TEST_API_TOKEN}x` });
    expect(wrong.status).toBe(401);
    const right = await api.json(method, path, body);
    expect(right.status).not.toBe(401);
    // A POST or PATCH of {} is invalid, an unknown id is 404: the handler ran.
    expect([200, 400, 404]).toContain(right.status);
    process.env.WIRESPEED_API_TOKEN = "";
    const disabled = await api.json(method, path, body);
    expect(disabled.status).toBe(401);
    expect(disabled.body.error.message).toMatch(/disabled until WIRESPEED_API_TOKEN is set/);
    delete process.env.WIRESPEED_API_TOKEN;
    expect((await api.json(method, path, body)).status).toBe(401);
  });

  it("lists with the right token", async () => {
    process.env.WIRESPEED_API_TOKEN = TEST_API_TOKEN;
    const { status, body } = await api.json("GET", "/api/hosts");
    expect(status).toBe(200);
    expect(body).toEqual({ hosts: [] });
  });
});
