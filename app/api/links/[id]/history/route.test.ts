import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";
import { signatureOf } from "@/lib/runs/signature";
import { GET } from "./route";

// GET /api/links/:id/history: the link page's history chart, and whether to keep asking.

let api: TestApi;
let linkId = 0;
let otherLinkId = 0;

/** GET /api/links/:id/history as Next.js calls it, with a bearer token (WIRESPEED_API_TOKEN unless told; null sends none). */
async function get(path: string, token?: string | null) {
  const id = /^\/api\/links\/([^/]+)\/history$/.exec(path)![1]!;
  const { status, body } = await callRoute(GET, "GET", path, { token, params: { id } });
  return { status, body };
}

async function addRun(
  link: number,
  status: string,
  minute: number,
  options: Record<string, unknown> = {},
  received: number | null = 9e8,
): Promise<number> {
  const stored = storedRunOptions(options);
  const run = await api.db.run.create({
    data: {
      linkId: link,
      status,
      clientSide: "a",
      createdAt: new Date(Date.UTC(2026, 10, 1, 12, minute)),
      options: stored,
      signature: signatureOf(stored, "a"),
      receivedBitsPerSecond: received,
    },
  });
  return run.id;
}

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["hist-a", "hist-b"]);
  linkId = await postLink(api, hosts, { name: "eth1", speedMbps: 1000 }, { name: "hist-1" });
  otherLinkId = await postLink(api, hosts, { name: "eth2", speedMbps: 1000 }, { name: "hist-2" });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("GET /api/links/:id/history", () => {
  it("answers an empty history for a link without runs", async () => {
    expect(await get(`/api/links/${linkId}/history`)).toEqual({
      status: 200,
      body: { linkId, activeRunCount: 0, points: [] },
    });
  });

  it("has one point per succeeded run, oldest first, by protocol and direction; failed runs and other links stay out", async () => {
    const first = await addRun(linkId, "succeeded", 1, { parallel: 4 }, 9.4e8);
    await addRun(linkId, "failed", 2, {}, null);
    const second = await addRun(
      linkId,
      "succeeded",
      3,
      { protocol: "udp", reverse: true, bitrate: 1e9, latency: true },
      9.9e8,
    );
    // a run that measured latency under load carries its loaded median
    await api.db.run.update({ where: { id: second }, data: { latencyLoadedMedianMs: 12.5 } });
    await addRun(otherLinkId, "succeeded", 4);
    const { status, body } = await get(`/api/links/${linkId}/history`);
    expect(status).toBe(200);
    expect(body).toEqual({
      linkId,
      activeRunCount: 0,
      points: [
        {
          id: first,
          time: "2026-11-01T12:01:00.000Z",
          receivedBitsPerSecond: 9.4e8,
          protocol: "tcp",
          direction: "a-to-b",
          parallel: 4,
          signature: "tcp a-to-b P4",
          status: "succeeded",
          loadedLatencyMs: null,
          imported: false,
          offLink: false,
        },
        {
          id: second,
          time: "2026-11-01T12:03:00.000Z",
          receivedBitsPerSecond: 9.9e8,
          protocol: "udp",
          direction: "b-to-a",
          parallel: 1,
          signature: "udp b-to-a P1 1000000000",
          status: "succeeded",
          loadedLatencyMs: 12.5,
          imported: false,
          offLink: false,
        },
      ],
    });
  });

  it("counts the link's queued, preparing and running runs, so that a page keeps asking while one is active", async () => {
    const running = await addRun(linkId, "running", 5, {}, null);
    await addRun(linkId, "queued", 6, {}, null);
    await addRun(otherLinkId, "running", 7, {}, null);
    expect((await get(`/api/links/${linkId}/history`)).body.activeRunCount).toBe(2);
    await api.db.run.update({ where: { id: running }, data: { status: "succeeded", receivedBitsPerSecond: 9.5e8 } });
    const { body } = await get(`/api/links/${linkId}/history`);
    expect(body.activeRunCount).toBe(1);
    expect(body.points.at(-1)).toMatchObject({ id: running, receivedBitsPerSecond: 9.5e8 });
  });

  it("answers 404 for a link that does not exist, 400 for an id that cannot be one, 401 without a token", async () => {
    const missing = await get("/api/links/999999/history");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", message: "Link 999999 does not exist." });
    const bad = await get("/api/links/abc/history");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual([
      { field: "id", message: expect.stringMatching(/whole number from 1 to 2147483647/) },
    ]);
    expect((await get(`/api/links/${linkId}/history`, null)).status).toBe(401);
  });
});
