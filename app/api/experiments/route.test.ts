import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { insertSweepExperiment } from "@/testing/sweep-experiment";

// The experiments API's answers that need no host: validation, lists, one experiment, 404s.
// Experiments that run are in lib/experiments/experiments.lab.test.ts.

let api: TestApi;
const linkIds: number[] = [];
let experimentIds: number[] = [];

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["exp-a", "exp-b"]);
  for (const index of [0, 1])
    linkIds.push(await postLink(api, hosts, { name: `eth${index}`, speedMbps: 1000 }, { name: `exp-link-${index}` }));
  experimentIds = [];
  for (const linkId of [linkIds[0]!, linkIds[1]!, linkIds[0]!])
    experimentIds.push(
      await insertSweepExperiment(api.db, linkId, {
        status: "succeeded",
        name: `streams on ${linkId}`,
        answer: "1 stream reaches 99% of the best (990 Mbit/s)",
      }),
    );
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("the experiments API", () => {
  it("lists experiments newest first, and those of one link with ?linkId=", async () => {
    const all = await api.json("GET", "/api/experiments");
    expect(all.status).toBe(200);
    expect(all.body.experiments.map((experiment: { id: number }) => experiment.id)).toEqual(
      [...experimentIds].reverse(),
    );
    expect(all.body.experiments[0]).toMatchObject({
      kind: "sweep",
      status: "succeeded",
      links: [{ id: linkIds[0] }],
      stepsDone: 0,
      plannedSteps: 2,
    });
    const ofLink = await api.json("GET", `/api/experiments?linkId=${linkIds[1]}`);
    expect(ofLink.body.experiments.map((experiment: { id: number }) => experiment.id)).toEqual([experimentIds[1]]);
    expect((await api.json("GET", "/api/experiments?linkId=abc")).body.error.fields).toEqual([
      { field: "linkId", message: "must be a whole number from 1 to 2147483647" },
    ]);
  });

  it("answers one experiment with its plan and answer, and 404 for one that does not exist", async () => {
    const one = await api.json("GET", `/api/experiments/${experimentIds[0]}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: experimentIds[0],
      kind: "sweep",
      plan: { factor: "parallel", values: [1, 2] },
      answer: "1 stream reaches 99% of the best (990 Mbit/s)",
      links: [{ id: linkIds[0], speedMbps: 1000 }],
    });
    const missing = await api.json("GET", "/api/experiments/99999");
    expect(missing.status).toBe(404);
    expect((await api.json("POST", "/api/experiments/99999/cancel")).status).toBe(404);
    expect((await api.json("POST", "/api/experiments/99999/rerun")).status).toBe(404);
    expect((await api.call("GET", "/api/experiments/99999/events")).status).toBe(404);
  });

  it("refuses a bad plan with a 400 naming each field, and records nothing", async () => {
    const before = await api.db.experiment.count();
    const cases: Array<[unknown, Array<{ field: string }>]> = [
      [{ kind: "sweep", linkIds: [linkIds[0]], options: {}, factor: "parallel", values: [] }, [{ field: "values" }]],
      [{ kind: "concurrent", linkIds: [linkIds[0]], options: {} }, [{ field: "linkIds" }]],
      [{ kind: "concurrent", linkIds: [linkIds[0], linkIds[0]], options: {} }, [{ field: "linkIds[1]" }]],
      [
        {
          kind: "sweep",
          linkIds: [linkIds[0]],
          options: {},
          factor: "parallel",
          values: [1, 2, 3, 4, 5, 6, 7, 8],
          repeats: 9,
        },
        [{ field: "plan" }],
      ],
      [{ kind: "matrix", linkIds: [linkIds[0]], options: {}, protocols: ["udp"] }, [{ field: "options.bitrate" }]],
      [{ kind: "bogus", linkIds: [linkIds[0]], options: {} }, [{ field: "kind" }]],
      [{ kind: "sweep", linkIds: [424242], options: {}, factor: "parallel", values: [1] }, [{ field: "linkIds[0]" }]],
    ];
    for (const [body, fields] of cases) {
      const response = await api.json("POST", "/api/experiments", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields, JSON.stringify(body)).toEqual(
        fields.map((field) => expect.objectContaining(field)),
      );
    }
    expect(await api.db.experiment.count()).toBe(before);
  });
});
