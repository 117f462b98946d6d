import { describe, expect, it } from "vitest";
import { compareTables } from "../compare";
import type { PlanLink, PlanOf, RunOutcome, StepOutcome } from "../contract";
import { resultTableCsv } from "../export";
import { baseRequestOf, checkPlan, parseExperimentRequest, requestOfPlan } from "../plan";
import { meshKind } from "./mesh";
import { planLink, refusal, stepOutcome } from "./outcome-builders";

const NAS = { id: 1, name: "nas" };
const PVE = { id: 2, name: "pve" };
const ESX = { id: 3, name: "esx" };
// Two links join nas and pve (a 10G and a 1G port); a 1G link joins pve and esx.
const LAB: PlanLink[] = [
  planLink(1, 10000, "data1", { a: NAS, b: PVE }),
  planLink(2, 1000, "data2", { a: NAS, b: PVE }),
  planLink(3, 1000, "data3", { a: PVE, b: ESX }),
];
const AT = Date.parse("2026-12-03T02:00:00Z");

function meshPlan(fields: Record<string, unknown> = { linkIds: [1, 2, 3] }): PlanOf<"mesh"> {
  return parseExperimentRequest({ kind: "mesh", options: { duration: 2 }, ...fields }) as PlanOf<"mesh">;
}

/** Every step carried out, each run measuring what `figures` gives for its step's label. */
function runAll(
  plan: PlanOf<"mesh">,
  figures: (label: string, index: number) => Partial<RunOutcome>,
  links = LAB,
): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (let step = meshKind.nextStep(plan, base, links, done); step; step = meshKind.nextStep(plan, base, links, done)) {
    done.push(
      stepOutcome(done.length, step, [{ startedAtMs: AT + done.length * 60_000, ...figures(step.label, done.length) }]),
    );
  }
  return done;
}

const RATES: Record<string, Partial<RunOutcome>> = {
  "data1 nas → pve": { receivedBitsPerSecond: 9.4e9 },
  "data1 pve → nas": { receivedBitsPerSecond: 9.0e9 },
  "data2 nas → pve": { receivedBitsPerSecond: 0.94e9 },
  "data2 pve → nas": { status: "failed", receivedBitsPerSecond: null },
  "data3 pve → esx": { receivedBitsPerSecond: 0.9e9 },
  "data3 esx → pve": { receivedBitsPerSecond: 0.41e9 },
};

describe("mesh steps", () => {
  it("runs each link a→b then b→a, one run per step, with the base options", () => {
    const plan = meshPlan();
    const steps = meshKind.steps(plan, baseRequestOf(plan), LAB)!;
    expect(steps.map((step) => [step.label, step.tags.direction, step.runs.length])).toEqual([
      ["data1 nas → pve", "a-to-b", 1],
      ["data1 pve → nas", "b-to-a", 1],
      ["data2 nas → pve", "a-to-b", 1],
      ["data2 pve → nas", "b-to-a", 1],
      ["data3 pve → esx", "a-to-b", 1],
      ["data3 esx → pve", "b-to-a", 1],
    ]);
    expect(steps.map((step) => [step.runs[0]!.options.reverse, step.runs[0]!.options.duration])).toEqual([
      [false, 2],
      [true, 2],
      [false, 2],
      [true, 2],
      [false, 2],
      [true, 2],
    ]);
    expect([meshKind.maxRuns(plan, LAB), meshKind.maxSteps(plan, LAB)]).toEqual([6, 6]);
  });

  it("puts the client on the managed end of a link to an iperf3 server it does not manage", () => {
    const external = {
      ...planLink(4, 1000, "isp", { a: NAS, b: { id: 9, name: "speedtest" } }),
      externalServerEnd: "a" as const,
    };
    const plan = meshPlan({ linkIds: [1, 4] });
    const steps = meshKind.steps(plan, baseRequestOf(plan), [...LAB, external])!.slice(2);
    // The client on b: a→b is -R, b→a is not.
    expect(steps.map((step) => [step.runs[0]!.clientSide, step.runs[0]!.options.reverse])).toEqual([
      ["b", true],
      ["b", false],
    ]);
  });
});

describe("mesh result", () => {
  it("gives a row per run and the grid of the hosts: the fastest link's run each way", () => {
    const plan = meshPlan();
    const result = meshKind.result(
      plan,
      LAB,
      runAll(plan, (label) => RATES[label]!),
    );
    expect(
      result.rows.map((row) => [row.linkId, row.direction, row.receivedBitsPerSecond, row.lineRatePercent]),
    ).toEqual([
      [1, "a-to-b", 9.4e9, 94],
      [1, "b-to-a", 9.0e9, 90],
      [2, "a-to-b", 0.94e9, 94],
      [2, "b-to-a", null, null],
      [3, "a-to-b", 0.9e9, 90],
      [3, "b-to-a", 0.41e9, 41],
    ]);
    expect(result.grid.hosts).toEqual([ESX, NAS, PVE]);
    expect(
      result.grid.cells.map((cell) => [cell.fromHostId, cell.toHostId, cell.linkId, cell.linkCount, cell.status]),
    ).toEqual([
      [ESX.id, PVE.id, 3, 1, "succeeded"],
      [NAS.id, PVE.id, 1, 2, "succeeded"],
      [PVE.id, ESX.id, 3, 1, "succeeded"],
      [PVE.id, NAS.id, 1, 2, "succeeded"],
    ]);
    const nasToPve = result.grid.cells[1]!;
    expect(nasToPve).toMatchObject({
      runId: result.rows[0]!.runId,
      at: "2026-12-03T02:00:00.000Z",
      receivedBitsPerSecond: 9.4e9,
      lineRatePercent: 94,
      baselinePercent: null,
      stale: false,
      offLink: false,
    });
  });

  it("marks a cell whose run's bytes went another way (its proof of the path says off-link)", () => {
    const plan = meshPlan({ linkIds: [2, 3] });
    const done = runAll(plan, (label) => RATES[label]!);
    // Link 3's a-to-b run (the third step): from its a end, pve, to esx.
    done[2] = { ...done[2]!, runs: [{ ...done[2]!.runs[0]!, pathVerdict: "off-link" }] };
    const cells = meshKind.result(plan, LAB, done).grid.cells.filter((cell) => cell.linkId === 3);
    expect(cells.map((cell) => [cell.fromHostId, cell.toHostId, cell.offLink])).toEqual([
      [ESX.id, PVE.id, false],
      [PVE.id, ESX.id, true],
    ]);
  });

  it("shows a pair not run yet as never, one whose runs all failed as failed, and passes over a cancelled run", () => {
    const plan = meshPlan({ linkIds: [2, 3] });
    const done = runAll(plan, (label) => RATES[label]!).slice(0, 3);
    done[2] = { ...done[2]!, runs: [{ ...done[2]!.runs[0]!, status: "cancelled", receivedBitsPerSecond: null }] };
    const cells = meshKind.result(plan, LAB, done).grid.cells;
    expect(
      cells.map((cell) => [cell.fromHostId, cell.toHostId, cell.linkId, cell.status, cell.runId === null]),
    ).toEqual([
      [ESX.id, PVE.id, 3, "never", true],
      [NAS.id, PVE.id, 2, "succeeded", false],
      [PVE.id, ESX.id, 3, "never", true],
      // As the grid keeps a failed cell's figures for a successful run: there is none.
      [PVE.id, NAS.id, 2, "failed", true],
    ]);
  });

  it("answers with the slowest run by share of its line rate, and how many failed", () => {
    const plan = meshPlan();
    const result = meshKind.result(
      plan,
      LAB,
      runAll(plan, (label) => RATES[label]!),
    );
    expect(meshKind.answer(plan, LAB, result)).toBe(
      "Slowest of five runs: data3 esx → pve at 410 Mbit/s (41% of its line rate); one run failed",
    );
    const fine = meshKind.result(
      plan,
      LAB,
      runAll(plan, (_label, index) => ({ receivedBitsPerSecond: index < 2 ? 9.5e9 : 0.95e9 })),
    );
    expect(meshKind.answer(plan, LAB, fine)).toBe(
      "All six runs reach 90% of their line rate or more; the slowest is data2 nas → pve at 950 Mbit/s (95% of its line rate)",
    );
    expect(meshKind.answer(plan, LAB, meshKind.result(plan, LAB, []))).toBeNull();
  });

  it("reads as a table whose rows pair up across meshes and export to CSV", () => {
    const plan = meshPlan();
    const first = meshKind.table(
      plan,
      LAB,
      meshKind.result(
        plan,
        LAB,
        runAll(plan, (label) => RATES[label]!),
      ),
    );
    expect(first.rows.map((row) => row.key)).toEqual([
      "link 1 a-to-b",
      "link 1 b-to-a",
      "link 2 a-to-b",
      "link 2 b-to-a",
      "link 3 a-to-b",
      "link 3 b-to-a",
    ]);
    expect(resultTableCsv(first).split("\n").slice(0, 2)).toEqual([
      "Link,From,To,Received (bit/s),Of line rate (%),Run",
      `data1,nas,pve,9400000000,94,${first.rows[0]!.cells.runIds}`,
    ]);
    const later = meshKind.table(
      plan,
      LAB,
      meshKind.result(
        plan,
        LAB,
        runAll(plan, (label) => ({ ...RATES[label]!, receivedBitsPerSecond: 0.82e9 })),
      ),
    );
    const compared = compareTables(first, later);
    expect(compared.rows.find((row) => row.key === "link 3 b-to-a")!.differences.receivedBitsPerSecond).toBe(100);
  });
});

describe("mesh plan", () => {
  it("takes 2 to 64 links, or hosts; a mesh of 64 links is 128 runs", () => {
    expect(refusal(() => meshPlan({ linkIds: [1] }))).toEqual([
      { field: "linkIds", message: "a mesh measures 2 to 64 links (1 given); for one link, run every direction" },
    ]);
    const many = Array.from({ length: 64 }, (_, index) => index + 1);
    const links = many.map((id) => planLink(id, 1000));
    expect(checkPlan(meshPlan({ linkIds: many }), links).maxRuns).toBe(128);
    expect(refusal(() => meshPlan({ linkIds: [...many, 65] }))).toEqual([
      { field: "linkIds", message: "must list 1 to 64 link ids" },
    ]);
  });

  it("refuses linkIds and hostIds together, and hosts given twice", () => {
    expect(refusal(() => meshPlan({ linkIds: [1, 2], hostIds: [1, 2] }))).toEqual([
      {
        field: "hostIds",
        message: "or linkIds: give one of them, not both (hostIds: every link among those hosts)",
      },
    ]);
    expect(refusal(() => meshPlan({ hostIds: [1, 1] }))).toEqual([
      { field: "hostIds[1]", message: "host 1 is given twice" },
    ]);
  });

  it("by hosts, is named for the lab and finds its links each time: a mesh of one link is refused naming hostIds", () => {
    const plan = meshPlan({ hostIds: [1, 2] });
    expect(plan).toMatchObject({ name: "The whole lab", hostIds: [1, 2], linkIds: [] });
    // Its links as they were found when it started: one link only.
    expect(refusal(() => checkPlan({ ...plan, linkIds: [1] }, LAB))).toEqual([
      { field: "hostIds", message: "the hosts nas and pve are joined by one link; a mesh needs at least 2" },
    ]);
    // Run again asks again: the links found last time are left out.
    expect(requestOfPlan({ ...plan, linkIds: [1, 2] })).toEqual({
      kind: "mesh",
      name: "The whole lab",
      hostIds: [1, 2],
      options: { duration: 2 },
    });
    expect(parseExperimentRequest(requestOfPlan({ ...plan, linkIds: [1, 2] }))).toEqual(plan);
  });

  it("refuses a link to a device, naming it", () => {
    const phone = {
      ...planLink(5, 1000, "phone wifi", { a: NAS, b: { id: 7, name: "phone" } }),
      deviceEnd: "b" as const,
    };
    expect(refusal(() => checkPlan(meshPlan({ linkIds: [1, 5] }), [...LAB, phone]))).toEqual([
      {
        field: "linkIds[1]",
        message: "link phone wifi ends at a device (end b), which runs no ordinary run: leave it out of the mesh",
      },
    ]);
  });
});
