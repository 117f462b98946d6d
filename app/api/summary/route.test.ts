import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { seedLocalLinks } from "@/testing/local-links";
import { storedRunOptions } from "@/testing/run-options";
import { callRoute } from "@/testing/test-api";
import { userWithToken } from "@/testing/user-tokens";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { GET } from "./route";

// GET /api/summary: the answer a dashboard widget maps field by field. Its shape is pinned here,
// exactly: a field added, renamed or retyped breaks every Homepage, Homarr and Dashy set up with it.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

let viewerToken = "";
const get = (token: string | null, headers: Record<string, string> = {}) =>
  callRoute(GET, "GET", "/api/summary", { token, headers });

async function addRun(
  linkId: number,
  at: number,
  { status = "succeeded", rate = null }: { status?: string; rate?: number | null } = {},
) {
  await db.run.create({
    data: {
      linkId,
      status,
      options: storedRunOptions({}),
      receivedBitsPerSecond: rate,
      createdAt: new Date(at),
      endedAt: new Date(at + 10_000),
    },
  });
}

beforeAll(async () => {
  viewerToken = (await userWithToken("summary-viewer", "viewer")).token;
});

afterAll(() => database.close());

describe("GET /api/summary", () => {
  it("answers a lab without links with zeros and nulls", async () => {
    const { status, body } = await get(viewerToken);
    expect(status).toBe(200);
    expect(body).toStrictEqual({ links: 0, failingLinks: 0, firingAlerts: 0, lastRunAt: null, slowest: null });
  });

  it("counts links, failing links and firing alerts, names the slowest by line-rate share, and says when the last run ended", async () => {
    // link0: 9.4 of 10 Gbit/s (94%); link1: 0.5 of 10 (5%), then a failed run; link2: 8 of 10 with an alert firing.
    const [fast, slow, alerting] = await seedLocalLinks(db, 3);
    const t0 = Date.UTC(2027, 0, 10, 8, 0, 0);
    await addRun(fast!, t0, { rate: 9.4e9 });
    await addRun(slow!, t0 + 60_000, { rate: 0.5e9 });
    await addRun(slow!, t0 + 120_000, { status: "failed" });
    await addRun(alerting!, t0 + 180_000, { rate: 8e9 });
    // A cancelled run ends last: it is no result, yet it is the last run that ended.
    await addRun(fast!, t0 + 240_000, { status: "cancelled" });
    const rule = await db.alertRule.create({ data: { name: "slow", linkId: alerting!, belowLineRatePercent: 90 } });
    for (const status of ["firing", "firing", "resolved"])
      await db.alert.create({ data: { ruleId: rule.id, linkId: alerting!, status, title: "slow", body: "" } });

    const { status, body } = await get(viewerToken);
    expect(status).toBe(200);
    expect(body).toStrictEqual({
      links: 3,
      failingLinks: 2,
      firingAlerts: 2,
      lastRunAt: new Date(t0 + 250_000).toISOString(),
      slowest: { linkName: "link1", lineRatePercent: 5 },
    });
    expect(Object.keys(body)).toEqual(["links", "failingLinks", "firingAlerts", "lastRunAt", "slowest"]);
    expect(Object.keys(body.slowest)).toEqual(["linkName", "lineRatePercent"]);
  });

  it("answers a signed-in user's session and any API token, and no one else", async () => {
    const viewer = await userWithToken("summary-session", "viewer");
    const session = await createSession(viewer.user.id);
    const bySession = await get(null, { cookie: `${SESSION_COOKIE}=${session.token}` });
    expect(bySession.status).toBe(200);
    expect(bySession.body.links).toBe(3);
    expect((await get(null)).status).toBe(401);
    expect((await get("wst_not-a-token")).status).toBe(401);
  });
});
