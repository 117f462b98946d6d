import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { userWithToken } from "@/testing/user-tokens";
import { GET } from "./route";

// GET /api/grid: the grid of the hosts asked for, readable by a viewer; bad input is a 400 naming the field.

let api: TestApi;
let hostIds: number[] = [];
let viewerToken = "";

const get = (path: string, token?: string | null) => callRoute(GET, "GET", path, { token });

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["grid-api-a", "grid-api-b"]);
  await postLink(api, hosts, { name: "eth1", speedMbps: 1000 }, { name: "grid-api-1g" });
  const { hosts: all } = (await api.json("GET", "/api/hosts")).body as { hosts: Array<{ id: number; name: string }> };
  hostIds = all.filter((host) => host.name.startsWith("grid-api-")).map((host) => host.id);
  await api.json("PATCH", `/api/hosts/${hostIds[0]}`, { tags: ["rack1"] });
  viewerToken = (await userWithToken("grid-viewer", "viewer")).token;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("GET /api/grid", () => {
  it("answers a viewer the hosts and a cell per ordered pair a link joins", async () => {
    const { status, body } = await get("/api/grid", viewerToken);
    expect(status).toBe(200);
    expect(body.hosts.map((host: { name: string }) => host.name)).toEqual(["grid-api-a", "grid-api-b"]);
    expect(body.cells).toHaveLength(2);
    expect(body.cells[0]).toMatchObject({ linkCount: 1, runId: null, status: "never", stale: false });
  });

  it("takes hostIds, as a comma list or repeated, a tag and staleDays", async () => {
    expect((await get(`/api/grid?hostIds=${hostIds.join(",")}&staleDays=30`)).body.cells).toHaveLength(2);
    expect((await get(`/api/grid?hostIds=${hostIds[0]}&hostIds=${hostIds[1]}`)).body.cells).toHaveLength(2);
    const tagged = await get("/api/grid?tag=rack1");
    expect(tagged.status).toBe(200);
    expect(tagged.body).toEqual({ hosts: [{ id: hostIds[0], name: "grid-api-a" }], cells: [] });
  });

  it("refuses no account", async () => {
    expect((await get("/api/grid", null)).status).toBe(401);
  });

  it.each([
    ["/api/grid?tag=rack9", "tag", "is on no host: rack9"],
    ["/api/grid?tag=Rack%201", "tag", "must be a tag"],
    ["/api/grid?hostIds=1,x", "hostIds", "must be host ids separated by commas"],
    ["/api/grid?hostIds=0", "hostIds", "must be host ids"],
    ["/api/grid?hostIds=99999", "hostIds", "names no host: 99999"],
    ["/api/grid?hostIds=1&tag=rack1", "tag", "must be left out with hostIds"],
    ["/api/grid?staleDays=0", "staleDays", "from 1 to 365"],
    ["/api/grid?staleDays=1.5", "staleDays", "whole number"],
    ["/api/grid?range=7d", "range", "is not a known query parameter (allowed: hostIds, tag, staleDays)"],
  ])("%s: 400 naming %s", async (path, field, message) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error.fields).toEqual([{ field, message: expect.stringContaining(message) }]);
  });
});
