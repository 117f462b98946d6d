import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";
import { GET } from "./route";

// GET /api/overview: the overview's counts, link cards and timeline, which the page
// renders first and then asks for again while a run is active.

let api: TestApi;
let linkId = 0;
const runIds: number[] = [];

/** GET /api/overview as Next.js calls it, with a bearer token (WIRESPEED_API_TOKEN unless told; null sends none). */
async function get(path: string, token?: string | null) {
  const { status, body } = await callRoute(GET, "GET", path, { token });
  return { status, body };
}

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["ov-api-a", "ov-api-b"]);
  linkId = await postLink(api, hosts, { name: "eth1", speedMbps: 1000 }, { name: "ov-api-1g" });
  // Two finished runs an hour and two days ago, each with three 1 s intervals, and one running now.
  const now = Date.now();
  for (const [startedAgo, status, received] of [
    [2 * 24 * 3600_000, "succeeded", 9.1e8],
    [3600_000, "succeeded", 9.4e8],
    [5_000, "running", null],
  ] as const) {
    const startedAt = new Date(now - startedAgo);
    const run = await api.db.run.create({
      data: {
        linkId,
        status,
        clientSide: "a",
        createdAt: startedAt,
        startedAt,
        endedAt: status === "running" ? null : new Date(startedAt.getTime() + 3000),
        options: storedRunOptions({ duration: 3 }),
        receivedBitsPerSecond: received,
      },
    });
    runIds.push(run.id);
    await api.db.sample.createMany({
      data: [0, 1, 2].map((seq) => ({
        runId: run.id,
        seq,
        start: seq,
        end: seq + 1,
        bytes: 1.1e8,
        bitsPerSecond: 9e8 + seq * 1e7,
      })),
    });
  }
}, 60_000);

afterAll(async () => {
  await api?.close();
});

afterEach(() => {
  delete process.env.WIRESPEED_PUBLIC_OVERVIEW;
});

describe("GET /api/overview", () => {
  it("answers the counts, each link's card and the last 24 hours' timeline by default", async () => {
    const { status, body } = await get("/api/overview");
    expect(status).toBe(200);
    expect(body.range).toBe("24h");
    expect(body.counts).toEqual({ hosts: expect.any(Number), links: 1, runs: 3 });
    expect(body.links).toHaveLength(1);
    expect(body.links[0]).toMatchObject({
      id: linkId,
      name: "ov-api-1g",
      speedMbps: 1000,
      a: { hostName: "ov-api-a", nicName: "eth1" },
      b: { hostName: "ov-api-b", nicName: "eth1" },
      latest: { id: runIds[1], receivedBitsPerSecond: 9.4e8, lineRatePercent: 94, summary: "TCP 3s →" },
      last: { id: runIds[2], status: "running" },
      active: { id: runIds[2], status: "running" },
      sparkline: [9.1e8, 9.4e8],
    });
    // The run of two days ago is outside the range; the running one draws its intervals so far.
    expect(body.timeline.runs.map((run: { runId: number }) => run.runId)).toEqual([runIds[1], runIds[2]]);
    expect(body.timeline.runs[0].points).toHaveLength(5);
    expect(body.timeline.to - body.timeline.from).toBe(24 * 3600_000);
  });

  it("widens the timeline with ?range=7d", async () => {
    const { body } = await get("/api/overview?range=7d");
    expect(body.range).toBe("7d");
    expect(body.timeline.runs.map((run: { runId: number }) => run.runId)).toEqual(runIds);
    expect(body.timeline.to - body.timeline.from).toBe(7 * 24 * 3600_000);
  });

  it("narrows the timeline to the last hour with ?range=1h", async () => {
    const { status, body } = await get("/api/overview?range=1h");
    expect(status).toBe(200);
    expect(body).toMatchObject({ range: "1h", zoom: null });
    // The run of an hour ago ended 3 s into the last hour; the one of two days ago is far out of it.
    expect(body.timeline.runs.map((run: { runId: number }) => run.runId)).toEqual([runIds[1], runIds[2]]);
    expect(body.timeline.to - body.timeline.from).toBe(3600_000);
  });

  it("zooms the timeline into a span with from and to, reading only the runs in it", async () => {
    const runAnHourAgo = await api.db.run.findUniqueOrThrow({ where: { id: runIds[1]! } });
    const from = runAnHourAgo.startedAt!.getTime() - 1000;
    const to = from + 10_000;
    const { status, body } = await get(`/api/overview?range=1h&from=${from}&to=${to}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ range: "1h", zoom: { from, to }, timeline: { from, to } });
    expect(body.timeline.runs.map((run: { runId: number }) => run.runId)).toEqual([runIds[1]]);
    expect(body.timeline.runs[0].points).toHaveLength(5);
  });

  it("answers 400 naming range and what it allows, from or to when wrong, or a parameter it does not know", async () => {
    const bad = await get("/api/overview?range=1y");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual([{ field: "range", message: "must be one of 1h, 6h, 24h, 7d" }]);
    expect((await get("/api/overview?page=2")).body.error.fields).toEqual([
      { field: "page", message: "is not a known query parameter (allowed: range, from, to)" },
    ]);
    const from = Date.now() - 60_000;
    for (const [query, fields] of [
      [`from=${from}`, [{ field: "to", message: "is required with from" }]],
      [`from=yesterday&to=${from}`, [{ field: "from", message: "must be whole milliseconds since 1970" }]],
      [`from=${from}&to=${from + 10}`, [{ field: "to", message: "must be at least 1000 ms after from" }]],
      [`from=${from}&to=${from + 8 * 24 * 3600_000}`, [{ field: "to", message: "must be at most 7 days after from" }]],
    ] as const) {
      const answer = await get(`/api/overview?range=1h&${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.fields, query).toEqual(fields);
    }
  });

  it("wants a token, unless the overview is public (WIRESPEED_PUBLIC_OVERVIEW=1)", async () => {
    expect((await get("/api/overview", null)).status).toBe(401);
    process.env.WIRESPEED_PUBLIC_OVERVIEW = "1";
    const open = await get("/api/overview", null);
    expect(open.status).toBe(200);
    expect(open.body.links[0].name).toBe("ov-api-1g");
  });
});
