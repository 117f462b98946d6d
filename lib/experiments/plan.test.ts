import { describe, expect, it } from "vitest";
import type { PlanLink } from "./contract";
import { planLink, refusal } from "./kinds/outcome-builders";
import { checkPlan, parseExperimentRequest } from "./plan";

const LINKS: PlanLink[] = [planLink(1, 1000, "lan"), planLink(2, 10000, "port 0"), planLink(3, 10000, "port 1")];

describe("parseExperimentRequest", () => {
  it("fills in the defaults of the kind and a name from it", () => {
    expect(
      parseExperimentRequest({
        kind: "sweep",
        linkIds: [1],
        options: { duration: 20 },
        factor: "parallel",
        values: [1, 2, 4],
      }),
    ).toEqual({
      kind: "sweep",
      name: "Stream sweep",
      linkIds: [1],
      options: { duration: 20 },
      factor: "parallel",
      values: [1, 2, 4],
      repeats: 1,
      kneePercent: 95,
    });
    expect(parseExperimentRequest({ kind: "matrix", linkIds: [1] })).toMatchObject({
      name: "Every direction",
      options: {},
      directions: ["a-to-b", "b-to-a", "bidir"],
      protocols: ["tcp"],
      clientSides: ["a"],
    });
    expect(parseExperimentRequest({ kind: "concurrent", linkIds: [2, 3], name: "  PCIe slot 2  " })).toMatchObject({
      name: "PCIe slot 2",
      baseline: false,
    });
    expect(parseExperimentRequest({ kind: "channels", linkIds: [1], channels: 8 })).toMatchObject({
      name: "8 channels",
      affinity: false,
    });
    expect(parseExperimentRequest({ kind: "udp-ceiling", linkIds: [1] })).toMatchObject({
      name: "UDP ceiling",
      lossPercent: 0.1,
      low: null,
      high: null,
    });
  });

  it("refuses an empty value list", () => {
    expect(
      refusal(() => parseExperimentRequest({ kind: "sweep", linkIds: [1], factor: "parallel", values: [] })),
    ).toEqual([{ field: "values", message: "must list 1 to 32 values to step through" }]);
  });

  it("refuses a value of the wrong type or given twice, naming it values[i]", () => {
    expect(
      refusal(() =>
        parseExperimentRequest({ kind: "sweep", linkIds: [1], factor: "parallel", values: [1, "4", 2, 2] }),
      ),
    ).toEqual([
      { field: "values[1]", message: "must be a number (parallel)" },
      { field: "values[3]", message: "2 is given twice" },
    ]);
  });

  it("refuses a plan of more than 64 runs, saying how many it takes", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(
      refusal(() => parseExperimentRequest({ kind: "sweep", linkIds: [1], factor: "parallel", values, repeats: 9 })),
    ).toEqual([{ field: "plan", message: "this plan takes 72 runs; at most 64" }]);
    expect(
      parseExperimentRequest({ kind: "sweep", linkIds: [1], factor: "parallel", values, repeats: 8 }),
    ).toMatchObject({ repeats: 8 });
  });

  it("refuses a link given twice", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: [2, 3, 5, 5] }))).toEqual([
      { field: "linkIds[3]", message: "link 5 is given twice" },
    ]);
  });

  it("refuses link ids that are not ids, and too few or too many", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: [2, 1.5, "3", 0] }))).toEqual([
      { field: "linkIds[1]", message: "must be a link id (a whole number from 1)" },
      { field: "linkIds[2]", message: "must be a link id (a whole number from 1)" },
      { field: "linkIds[3]", message: "must be a link id (a whole number from 1)" },
    ]);
    expect(
      refusal(() => parseExperimentRequest({ kind: "sweep", linkIds: [], factor: "parallel", values: [1] })),
    ).toEqual([{ field: "linkIds", message: "must list 1 to 16 link ids" }]);
    const seventeen = Array.from({ length: 17 }, (_, index) => index + 1);
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: seventeen }))).toEqual([
      { field: "linkIds", message: "must list 1 to 16 link ids" },
    ]);
  });

  it("refuses a concurrent experiment of one link", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: [2] }))).toEqual([
      { field: "linkIds", message: "links measured together must be at least two (1 given)" },
    ]);
  });

  it("refuses a single-link kind with several links", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "matrix", linkIds: [1, 2] }))).toEqual([
      { field: "linkIds", message: "a matrix measures one link: give exactly one (2 given)" },
    ]);
  });

  it("refuses UDP cells without a bitrate, naming options.bitrate", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "matrix", linkIds: [1], protocols: ["tcp", "udp"] }))).toEqual([
      {
        field: "options.bitrate",
        message: "is required for the UDP cells (bits/s; 0 = unlimited): without it iperf3 sends 1 Mbit/s",
      },
    ]);
    expect(
      parseExperimentRequest({ kind: "matrix", linkIds: [1], protocols: ["tcp", "udp"], options: { bitrate: 1e9 } }),
    ).toMatchObject({ options: { bitrate: 1e9 } });
  });

  it("refuses an unknown top-level key, naming it and what the kind takes", () => {
    expect(
      refusal(() =>
        parseExperimentRequest({ kind: "sweep", linkIds: [1], factor: "parallel", values: [1], repeat: 3 }),
      ),
    ).toEqual([
      {
        field: "repeat",
        message:
          "is not a field of a sweep experiment; it takes kind, name, linkIds, options, factor, values, repeats, kneePercent",
      },
    ]);
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: [1, 2], channels: 4 }))).toEqual([
      {
        field: "channels",
        message: "is not a field of a concurrent experiment; it takes kind, name, linkIds, options, baseline",
      },
    ]);
  });

  it("checks the options as a run request does, naming them options.<field>", () => {
    expect(
      refusal(() =>
        parseExperimentRequest({
          kind: "concurrent",
          linkIds: [2, 3],
          options: { parallel: 0, reverse: true, paralel: 4 },
        }),
      ),
    ).toEqual([
      { field: "options.reverse", message: 'is set through direction here: "a-to-b", "b-to-a" or "bidir"' },
      { field: "options.parallel", message: "must be a whole number from 1 to 128 streams" },
      { field: "options.paralel", message: "is not a known field here" },
    ]);
    expect(refusal(() => parseExperimentRequest({ kind: "concurrent", linkIds: [2, 3], options: [] }))).toEqual([
      { field: "options", message: "must be a JSON object of run options, as POST /api/links/:id/runs takes them" },
    ]);
  });

  it("collects every problem into one answer", () => {
    const fields = refusal(() =>
      parseExperimentRequest({
        kind: "sweep",
        name: "x".repeat(101),
        linkIds: [1, 1],
        factor: "streams",
        options: { duration: -1 },
      }),
    );
    expect(fields.map((entry) => entry.field)).toEqual(["name", "linkIds[1]", "factor", "values", "options.duration"]);
  });

  it("refuses an unknown kind and a body that is not an object", () => {
    expect(refusal(() => parseExperimentRequest({ kind: "soak", linkIds: [1] }))).toEqual([
      {
        field: "kind",
        message: "must be one of sweep, matrix, concurrent, channels, udp-ceiling, mesh, interference, versus",
      },
    ]);
    expect(refusal(() => parseExperimentRequest([]))).toEqual([{ field: "body", message: "must be a JSON object" }]);
  });

  it("keeps the options as given, so that Run again repeats the same plan", () => {
    const body = { kind: "udp-ceiling", linkIds: [1], options: { omit: 1 }, lossPercent: 0.5 };
    const plan = parseExperimentRequest(body);
    expect(plan.options).toEqual({ omit: 1 });
    expect(parseExperimentRequest(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
  });
});

describe("checkPlan", () => {
  it("gives the base request and the runs and steps the plan takes", () => {
    const plan = parseExperimentRequest({
      kind: "concurrent",
      linkIds: [2, 3],
      baseline: true,
      options: { parallel: 4 },
    });
    const checked = checkPlan(plan, LINKS);
    expect(checked).toMatchObject({
      maxRuns: 4,
      maxSteps: 3,
      base: { direction: "a-to-b", clientSide: "a", options: { parallel: 4 } },
    });
  });

  it("refuses a link that does not exist", () => {
    const plan = parseExperimentRequest({ kind: "concurrent", linkIds: [2, 9] });
    expect(refusal(() => checkPlan(plan, LINKS))).toEqual([{ field: "linkIds[1]", message: "link 9 does not exist" }]);
  });

  it("refuses channels that do not fit the server's port range", () => {
    const narrow: PlanLink = {
      ...planLink(4, 100000, "100G"),
      portRanges: { a: { min: 5201, max: 5299 }, b: { min: 5201, max: 5204 } },
    };
    const plan = parseExperimentRequest({ kind: "channels", linkIds: [4], channels: 8 });
    expect(refusal(() => checkPlan(plan, [narrow]))).toEqual([
      {
        field: "channels",
        message:
          "8 channels need 8 ports, but the server's end (b) has 5201-5204, 4 ports: widen its host's port range or take fewer channels",
      },
    ]);
    // The server runs on a when b is the client: its range is wide enough.
    expect(checkPlan({ ...plan, options: { clientSide: "b" } }, [narrow]).maxRuns).toBe(8);
  });

  it("refuses a UDP ceiling without a high on a link that has no speed", () => {
    const plan = parseExperimentRequest({ kind: "udp-ceiling", linkIds: [4] });
    expect(refusal(() => checkPlan(plan, [planLink(4, 0, "unknown")]))).toEqual([
      { field: "high", message: "is needed: link unknown has no speed to start the search from (bits/s)" },
    ]);
  });
});
