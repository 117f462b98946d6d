import { describe, expect, it } from "vitest";
import { baseRequestOf, parseExperimentRequest } from "../plan";
import type { PlanOf, StepOutcome } from "../contract";
import { planLink, runOutcome, stepOutcome } from "./outcome-builders";
import { aggregateOf, concurrentKind } from "./concurrent";

// seeds/004: a dual-port 10G card; each port alone reaches 99% of its peak
const PORTS = [planLink(2, 10000, "port 0"), planLink(3, 10000, "port 1")];

function concurrentPlan(fields: Record<string, unknown>, linkIds = [2, 3]): PlanOf<"concurrent"> {
  return parseExperimentRequest({
    kind: "concurrent",
    linkIds,
    options: { parallel: 2 },
    ...fields,
  }) as PlanOf<"concurrent">;
}

/** A run's intervals: one per second at `rate`. */
function seconds(count: number, rate: number): { end: number; bitsPerSecond: number }[] {
  return Array.from({ length: count }, (_, index) => ({ end: index + 1, bitsPerSecond: rate }));
}

/** Every step carried out: alone at `alone` bits/s, together at `together` per link. */
function runAll(plan: PlanOf<"concurrent">, alone: number, together: number, startedAtMs = [0, 40]): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (
    let step = concurrentKind.nextStep(plan, base, PORTS, done);
    step;
    step = concurrentKind.nextStep(plan, base, PORTS, done)
  ) {
    const rate = step.tags.phase === "alone" ? alone : together;
    done.push(
      stepOutcome(
        done.length,
        step,
        step.runs.map((_, index) => ({
          receivedBitsPerSecond: rate,
          intervals: seconds(10, rate),
          startedAtMs: 1_700_000_000_000 + (startedAtMs[index] ?? 0),
        })),
      ),
    );
  }
  return done;
}

describe("concurrent steps", () => {
  it("runs each link alone first with a baseline, then all together with the same options", () => {
    const plan = concurrentPlan({ baseline: true });
    const steps = concurrentKind.steps(plan, baseRequestOf(plan), PORTS)!;
    expect(steps.map((step) => [step.label, step.tags.phase, step.runs.map((run) => run.linkId)])).toEqual([
      ["port 0 alone", "alone", [2]],
      ["port 1 alone", "alone", [3]],
      ["Two links together", "together", [2, 3]],
    ]);
    expect(steps[2]!.runs.every((run) => run.options.parallel === 2 && run.clientSide === "a")).toBe(true);
    expect([concurrentKind.maxRuns(plan, PORTS), concurrentKind.maxSteps(plan, PORTS)]).toEqual([4, 3]);
  });

  it("runs them together only without a baseline", () => {
    const plan = concurrentPlan({});
    expect(concurrentKind.steps(plan, baseRequestOf(plan), PORTS)!.map((step) => step.tags.phase)).toEqual([
      "together",
    ]);
  });
});

describe("concurrent result", () => {
  it("flags seeds/004's PCIe slot: 72% of the peak together while each port alone gives 99%", () => {
    const plan = concurrentPlan({ baseline: true });
    const result = concurrentKind.result(plan, PORTS, runAll(plan, 9.9e9, 7.2e9));
    expect(result).toMatchObject({
      aggregateBitsPerSecond: 14.4e9,
      lineRateSumBitsPerSecond: 20e9,
      aggregatePercentOfLineRates: 72,
      aggregatePercentOfAlone: 72.7,
      sharedBottleneck: true,
      startSkewMs: 40,
    });
    expect(
      result.rows.map((row) => [row.linkId, row.aloneBitsPerSecond, row.togetherBitsPerSecond, row.runIds.length]),
    ).toEqual([
      [2, 9.9e9, 7.2e9, 2],
      [3, 9.9e9, 7.2e9, 2],
    ]);
    expect(concurrentKind.answer(plan, PORTS, result)).toBe(
      "Together 14.4 Gbit/s: 73% of the two links alone, a shared bottleneck",
    );
  });

  it("does not flag links that keep their rate together (the card in a server slot: 99%)", () => {
    const plan = concurrentPlan({ baseline: true });
    const result = concurrentKind.result(plan, PORTS, runAll(plan, 9.98e9, 9.9e9));
    expect(result).toMatchObject({
      aggregatePercentOfAlone: 99.2,
      aggregatePercentOfLineRates: 99,
      sharedBottleneck: false,
    });
    expect(concurrentKind.answer(plan, PORTS, result)).toBe(
      "Together 19.8 Gbit/s: 99% of the two links alone, no shared bottleneck",
    );
  });

  it("without a baseline, gives the aggregate as a share of the line rates and never flags", () => {
    const plan = concurrentPlan({});
    const result = concurrentKind.result(plan, PORTS, runAll(plan, 0, 9.9e9));
    expect(result).toMatchObject({
      aggregatePercentOfAlone: null,
      sharedBottleneck: false,
      aggregatePercentOfLineRates: 99,
    });
    expect(result.rows[0]!.aloneBitsPerSecond).toBeNull();
    expect(concurrentKind.answer(plan, PORTS, result)).toBe("Together 19.8 Gbit/s: 99% of the sum of the line rates");
  });

  it("adds up the rates over the interval they all ran, not a link's time alone after the other ended", () => {
    const fast = runOutcome({
      receivedBitsPerSecond: 9e9,
      intervals: [...seconds(5, 5e9), { end: 6, bitsPerSecond: 9.9e9 }, { end: 7, bitsPerSecond: 9.9e9 }],
    });
    const slow = runOutcome({ receivedBitsPerSecond: 5e9, intervals: seconds(5, 5e9) });
    expect(aggregateOf([fast, slow])).toBe(10e9);
    // a run without intervals counts with its summary rate
    expect(aggregateOf([fast, slow, runOutcome({ receivedBitsPerSecond: 1e9 })])).toBe(11e9);
    expect(aggregateOf([runOutcome({ receivedBitsPerSecond: 2e9 }), runOutcome({ receivedBitsPerSecond: 3e9 })])).toBe(
      5e9,
    );
  });

  it("has no aggregate and no answer before the together step", () => {
    const plan = concurrentPlan({ baseline: true });
    const done = runAll(plan, 9.9e9, 7.2e9).slice(0, 2);
    const result = concurrentKind.result(plan, PORTS, done);
    expect(result).toMatchObject({
      aggregateBitsPerSecond: null,
      aggregatePercentOfAlone: null,
      sharedBottleneck: false,
      startSkewMs: null,
    });
    expect(result.rows[0]).toMatchObject({ aloneBitsPerSecond: 9.9e9, togetherBitsPerSecond: null });
    expect(concurrentKind.answer(plan, PORTS, result)).toBeNull();
  });

  it("compares the links that measured together with themselves alone when one failed", () => {
    const plan = concurrentPlan({ baseline: true });
    const done = runAll(plan, 9.9e9, 7.2e9);
    const together = done[2]!;
    done[2] = {
      ...together,
      status: "failed",
      runs: [together.runs[0]!, { ...together.runs[1]!, status: "failed", receivedBitsPerSecond: null, intervals: [] }],
    };
    const result = concurrentKind.result(plan, PORTS, done);
    expect(result).toMatchObject({
      aggregateBitsPerSecond: 7.2e9,
      aggregatePercentOfAlone: 72.7,
      sharedBottleneck: true,
    });
  });
});

describe("concurrent table", () => {
  it("has a row per link keyed by its id and a sum row with the aggregate", () => {
    const plan = concurrentPlan({ baseline: true });
    const result = concurrentKind.result(plan, PORTS, runAll(plan, 9.9e9, 7.2e9));
    const table = concurrentKind.table(plan, PORTS, result);
    expect(table.columns.map((column) => column.key)).toEqual([
      "link",
      "lineRateBitsPerSecond",
      "aloneBitsPerSecond",
      "togetherBitsPerSecond",
      "runIds",
    ]);
    expect(table.rows.map((row) => [row.key, row.cells.link, row.isSum ?? false])).toEqual([
      ["link 2", "port 0", false],
      ["link 3", "port 1", false],
      ["sum", "All links", true],
    ]);
    expect(table.rows[2]!.cells).toMatchObject({
      lineRateBitsPerSecond: 20e9,
      aloneBitsPerSecond: 19.8e9,
      togetherBitsPerSecond: 14.4e9,
    });
  });

  it("leaves out the alone column without a baseline", () => {
    const plan = concurrentPlan({});
    const table = concurrentKind.table(plan, PORTS, concurrentKind.result(plan, PORTS, runAll(plan, 0, 9e9)));
    expect(table.columns.map((column) => column.key)).not.toContain("aloneBitsPerSecond");
  });
});
