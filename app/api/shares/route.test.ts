import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { userWithToken } from "@/testing/user-tokens";
import * as collection from "./route";
import * as one from "./[id]/route";

// The share links API as Next.js calls it, on a real database with real users and tokens: the
// 201's exact shape, the 400 naming each field, a viewer's 403, the 404s, revoking.

let api: TestApi;
const tokens: Record<"operator" | "viewer", string> = { operator: "", viewer: "" };
let linkId = 0;
let runId = 0;

const post = (body: unknown, token: string | null = TEST_API_TOKEN) =>
  callRoute(collection.POST, "POST", "/api/shares", { body, token });
const list = (token: string | null = TEST_API_TOKEN) => callRoute(collection.GET, "GET", "/api/shares", { token });
const revoke = (id: string | number, token: string | null = TEST_API_TOKEN) =>
  callRoute(one.DELETE, "DELETE", `/api/shares/${id}`, { params: { id: String(id) }, token });

beforeAll(async () => {
  api = await openTestApi();
  for (const role of ["operator", "viewer"] as const) {
    tokens[role] = (await userWithToken(`${role}1`, role)).token;
  }
  const hosts = await postLocalHosts(api, ["share-a", "share-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 1000 }, { name: "share-link" });
  runId = (await api.db.run.create({ data: { linkId, status: "succeeded", options: { protocol: "tcp" } } })).id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("the share links API", () => {
  it("lets an operator make a share (201, exactly { share: { id, url, kind, expiresAt, hideAddresses } }), list and revoke it", async () => {
    const created = await post({ kind: "run", id: runId, expiresInDays: 3, hideAddresses: true }, tokens.operator);
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(["share"]);
    expect(Object.keys(created.body.share).sort()).toEqual(["expiresAt", "hideAddresses", "id", "kind", "url"]);
    const { share } = created.body;
    expect(share).toMatchObject({ kind: "run", hideAddresses: true });
    expect(share.url).toMatch(/^http:\/\/localhost\/s\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(share.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
    expect(created.headers.get("location")).toBe(`/api/shares/${share.id}`);

    const never = await post({ kind: "link", id: linkId, expiresInDays: null }, tokens.operator);
    expect(never.status).toBe(201);
    // hideAddresses left out: hidden, as the Share dialog offers it.
    expect(never.body.share).toMatchObject({ kind: "link", expiresAt: null, hideAddresses: true });

    const listed = await list(tokens.operator);
    expect(listed.status).toBe(200);
    expect(listed.body.shares.map((entry: { id: number }) => entry.id)).toEqual([never.body.share.id, share.id]);
    // The URL only once, at creation: the database keeps the token's hash, and the list says the rest.
    const { url, ...fields } = share;
    expect(listed.body.shares[1]).not.toHaveProperty("url");
    expect(JSON.stringify(listed.body)).not.toContain(url.split("/s/")[1]);
    expect(listed.body.shares[1]).toMatchObject({
      ...fields,
      targetId: runId,
      title: `Run #${runId} on share-link`,
      createdBy: "operator1",
      isExpired: false,
    });

    expect((await revoke(share.id, tokens.operator)).status).toBe(204);
    expect((await revoke(share.id, tokens.operator)).status).toBe(404);
    expect((await list()).body.shares.map((entry: { id: number }) => entry.id)).toEqual([never.body.share.id]);
    const audit = await api.db.auditEvent.findMany({ where: { target: "share" }, orderBy: { id: "asc" } });
    expect(audit.map((event) => [event.action, event.actorName])).toEqual([
      ["share.create", "operator1"],
      ["share.create", "operator1"],
      ["share.revoke", "operator1"],
    ]);
  });

  it("refuses a viewer (403) and a caller without an account (401), changing nothing", async () => {
    const before = await api.db.share.count();
    expect((await post({ kind: "run", id: runId }, tokens.viewer)).status).toBe(403);
    expect((await post({ kind: "run", id: runId }, null)).status).toBe(401);
    expect((await list(tokens.viewer)).status).toBe(403);
    const made = await post({ kind: "run", id: runId });
    expect((await revoke(made.body.share.id, tokens.viewer)).status).toBe(403);
    expect(await api.db.share.count()).toBe(before + 1);
  });

  it("answers 400 naming each field, and 404 naming the id of a run, experiment or link that does not exist", async () => {
    const fieldsOf = async (body: unknown) => {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      return answer.body.error.fields.map((entry: { field: string }) => entry.field);
    };
    expect(await fieldsOf({ kind: "host", id: 1 })).toEqual(["kind"]);
    expect(await fieldsOf({ id: 1 })).toEqual(["kind"]);
    expect(await fieldsOf({ kind: "run" })).toEqual(["id"]);
    expect(await fieldsOf({ kind: "run", id: "1" })).toEqual(["id"]);
    for (const expiresInDays of [0, 366, 1.5, "7"]) {
      expect(await fieldsOf({ kind: "run", id: runId, expiresInDays })).toEqual(["expiresInDays"]);
    }
    expect(await fieldsOf({ kind: "run", id: runId, hideAddresses: "yes" })).toEqual(["hideAddresses"]);
    expect(await fieldsOf({ kind: "run", id: runId, token: "mine" })).toEqual(["token"]);
    expect(await fieldsOf([])).toEqual(["body"]);
    const invalid = await post({ kind: "run", id: runId, expiresInDays: 0 });
    expect(invalid.body.error).toMatchObject({
      code: "invalid",
      fields: [{ field: "expiresInDays", message: "must be a whole number of days from 1 to 365, or null for never" }],
    });
    expect((await callRoute(collection.POST, "POST", "/api/shares", { rawBody: "{" })).status).toBe(400);

    for (const kind of ["run", "experiment", "link"]) {
      const missing = await post({ kind, id: 999_999 });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: "not_found", fields: [{ field: "id" }] });
      expect(missing.body.error.message).toContain("999999");
    }
    expect((await revoke("x")).status).toBe(400);
    expect((await revoke(999_999)).status).toBe(404);
  });
});
