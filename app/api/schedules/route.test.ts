import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { userWithToken } from "@/testing/user-tokens";

// The schedules API as Next.js calls it, on a real database with real users and tokens:
// who may read and change schedules, the 400s that name the field, the detail's next starts.

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

let api: TestApi;
let collection: Record<string, Handler>;
let one: Record<string, Handler>;
const tokens: Record<"operator" | "viewer", string> = { operator: "", viewer: "" };
let linkId = 0;

/** Calls a schedules route with a bearer token (default: WIRESPEED_API_TOKEN, an admin). */
async function call(method: string, path: string, body?: unknown, token: string | null = TEST_API_TOKEN) {
  const url = new URL(path, "http://localhost");
  const id = /^\/api\/schedules\/([^/]+)$/.exec(url.pathname)?.[1];
  const handler = (id === undefined ? collection : one)[method];
  if (!handler) throw new Error(`no handler for ${method} ${url.pathname}`);
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  const request = new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await handler(request, { params: Promise.resolve({ id: id ?? "" }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

beforeAll(async () => {
  api = await openTestApi();
  collection = (await import("./route")) as unknown as Record<string, Handler>;
  one = (await import("./[id]/route")) as unknown as Record<string, Handler>;
  for (const role of ["operator", "viewer"] as const) {
    tokens[role] = (await userWithToken(`${role}1`, role, { tokenName: `${role}'s script` })).token;
  }
  const hosts = await postLocalHosts(api, ["sched-a", "sched-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 1000 }, { name: "sched-link" });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("the schedules API", () => {
  it("lets an operator create, change and delete a schedule, and a viewer only read it", async () => {
    const body = { name: "nightly", linkId, cron: "0 3 * * *", timezone: "Europe/Paris", slipSeconds: 60 };
    const refused = await call("POST", "/api/schedules", body, tokens.viewer);
    expect(refused.status).toBe(403);
    expect(await api.db.schedule.count()).toBe(0);
    expect((await call("GET", "/api/schedules", undefined, null)).status).toBe(401);

    const created = await call("POST", "/api/schedules", body, tokens.operator);
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/schedules/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "nightly",
      kind: "test",
      link: { id: linkId, name: "sched-link" },
      cron: "0 3 * * *",
      timezone: "Europe/Paris",
      slipSeconds: 60,
      enabled: true,
    });

    const listed = await call("GET", "/api/schedules", undefined, tokens.viewer);
    expect(listed.status).toBe(200);
    expect(listed.body.schedules.map((schedule: { id: number }) => schedule.id)).toEqual([created.body.id]);
    expect((await call("GET", `/api/schedules?linkId=${linkId + 1}`, undefined, tokens.viewer)).body.schedules).toEqual(
      [],
    );
    expect((await call("GET", "/api/schedules?linkId=x", undefined, tokens.viewer)).body.error.fields).toEqual([
      { field: "linkId", message: "must be a whole number from 1 to 2147483647" },
    ]);

    const path = `/api/schedules/${created.body.id}`;
    expect((await call("PATCH", path, { enabled: false }, tokens.viewer)).status).toBe(403);
    expect((await call("DELETE", path, undefined, tokens.viewer)).status).toBe(403);
    const paused = await call("PATCH", path, { enabled: false }, tokens.operator);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, nextRunAt: null, nextRuns: [] });
    const deleted = await call("DELETE", path, undefined, tokens.operator);
    expect(deleted.status).toBe(204);
    expect((await call("GET", path, undefined, tokens.viewer)).status).toBe(404);
    expect((await call("DELETE", path)).status).toBe(404);
    const audit = await api.db.auditEvent.findMany({
      where: { target: "schedule", targetId: created.body.id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((event) => [event.action, event.actorName])).toEqual([
      ["schedule.create", "operator1"],
      ["schedule.update", "operator1"],
      ["schedule.delete", "operator1"],
    ]);
  });

  it("answers a schedule with its next 5 starts and its latest starts, newest first", async () => {
    const created = await call("POST", "/api/schedules", { name: "quarterly", linkId, everyMinutes: 15 });
    await api.db.scheduleRun.createMany({
      data: [
        { scheduleId: created.body.id, dueAt: new Date("2026-01-01T10:00:00Z"), outcome: "started" },
        {
          scheduleId: created.body.id,
          dueAt: new Date("2026-01-01T10:15:00Z"),
          outcome: "skipped",
          reason: "link busy: run 3 is running",
        },
      ],
    });
    const detail = await call("GET", `/api/schedules/${created.body.id}`, undefined, tokens.viewer);
    expect(detail.status).toBe(200);
    expect(detail.body.nextRuns).toHaveLength(5);
    const starts = detail.body.nextRuns.map((start: string) => Date.parse(start));
    expect(starts.slice(1).map((start: number, index: number) => start - starts[index])).toEqual(
      [15, 15, 15, 15].map((minutes) => minutes * 60_000),
    );
    expect(starts[0]).toBeGreaterThan(Date.now());
    expect(
      detail.body.lastRuns.map((run: { outcome: string; reason: string | null }) => [run.outcome, run.reason]),
    ).toEqual([
      ["skipped", "link busy: run 3 is running"],
      ["started", null],
    ]);
    expect(detail.body.lastRun).toMatchObject({ outcome: "skipped" });
    expect((await call("GET", "/api/schedules/0")).status).toBe(400);
  });

  it("refuses bad values with a 400 naming the field, and records nothing", async () => {
    const before = await api.db.schedule.count();
    const cases: Array<[unknown, Array<{ field: string; message?: unknown }>]> = [
      [{ name: "x", linkId, cron: "0 3 * * * * *" }, [{ field: "cron", message: expect.stringContaining("5 fields") }]],
      [
        { name: "x", linkId, cron: "99 3 * * *" },
        [{ field: "cron", message: expect.stringContaining("invalid value for minute: 99") }],
      ],
      [
        { name: "x", linkId, cron: "0 3 * * *", timezone: "Europe/Atlantis" },
        [{ field: "timezone", message: "unknown time zone; use an IANA name such as Europe/Paris" }],
      ],
      [
        { name: "x", linkId, cron: "0 3 * * *", everyMinutes: 5 },
        [{ field: "cron", message: "or everyMinutes: give exactly one" }],
      ],
      [{ name: "x", cron: "0 3 * * *" }, [{ field: "linkId", message: "or experimentPlan: give exactly one" }]],
      [{ name: "x", linkId: 424242, everyMinutes: 10_081 }, [{ field: "everyMinutes" }]],
      [{ name: "x", linkId, everyMinutes: 5, options: { parallel: "four" } }, [{ field: "parallel" }]],
    ];
    for (const [body, fields] of cases) {
      const response = await call("POST", "/api/schedules", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields, JSON.stringify(body)).toEqual(
        fields.map((field) => expect.objectContaining(field)),
      );
    }
    const badPatch = await call("PATCH", `/api/schedules/${(await api.db.schedule.findFirstOrThrow()).id}`, {
      timezone: "Nowhere",
    });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error.fields).toEqual([
      { field: "timezone", message: expect.stringContaining("unknown time zone") },
    ]);
    expect((await call("PATCH", "/api/schedules/424242", { name: "x" })).status).toBe(404);
    expect(await api.db.schedule.count()).toBe(before);
  });
});
