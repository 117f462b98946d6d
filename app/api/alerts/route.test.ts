import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { signatureOf } from "@/lib/runs/signature";
import * as alerts from "./route";
import * as alert from "./[id]/route";
import * as ack from "./[id]/ack/route";
import * as baseline from "../links/[id]/baseline/route";
import { evaluateRun } from "@/lib/alerts/watcher";
import { createUser } from "@/lib/auth/users";
import { createApiToken } from "@/lib/auth/tokens";
import { createAlertRule } from "@/lib/alerts/rules";

// The alerts API and a link's baselines on a real database: alerts opened by the watcher from
// runs written as the engine leaves them, listed, filtered and acknowledged.

let api: TestApi;
let viewerToken: string;
let operatorToken: string;
const linkIds: number[] = [];
let clock = Date.UTC(2026, 0, 1);

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

async function call(
  handler: Handler | undefined,
  method: string,
  path: string,
  token: string = TEST_API_TOKEN,
  id = "",
) {
  const { status, body } = await callRoute(handler, method, path, { token, params: { id } });
  return { status, body };
}

const list = (query = "", token?: string) => call(alerts.GET as Handler, "GET", `/api/alerts${query}`, token);
const one = (id: number, token?: string) => call(alert.GET as Handler, "GET", `/api/alerts/${id}`, token, String(id));
const acknowledge = (id: number, token?: string) =>
  call(ack.POST as Handler, "POST", `/api/alerts/${id}/ack`, token, String(id));

async function endRun(linkId: number, rate: number | null, options: Record<string, unknown> = {}) {
  clock += 60_000;
  const run = await api.db.run.create({
    data: {
      linkId,
      status: rate === null ? "failed" : "succeeded",
      options: options as object,
      signature: signatureOf(options, "a"),
      receivedBitsPerSecond: rate,
      errorMessage: rate === null ? "iperf3: unable to connect to server" : null,
      createdAt: new Date(clock),
      endedAt: new Date(clock + 10_000),
    },
  });
  await evaluateRun(run.id);
  return run.id;
}

beforeAll(async () => {
  api = await openTestApi();
  const viewer = await createUser({ username: "viewer", password: "a viewer's password", role: "viewer" });
  viewerToken = (await createApiToken(viewer.id, "viewer's token")).token;
  const operator = await createUser({ username: "operator", password: "an operator's password", role: "operator" });
  operatorToken = (await createApiToken(operator.id, "operator's token")).token;
  const hosts = await postLocalHosts(api, ["alert-a", "alert-b"]);
  for (const index of [0, 1])
    linkIds.push(
      await postLink(
        api,
        hosts,
        { name: `eth${index}`, speedMbps: 10_000 },
        { name: `link-${index}`, baselineRuns: 5 },
      ),
    );
  // No channels: the alerts are what is tested here, their delivery in lib/alerts/watcher.test.ts.
  await createAlertRule({ name: "failures", linkId: null, failed: true, belowLineRatePercent: 50, m: 1, n: 1 });
  // link-0: an alert that fired and resolved, then one firing; link-1: one firing.
  for (const rate of [9.4e9, 9.3e9, 9.5e9]) await endRun(linkIds[0]!, rate);
  await endRun(linkIds[0]!, null);
  await endRun(linkIds[0]!, 9.4e9);
  await endRun(linkIds[0]!, 1e9);
  await endRun(linkIds[0]!, 990e6, { protocol: "udp", bitrate: 1_000_000_000 });
  await endRun(linkIds[1]!, null);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("the alerts API", () => {
  it("lists alerts newest first, with ?status= and ?linkId=, to a viewer too", async () => {
    const all = await list("", viewerToken);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    expect(
      all.body.alerts.map((entry: { link: { id: number }; status: string }) => [entry.link.id, entry.status]),
    ).toEqual([
      [linkIds[1], "firing"],
      [linkIds[0], "firing"],
      [linkIds[0], "resolved"],
    ]);
    expect(all.body.alerts[1]).toMatchObject({
      rule: { name: "failures" },
      title: "link-0: below its line rate",
      body: "link-0: 1 Gbit/s, 10% of its 10 Gbit/s line rate (1 of 1 runs)",
      acknowledgedAt: null,
    });
    const firing = await list("?status=firing");
    expect(firing.body.alerts.map((entry: { status: string }) => entry.status)).toEqual(["firing", "firing"]);
    const resolved = await list(`?status=resolved&linkId=${linkIds[0]}`);
    expect(resolved.body.alerts).toHaveLength(1);
    expect(resolved.body.alerts[0]).toMatchObject({
      title: "link-0: runs failing",
      body: "link-0: 1 of the last 1 runs failed: iperf3: unable to connect to server",
    });
    expect(resolved.body.alerts[0].resolvedRunIds).toHaveLength(1);
    expect(
      (await list("?pageSize=1&page=2")).body.alerts.map((entry: { link: { id: number } }) => entry.link.id),
    ).toEqual([linkIds[0]]);
  });

  it("answers 400 naming status for any other status, and linkId for a bad one", async () => {
    const bad = await list("?status=open");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual([{ field: "status", message: "must be one of firing, resolved" }]);
    expect((await list("?linkId=0")).body.error.fields).toEqual([expect.objectContaining({ field: "linkId" })]);
  });

  it("acknowledges an alert as the caller, once, and refuses a viewer (403) and a missing alert (404)", async () => {
    const [target] = (await list("?status=firing")).body.alerts;
    expect((await acknowledge(target.id, viewerToken)).status).toBe(403);
    const acked = await acknowledge(target.id, operatorToken);
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ id: target.id, status: "firing", acknowledgedBy: "operator" });
    expect(acked.body.acknowledgedAt).not.toBeNull();
    // a second acknowledgement keeps the first
    const again = await acknowledge(target.id);
    expect(again.body).toMatchObject({ acknowledgedBy: "operator", acknowledgedAt: acked.body.acknowledgedAt });
    expect(await api.db.auditEvent.count({ where: { action: "alert.ack", targetId: target.id } })).toBe(1);
    expect((await acknowledge(424242)).status).toBe(404);
    expect((await one(target.id, viewerToken)).body).toMatchObject({ id: target.id, acknowledgedBy: "operator" });
    expect((await one(424242)).status).toBe(404);
  });

  it("shows a viewer only the origin of a URL in a delivery's error, and an operator the whole error", async () => {
    const [target] = (await list("?status=firing")).body.alerts;
    const error = "HTTP 404 from https://ha.lan:8123/api/webhook/wirespeed-secret-hook-id";
    await api.db.notification.create({
      data: { alertId: target.id, channelName: "ha", event: "alert.firing", status: "failed", attempts: 3, error },
    });
    const errorsOf = (body: { notifications: { error: string | null }[] }) =>
      body.notifications.map((notification) => notification.error).filter(Boolean);
    expect(errorsOf((await one(target.id, viewerToken)).body)).toEqual(["HTTP 404 from https://ha.lan:8123"]);
    const listed = (await list("?status=firing", viewerToken)).body.alerts.find(
      (one: { id: number }) => one.id === target.id,
    );
    expect(errorsOf(listed)).toEqual(["HTTP 404 from https://ha.lan:8123"]);
    expect(errorsOf((await one(target.id, operatorToken)).body)).toEqual([error]);
  });
});

describe("GET /api/links/:id/baseline", () => {
  it("answers each signature with its median and its N, the most recent first", async () => {
    const answer = await call(
      baseline.GET as Handler,
      "GET",
      `/api/links/${linkIds[0]}/baseline`,
      viewerToken,
      String(linkIds[0]),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      linkId: linkIds[0],
      baselineRuns: 5,
      importsInBaseline: false,
      signatures: [
        expect.objectContaining({
          signature: "udp a-to-b P1 1000000000",
          label: "UDP, A → B, 1 stream, 1,000 Mbit/s",
          medianBitsPerSecond: null,
          count: 1,
          n: 5,
          minRuns: 3,
        }),
        // the last 5 successful TCP runs: 9.3, 9.4, 9.5, 9.4, 1 Gbit/s
        expect.objectContaining({
          signature: "tcp a-to-b P1",
          label: "TCP, A → B, 1 stream",
          medianBitsPerSecond: 9.4e9,
          minBitsPerSecond: 1e9,
          maxBitsPerSecond: 9.5e9,
          count: 5,
          n: 5,
        }),
      ],
    });
  });

  it("answers 404 for a link that does not exist", async () => {
    const missing = await call(baseline.GET as Handler, "GET", "/api/links/424242/baseline", TEST_API_TOKEN, "424242");
    expect(missing.status).toBe(404);
  });
});
