import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";
import { GET } from "./route";

// GET /api/runs: the run tables of the dashboard (the runs list and the link page) read it.

let api: TestApi;
const linkIds: number[] = [];
const runIds: Record<string, number> = {};

/** GET /api/runs as Next.js calls it, with a bearer token (WIRESPEED_API_TOKEN unless told; null sends none). */
async function get(path: string, token?: string | null) {
  const { status, body } = await callRoute(GET, "GET", path, { token });
  return { status, body };
}

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["runs-a", "runs-b"]);
  for (const [index, speedMbps] of [1000, 10_000].entries())
    linkIds.push(await postLink(api, hosts, { name: `eth${index}`, speedMbps }, { name: `runs-link-${index}` }));
  // Oldest first: the list answers newest first.
  const runs: Array<[string, number, string, Record<string, unknown>, string, number | null]> = [
    ["tcp1", linkIds[0]!, "succeeded", { protocol: "tcp", parallel: 1 }, "a", 9.4e8],
    ["tcp4-reverse", linkIds[0]!, "succeeded", { protocol: "tcp", parallel: 4, reverse: true }, "a", 9.1e8],
    ["udp", linkIds[0]!, "failed", { protocol: "udp", parallel: 1, bitrate: 1e9 }, "a", null],
    ["other-link", linkIds[1]!, "succeeded", { protocol: "tcp", parallel: 8 }, "b", 8.5e9],
    ["running", linkIds[0]!, "running", { protocol: "tcp", parallel: 1 }, "a", null],
  ];
  for (const [index, [name, linkId, status, options, clientSide, received]] of runs.entries()) {
    const run = await api.db.run.create({
      data: {
        linkId,
        status,
        clientSide,
        createdAt: new Date(Date.UTC(2026, 10, 1, 12, index)),
        options: storedRunOptions(options),
        receivedBitsPerSecond: received,
      },
    });
    runIds[name] = run.id;
  }
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("GET /api/runs", () => {
  it("answers every run, newest first, 25 to a page, each row with its link, options, result and share of line rate", async () => {
    const { status, body } = await get("/api/runs");
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, page: 1, pageSize: 25 });
    expect(body.runs.map((run: { id: number }) => run.id)).toEqual([
      runIds.running,
      runIds["other-link"],
      runIds.udp,
      runIds["tcp4-reverse"],
      runIds.tcp1,
    ]);
    expect(body.runs[1]).toMatchObject({
      id: runIds["other-link"],
      linkId: linkIds[1],
      linkName: "runs-link-1",
      linkSpeedMbps: 10_000,
      status: "succeeded",
      createdAt: "2026-11-01T12:03:00.000Z",
      options: { protocol: "tcp", parallel: 8 },
      clientSide: "b",
      direction: "b-to-a",
      receivedBitsPerSecond: 8.5e9,
      lineRatePercent: 85,
      queuePosition: null,
    });
    // Figures only: the raw output stays with GET /api/runs/:id.
    expect(body.runs[0]).not.toHaveProperty("output");
    expect(body.runs[0]).not.toHaveProperty("clientOutput");
  });

  it("filters by link, status, protocol, direction and streams, together", async () => {
    const ids = async (query: string) =>
      (await get(`/api/runs?${query}`)).body.runs.map((run: { id: number }) => run.id);
    expect(await ids(`linkId=${linkIds[1]}`)).toEqual([runIds["other-link"]]);
    expect(await ids("status=failed")).toEqual([runIds.udp]);
    expect(await ids("protocol=udp")).toEqual([runIds.udp]);
    expect(await ids(`linkId=${linkIds[0]}&direction=b-to-a`)).toEqual([runIds["tcp4-reverse"]]);
    expect(await ids("parallel=4")).toEqual([runIds["tcp4-reverse"]]);
    expect(await ids(`linkId=${linkIds[0]}&protocol=tcp&status=succeeded&direction=a-to-b&parallel=1`)).toEqual([
      runIds.tcp1,
    ]);
    const empty = await get(`/api/runs?linkId=${linkIds[1]}&protocol=udp`);
    expect(empty.body).toEqual({ runs: [], total: 0, page: 1, pageSize: 25 });
  });

  it("pages with ?page= and ?pageSize=, the total counting every match", async () => {
    const { body } = await get("/api/runs?pageSize=2&page=2");
    expect(body).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(body.runs.map((run: { id: number }) => run.id)).toEqual([runIds.udp, runIds["tcp4-reverse"]]);
    expect((await get("/api/runs?pageSize=2&page=9")).body).toMatchObject({ runs: [], total: 5, page: 9 });
  });

  it("answers 400 naming every bad parameter and what it allows", async () => {
    const { status, body } = await get(
      "/api/runs?status=done&protocol=sctp&direction=up&linkId=0&parallel=500&page=0&pageSize=1000&sort=asc",
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid");
    const fields = Object.fromEntries(
      body.error.fields.map((entry: { field: string; message: string }) => [entry.field, entry.message]),
    );
    expect(fields).toEqual({
      sort: expect.stringMatching(
        /not a known query parameter \(allowed: linkId, status, protocol, direction, parallel, label, page, pageSize\)/,
      ),
      status: "must be one of queued, preparing, listening, running, succeeded, failed, cancelled, interrupted",
      protocol: "must be one of tcp, udp",
      direction: "must be one of a-to-b, b-to-a, bidir",
      linkId: expect.stringMatching(/whole number from 1 to 2147483647/),
      parallel: "must be a whole number from 1 to 128",
      page: "must be a whole number from 1 to 1000000",
      pageSize: "must be a whole number from 1 to 500",
    });
    expect((await get("/api/runs?parallel=1e3")).body.error.fields).toEqual([
      { field: "parallel", message: "must be a whole number from 1 to 128" },
    ]);
  });

  it("answers 401 without a token or with a wrong one", async () => {
    expect((await get("/api/runs", null)).status).toBe(401);
    expect((await get("/api/runs", "not-the-token")).status).toBe(401);
  });
});
