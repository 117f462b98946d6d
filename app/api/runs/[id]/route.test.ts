import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";

// A run or link that does not exist is a 404 on every run route. The engine's routes
// (start, rerun, cancel) look nothing up first: the engine's own not-found answers.

let api: TestApi;
let linkId = 0;
let finishedRunId = 0;

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["gone-a", "gone-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 1000 }, { name: "gone-link" });
  const run = await api.db.run.create({
    data: { linkId, status: "succeeded", clientSide: "a", options: storedRunOptions() },
  });
  finishedRunId = run.id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("a run that does not exist", () => {
  it.each([
    ["GET", "/api/runs/999999"],
    ["GET", "/api/runs/999999/samples"],
    ["GET", "/api/runs/999999/events"],
    ["POST", "/api/runs/999999/cancel"],
    ["POST", "/api/runs/999999/rerun"],
  ])("%s %s answers 404 naming it", async (method, path) => {
    const { status, body } = await api.json(method, path);
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: "not_found", message: "Run 999999 does not exist." } });
  });

  it("starts nothing", async () => {
    expect(await api.db.run.count()).toBe(1);
  });
});

describe("a link that does not exist", () => {
  it.each([
    ["GET", undefined],
    ["POST", { duration: 1 }],
  ])("%s /api/links/:id/runs answers 404 naming it, and starts nothing", async (method, body) => {
    const answer = await api.json(method, "/api/links/999999/runs", body);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: "not_found", message: "Link 999999 does not exist." } });
    expect(await api.db.run.count()).toBe(1);
  });

  it("still checks the options first: 400 before 404", async () => {
    const { status, body } = await api.json("POST", "/api/links/999999/runs", { parallel: 0 });
    expect(status).toBe(400);
    expect(body.error.fields).toEqual([{ field: "parallel", message: expect.stringMatching(/whole number/) }]);
  });
});

describe("a run that exists", () => {
  it("is cancelled without a look-up first: a finished run stays as it ended", async () => {
    const { status, body } = await api.json("POST", `/api/runs/${finishedRunId}/cancel`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: finishedRunId, status: "succeeded" });
  });
});
