import { describe, expect, it } from "vitest";
import { compareTables } from "../compare";
import type { PlanLink, PlanOf, StepOutcome } from "../contract";
import { resultTableCsv } from "../export";
import { baseRequestOf, checkPlan, parseExperimentRequest } from "../plan";
import { groupsOf, interferenceKind, pairKey, pairsOf } from "./interference";
import { planLink, refusal, stepOutcome } from "./outcome-builders";

// data6 and data7: two ports of one card in a narrow slot; data1 and data2 on cards of their own.
const LINKS: PlanLink[] = [
  planLink(1, 10000, "data1"),
  planLink(2, 10000, "data2"),
  planLink(6, 10000, "data6"),
  planLink(7, 10000, "data7"),
];

function interferencePlan(linkIds: number[] = [1, 2, 6, 7]): PlanOf<"interference"> {
  return parseExperimentRequest({
    kind: "interference",
    linkIds,
    options: { duration: 2 },
  }) as PlanOf<"interference">;
}

/** A run's intervals: one per second at `rate`. */
function seconds(count: number, rate: number): { end: number; bitsPerSecond: number }[] {
  return Array.from({ length: count }, (_, index) => ({ end: index + 1, bitsPerSecond: rate }));
}

/** Every step carried out: each link alone at 9.9 Gbit/s; together, `together(pair)` per link. */
function runAll(plan: PlanOf<"interference">, together: (pair: [number, number]) => number): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (
    let step = interferenceKind.nextStep(plan, base, LINKS, done);
    step;
    step = interferenceKind.nextStep(plan, base, LINKS, done)
  ) {
    const rate = step.tags.pair ? together(step.tags.pair) : 9.9e9;
    done.push(
      stepOutcome(
        done.length,
        step,
        step.runs.map(() => ({ receivedBitsPerSecond: rate, intervals: seconds(2, rate) })),
      ),
    );
  }
  return done;
}

/** data6 and data7 get 72% of alone together; every other pair all of it. */
const SLOT = (pair: [number, number]) => (pair[0] === 6 && pair[1] === 7 ? 0.72 * 9.9e9 : 9.9e9);

describe("interference steps", () => {
  it("runs each link alone, then every pair together with the same options", () => {
    const plan = interferencePlan([1, 6, 7]);
    const steps = interferenceKind.steps(plan, baseRequestOf(plan), LINKS)!;
    expect(
      steps.map((step) => [step.label, step.tags.phase, step.tags.pair, step.runs.map((run) => run.linkId)]),
    ).toEqual([
      ["data1 alone", "alone", undefined, [1]],
      ["data6 alone", "alone", undefined, [6]],
      ["data7 alone", "alone", undefined, [7]],
      ["data1 and data6 together", "together", [1, 6], [1, 6]],
      ["data1 and data7 together", "together", [1, 7], [1, 7]],
      ["data6 and data7 together", "together", [6, 7], [6, 7]],
    ]);
    expect(steps.every((step) => step.runs.every((run) => run.options.duration === 2))).toBe(true);
    // 8 links: 8 alone and 28 pairs, 64 runs.
    const eight = interferencePlan([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([interferenceKind.maxRuns(eight, []), interferenceKind.maxSteps(eight, [])]).toEqual([64, 36]);
  });

  it("pairs links in the order given, and keys a pair the same whatever its order", () => {
    expect(pairsOf([3, 1, 2])).toEqual([
      [3, 1],
      [3, 2],
      [1, 2],
    ]);
    expect([pairKey([7, 3]), pairKey([3, 7])]).toEqual(["pair 3-7", "pair 3-7"]);
  });
});

describe("interference result", () => {
  it("finds the pair that shares a bottleneck: together 72% of what each gets alone", () => {
    const plan = interferencePlan();
    const result = interferenceKind.result(plan, LINKS, runAll(plan, SLOT));
    const slot = result.pairs.find((pair) => pair.linkIds[0] === 6 && pair.linkIds[1] === 7)!;
    expect(slot).toMatchObject({
      aloneBitsPerSecond: [9.9e9, 9.9e9],
      togetherBitsPerSecond: [0.72 * 9.9e9, 0.72 * 9.9e9],
      percentOfAlone: 72,
    });
    expect(slot.togetherAggregateBitsPerSecond).toBeCloseTo(2 * 0.72 * 9.9e9);
    expect(slot.runIds).toHaveLength(4);
    expect(result.pairs).toHaveLength(6);
    expect(result.groups).toEqual([[6, 7]]);
    expect(interferenceKind.answer(plan, LINKS, result)).toBe(
      "data6 and data7 share a bottleneck: together they get 72% of what each gets alone; data1 and data2 are independent",
    );
  });

  it("joins links that share through pairs into one group, and says so in one sentence", () => {
    const plan = interferencePlan();
    // data2-data6 and data6-data7 share; data1 is independent of the others.
    const result = interferenceKind.result(
      plan,
      LINKS,
      runAll(plan, (pair) => (pair[1] === 6 && pair[0] === 2 ? 0.6 * 9.9e9 : SLOT(pair))),
    );
    expect(result.groups).toEqual([[2, 6, 7]]);
    expect(interferenceKind.answer(plan, LINKS, result)).toBe(
      "data2, data6 and data7 share a bottleneck: two of them together get as little as 60% of what each gets alone; data1 is independent of the others",
    );
    expect(
      groupsOf(
        [1, 2, 6, 7],
        [
          { ...result.pairs[0]!, linkIds: [1, 2], percentOfAlone: 50 },
          { ...result.pairs[0]!, linkIds: [6, 7], percentOfAlone: 89.9 },
        ],
      ),
    ).toEqual([
      [1, 2],
      [6, 7],
    ]);
  });

  it("says every pair is independent when none falls short, and nothing before a pair ran", () => {
    const plan = interferencePlan([1, 2, 6]);
    const result = interferenceKind.result(
      plan,
      LINKS,
      runAll(plan, () => 9.5e9),
    );
    expect(result.groups).toEqual([]);
    expect(interferenceKind.answer(plan, LINKS, result)).toBe(
      "data1, data2 and data6 are independent: every pair together gets 96% or more of what each gets alone",
    );
    const aloneOnly = runAll(plan, () => 9.5e9).slice(0, 3);
    expect(interferenceKind.result(plan, LINKS, aloneOnly)).toEqual({ pairs: [], groups: [] });
    expect(interferenceKind.answer(plan, LINKS, { pairs: [], groups: [] })).toBeNull();
  });

  it("reads as a table with a row per pair that pairs up across experiments and exports to CSV", () => {
    const plan = interferencePlan([6, 7]);
    const table = interferenceKind.table(plan, LINKS, interferenceKind.result(plan, LINKS, runAll(plan, SLOT)));
    expect(table.rows.map((row) => [row.key, row.cells.pair, row.cells.percentOfAlone, row.cells.verdict])).toEqual([
      ["pair 6-7", "data6 + data7", 72, "shared bottleneck"],
    ]);
    expect(resultTableCsv(table).split("\n")[0]).toBe(
      "Pair,First alone (bit/s),Second alone (bit/s),First together (bit/s),Second together (bit/s),Both together (bit/s),Of alone (%),Verdict,Runs",
    );
    const reversed = interferencePlan([7, 6]);
    const after = interferenceKind.table(
      reversed,
      LINKS,
      interferenceKind.result(
        reversed,
        LINKS,
        runAll(reversed, () => 9.9e9),
      ),
    );
    const compared = compareTables(table, after);
    expect(compared.rows).toHaveLength(1);
    expect(compared.rows[0]!.differences.percentOfAlone).toBeCloseTo(38.9, 1);
  });
});

describe("interference plan", () => {
  it("takes 2 to 8 links: 9 links or one are refused naming linkIds", () => {
    expect(refusal(() => interferencePlan([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toEqual([
      { field: "linkIds", message: "must list 1 to 8 link ids" },
    ]);
    expect(refusal(() => interferencePlan([1]))).toEqual([
      {
        field: "linkIds",
        message: "an interference experiment measures 2 to 8 links, each alone and every pair together (1 given)",
      },
    ]);
    expect(interferencePlan([1, 2]).name).toBe("Shared bottlenecks");
    expect(checkPlan(interferencePlan([1, 2, 6, 7]), LINKS).maxRuns).toBe(16);
  });
});
