import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import * as rules from "./route";
import * as rule from "./[id]/route";
import { createUser } from "@/lib/auth/users";
import { createApiToken } from "@/lib/auth/tokens";
import { createChannel } from "@/lib/notify/channels";

// The alert rules API on a real database, called as Next.js calls its handlers: who may
// change rules, the 400s naming each field, and what a rule answers.

let api: TestApi;
let viewerToken: string;
let operatorToken: string;
let linkId: number;
let channelId: number;

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

function call(
  handler: Handler | undefined,
  method: string,
  path: string,
  body?: unknown,
  token: string = TEST_API_TOKEN,
  id = "",
) {
  return callRoute(handler, method, path, { body, token, params: { id } });
}

const post = (body: unknown, token?: string) => call(rules.POST as Handler, "POST", "/api/alert-rules", body, token);
const patch = (id: number, body: unknown, token?: string) =>
  call(rule.PATCH as Handler, "PATCH", `/api/alert-rules/${id}`, body, token, String(id));

beforeAll(async () => {
  api = await openTestApi();
  const viewer = await createUser({ username: "viewer", password: "a viewer's password", role: "viewer" });
  viewerToken = (await createApiToken(viewer.id, "viewer's token")).token;
  const operator = await createUser({ username: "operator", password: "an operator's password", role: "operator" });
  operatorToken = (await createApiToken(operator.id, "operator's token")).token;
  const hosts = await postLocalHosts(api, ["rule-a", "rule-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 10_000 }, { name: "nas-10g" });
  channelId = (
    await createChannel({
      name: "hook",
      type: "webhook",
      config: { url: "http://127.0.0.1:9/hook", secret: "hmac secret" },
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("the alert rules API", () => {
  it("creates a rule with the defaults (2 of 3, enabled), answers 201 with its link and channels, and audits it", async () => {
    const created = await post(
      { name: "below 80% of baseline", linkId, belowBaselinePercent: 80, channelIds: [channelId, channelId] },
      operatorToken,
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/alert-rules/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "below 80% of baseline",
      linkId,
      link: { id: linkId, name: "nas-10g" },
      belowBaselinePercent: 80,
      belowLineRatePercent: null,
      failed: false,
      m: 2,
      n: 3,
      channels: [{ id: channelId, name: "hook", type: "webhook" }],
      enabled: true,
    });
    // a channel answers its name and type, never its config
    expect(JSON.stringify(created.body)).not.toContain("hmac secret");
    const audit = await api.db.auditEvent.findFirst({
      where: { action: "alert-rule.create", targetId: created.body.id },
    });
    expect(audit).toMatchObject({
      actorName: "operator",
      target: "alert-rule",
      detail: "below 80% of baseline on nas-10g",
    });
  });

  it("lets a viewer read rules but not create, change or delete one (403)", async () => {
    const created = await post({ name: "default", linkId: null, failed: true });
    expect(created.status).toBe(201);
    const list = await call(rules.GET as Handler, "GET", "/api/alert-rules", undefined, viewerToken);
    expect(list.status).toBe(200);
    expect(list.body.rules.map((entry: { id: number }) => entry.id)).toContain(created.body.id);
    // the defaults come first
    expect(list.body.rules[0].linkId).toBeNull();
    const one = await call(
      rule.GET as Handler,
      "GET",
      `/api/alert-rules/${created.body.id}`,
      undefined,
      viewerToken,
      String(created.body.id),
    );
    expect(one.body).toMatchObject({ id: created.body.id, link: null });

    const before = await api.db.alertRule.count();
    expect((await post({ name: "x", linkId: null, failed: true }, viewerToken)).status).toBe(403);
    expect((await patch(created.body.id, { enabled: false }, viewerToken)).status).toBe(403);
    expect(
      (
        await call(
          rule.DELETE as Handler,
          "DELETE",
          `/api/alert-rules/${created.body.id}`,
          undefined,
          viewerToken,
          String(created.body.id),
        )
      ).status,
    ).toBe(403);
    expect(await api.db.alertRule.count()).toBe(before);
    expect((await api.db.alertRule.findUniqueOrThrow({ where: { id: created.body.id } })).enabled).toBe(true);
  });

  it("refuses a bad rule with a 400 naming the field: m > n, no condition, a missing link or channel", async () => {
    const before = await api.db.alertRule.count();
    const cases: Array<[unknown, Array<{ field: string; message?: string }>]> = [
      [{ name: "r", linkId, failed: true, m: 4, n: 3 }, [{ field: "m", message: "must be at most n (3)" }]],
      [{ name: "r", linkId, failed: true, m: 4 }, [{ field: "m", message: "must be at most n (3)" }]],
      [
        { name: "r", linkId },
        [
          {
            field: "belowBaselinePercent",
            message: "set at least one condition: belowBaselinePercent, belowLineRatePercent or failed",
          },
        ],
      ],
      [{ name: "r", linkId, failed: false, belowBaselinePercent: null }, [{ field: "belowBaselinePercent" }]],
      [{ name: "r", linkId, belowLineRatePercent: 0 }, [{ field: "belowLineRatePercent" }]],
      [{ name: "r", linkId, belowLineRatePercent: 101 }, [{ field: "belowLineRatePercent" }]],
      [{ name: "r", linkId, failed: true, n: 21 }, [{ field: "n" }]],
      [{ name: "r", linkId, failed: true, m: 1.5 }, [{ field: "m" }]],
      [{ name: "r", failed: true }, [{ field: "linkId" }]],
      [{ name: "", linkId, failed: true }, [{ field: "name" }]],
      [{ name: "r", linkId, failed: "yes" }, [{ field: "failed" }]],
      [{ name: "r", linkId, failed: true, color: "red" }, [{ field: "color" }]],
      [{ name: "r", linkId: 424242, failed: true }, [{ field: "linkId", message: "link 424242 does not exist" }]],
      [
        { name: "r", linkId, failed: true, channelIds: [channelId, 424242] },
        [{ field: "channelIds", message: "notification channel 424242 does not exist" }],
      ],
    ];
    for (const [body, fields] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields, JSON.stringify(body)).toEqual(
        fields.map((field) => expect.objectContaining(field)),
      );
    }
    expect(await api.db.alertRule.count()).toBe(before);
  });

  it("changes a rule with PATCH, checking m ≤ n and a condition on the rule as changed, and replaces its channels", async () => {
    const created = await post({
      name: "line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 2,
      n: 3,
      channelIds: [channelId],
    });
    const id = created.body.id;
    expect((await patch(id, { n: 1 })).body.error.fields).toEqual([{ field: "m", message: "must be at most n (1)" }]);
    expect((await patch(id, { belowLineRatePercent: null })).body.error.fields).toEqual([
      expect.objectContaining({ field: "belowBaselinePercent" }),
    ]);
    expect((await patch(id, { linkId: 424242 })).body.error.fields).toEqual([
      expect.objectContaining({ field: "linkId" }),
    ]);
    expect((await patch(id, { m: 21 })).status).toBe(400);

    const changed = await patch(
      id,
      { m: 1, n: 1, belowLineRatePercent: null, failed: true, channelIds: [], linkId: null, enabled: false },
      operatorToken,
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id,
      name: "line rate",
      linkId: null,
      link: null,
      belowLineRatePercent: null,
      failed: true,
      m: 1,
      n: 1,
      channels: [],
      enabled: false,
    });
    const renamed = await patch(id, { name: "failures anywhere" });
    expect(renamed.body).toMatchObject({ name: "failures anywhere", failed: true, enabled: false });
    expect((await patch(424242, { enabled: true })).status).toBe(404);
  });

  it("deletes a rule with 204, then answers 404 for it", async () => {
    const created = await post({ name: "gone soon", linkId, failed: true });
    const id = String(created.body.id);
    const deleted = await call(
      rule.DELETE as Handler,
      "DELETE",
      `/api/alert-rules/${id}`,
      undefined,
      operatorToken,
      id,
    );
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect(
      (await call(rule.GET as Handler, "GET", `/api/alert-rules/${id}`, undefined, TEST_API_TOKEN, id)).status,
    ).toBe(404);
    expect(
      (await call(rule.DELETE as Handler, "DELETE", `/api/alert-rules/${id}`, undefined, TEST_API_TOKEN, id)).status,
    ).toBe(404);
    expect(await api.db.auditEvent.count({ where: { action: "alert-rule.delete", targetId: Number(id) } })).toBe(1);
  });

  it("lists one link's own rules with ?linkId=", async () => {
    const list = await call(rules.GET as Handler, "GET", `/api/alert-rules?linkId=${linkId}`);
    expect(list.body.rules.length).toBeGreaterThan(0);
    expect(list.body.rules.every((entry: { linkId: number }) => entry.linkId === linkId)).toBe(true);
    expect((await call(rules.GET as Handler, "GET", "/api/alert-rules?linkId=x")).body.error.fields).toEqual([
      expect.objectContaining({ field: "linkId" }),
    ]);
  });
});
