import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunComparison } from "@/lib/runs/series-reads";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";
import { openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import * as experimentExport from "@/app/experiments/[id]/export/route";
import { userWithToken } from "@/testing/user-tokens";

// Notes and labels on runs, experiments and links, through the API a script uses
// (PATCH /api/runs/:id, /api/experiments/:id, /api/links/:id { note, labels }) and the runs
// list's label filter (GET /api/runs?label=).

let api: TestApi;
let linkId: number;
const runIds: number[] = [];
let experimentId: number;
let viewerToken: string;
let operatorToken: string;

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["notes-a", "notes-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 10_000 }, { name: "notes-link" });
  for (let index = 0; index < 3; index += 1) {
    const run = await api.db.run.create({
      data: {
        linkId,
        status: "succeeded",
        createdAt: new Date(Date.UTC(2026, 10, 1, 12, index)),
        options: storedRunOptions({ protocol: "tcp", parallel: 1 + index }),
        signature: `tcp a-to-b P${1 + index}`,
        receivedBitsPerSecond: 9e9,
      },
    });
    runIds.push(run.id);
  }
  experimentId = (await api.db.experiment.create({ data: { kind: "sweep", plan: {}, status: "succeeded" } })).id;
  viewerToken = (await userWithToken("notes-viewer", "viewer")).token;
  operatorToken = (await userWithToken("notes-operator", "operator")).token;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("a run's note and labels", () => {
  it("are set by an operator, lowercased and without repeats, shown by the run and the runs list, and audited", async () => {
    const saved = await api.json(
      "PATCH",
      `/api/runs/${runIds[0]}`,
      { note: "after moving the card to slot 2", labels: ["DAC", "slot-2", "dac"] },
      { token: operatorToken },
    );
    expect(saved).toMatchObject({
      status: 200,
      body: { id: runIds[0], note: "after moving the card to slot 2", labels: ["dac", "slot-2"] },
    });
    const run = await api.json("GET", `/api/runs/${runIds[0]}`);
    expect(run.body).toMatchObject({ note: "after moving the card to slot 2", labels: ["dac", "slot-2"] });
    const list = await api.json("GET", `/api/runs?linkId=${linkId}`);
    expect(list.body.runs.find((row: { id: number }) => row.id === runIds[0])).toMatchObject({
      note: "after moving the card to slot 2",
      labels: ["dac", "slot-2"],
    });
    const audit = await api.db.auditEvent.findFirstOrThrow({ where: { action: "run.note", targetId: runIds[0] } });
    expect(audit).toMatchObject({ actorName: "notes-operator", detail: "note; labels: dac, slot-2" });
  });

  it("come with the runs a link page compares", async () => {
    const compared = await getRunComparison({ ids: [runIds[0]!, runIds[2]!], linkId });
    expect(compared.map((entry) => entry.run.id)).toEqual([runIds[0], runIds[2]]);
    expect(compared[0]!.run).toMatchObject({ note: "after moving the card to slot 2", labels: ["dac", "slot-2"] });
    expect(compared[1]!.run).toMatchObject({ note: "", labels: [] });
  });

  it("change one at a time: labels alone keep the note, and [] clears them", async () => {
    await api.json("PATCH", `/api/runs/${runIds[1]}`, { note: "new DAC", labels: ["dac"] });
    expect((await api.json("PATCH", `/api/runs/${runIds[1]}`, { labels: ["jumbo"] })).body).toEqual({
      id: runIds[1],
      note: "new DAC",
      labels: ["jumbo"],
    });
    expect((await api.json("PATCH", `/api/runs/${runIds[1]}`, { labels: [] })).body.labels).toEqual([]);
  });

  it("filter the runs list by label, alone or with the other filters; a bad label is a 400 naming it", async () => {
    await api.json("PATCH", `/api/runs/${runIds[2]}`, { labels: ["dac"] });
    const byLabel = await api.json("GET", "/api/runs?label=dac");
    expect(byLabel.body.runs.map((row: { id: number }) => row.id)).toEqual([runIds[2], runIds[0]]);
    expect(byLabel.body.total).toBe(2);
    // With an option filter the list is read per signature: the label still applies.
    const withStreams = await api.json("GET", "/api/runs?label=DAC&parallel=3");
    expect(withStreams.body.runs.map((row: { id: number }) => row.id)).toEqual([runIds[2]]);
    expect((await api.json("GET", "/api/runs?label=nothing")).body.total).toBe(0);
    const bad = await api.json("GET", "/api/runs?label=two%20words");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0]).toMatchObject({ field: "label", message: expect.stringMatching(/^must be 1-40/) });
  });

  it("refuses what is not allowed, naming the field; a viewer may not write them; a missing run is a 404", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, ""],
      [{ note: 5 }, "note"],
      [{ note: "bell \u0007" }, "note"],
      [{ labels: "dac" }, "labels"],
      [{ labels: ["has space"] }, "labels.0"],
      [{ labels: Array.from({ length: 21 }, (_, index) => `l${index}`) }, "labels"],
      [{ note: "x", colour: "red" }, ""],
    ];
    for (const [body, field] of cases) {
      const answer = await api.json("PATCH", `/api/runs/${runIds[0]}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (field) expect(answer.body.error.fields.map((entry: { field: string }) => entry.field)).toContain(field);
    }
    expect((await api.json("PATCH", `/api/runs/${runIds[0]}`, { note: "x" }, { token: viewerToken })).status).toBe(403);
    expect((await api.json("PATCH", "/api/runs/999999", { note: "x" })).status).toBe(404);
    // Nothing of the refused writes was kept.
    expect((await api.json("GET", `/api/runs/${runIds[0]}`)).body.note).toBe("after moving the card to slot 2");
  });
});

describe("an experiment's and a link's note and labels", () => {
  it("are set through their own PATCH and read back with them", async () => {
    const experiment = await api.json("PATCH", `/api/experiments/${experimentId}`, {
      note: "before the BIOS update",
      labels: ["bios"],
    });
    expect(experiment.body).toEqual({ id: experimentId, note: "before the BIOS update", labels: ["bios"] });
    expect((await api.json("GET", `/api/experiments/${experimentId}`)).body).toMatchObject({
      note: "before the BIOS update",
      labels: ["bios"],
    });
    const exported = await experimentExport.GET(
      new Request(`http://localhost/experiments/${experimentId}/export?format=json`, {
        headers: { authorization: `Bearer ${TEST_API_TOKEN}` },
      }),
      { params: Promise.resolve({ id: String(experimentId) }) },
    );
    expect((await exported.json()).experiment).toMatchObject({ note: "before the BIOS update", labels: ["bios"] });
    expect((await api.json("PATCH", "/api/experiments/999999", { note: "x" })).status).toBe(404);
    expect(
      (await api.json("PATCH", `/api/experiments/${experimentId}`, { note: "x" }, { token: viewerToken })).status,
    ).toBe(403);

    const link = await api.json("PATCH", `/api/links/${linkId}`, { note: "new DAC, 3 m", labels: ["Dac"] });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ note: "new DAC, 3 m", notes: "new DAC, 3 m", labels: ["dac"] });
    const both = await api.json("PATCH", `/api/links/${linkId}`, { note: "a", notes: "b" });
    expect(both.status).toBe(400);
    expect(both.body.error.fields[0].field).toBe("note");
  });
});
