import { describe, expect, it } from "vitest";
import { compareTables } from "../compare";
import type { PlanLink, PlanOf, RunOutcome, StepOutcome } from "../contract";
import { resultTableCsv } from "../export";
import { baseRequestOf, checkPlan, parseExperimentRequest } from "../plan";
import { planLink, refusal, stepOutcome } from "./outcome-builders";
import { isClearDifference, mannWhitneyP, versusKind } from "./versus";

// The same pair of hosts, directly and through a tunnel's addresses.
const LINKS: PlanLink[] = [planLink(1, 10000, "direct"), planLink(2, 10000, "tunnel")];

function versusPlan(fields: Record<string, unknown>): PlanOf<"versus"> {
  return parseExperimentRequest({ kind: "versus", options: { duration: 2 }, ...fields }) as PlanOf<"versus">;
}

const BBR_VS_CUBIC = {
  linkIds: [1],
  variants: [
    { name: "cubic", options: { congestion: "cubic" } },
    { name: "bbr", options: { congestion: "bbr", parallel: 2 } },
  ],
};

/** Every step carried out; each run measures what `figures` gives for its side and repeat. */
function runAll(
  plan: PlanOf<"versus">,
  figures: (side: "A" | "B", repeat: number) => Partial<RunOutcome>,
): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (
    let step = versusKind.nextStep(plan, base, LINKS, done);
    step;
    step = versusKind.nextStep(plan, base, LINKS, done)
  ) {
    done.push(stepOutcome(done.length, step, [figures(step.tags.side!, step.tags.repeat!)]));
  }
  return done;
}

/** The tunnel: 38% slower, twice the CPU per Gbit/s, with some drift. */
function tunnel(side: "A" | "B", repeat: number): Partial<RunOutcome> {
  const drift = 1 + (repeat - 3) * 0.01;
  return side === "A"
    ? { receivedBitsPerSecond: 9.4e9 * drift, clientCpuPercent: 20, serverCpuPercent: 27 }
    : { receivedBitsPerSecond: 5.828e9 * drift, clientCpuPercent: 30, serverCpuPercent: 30.3 };
}

describe("versus steps", () => {
  it("runs two links alternately, A B A B …, repeats times each", () => {
    const plan = versusPlan({ linkIds: [1, 2], repeats: 3 });
    const steps = versusKind.steps(plan, baseRequestOf(plan), LINKS)!;
    expect(steps.map((step) => [step.label, step.tags.side, step.runs[0]!.linkId])).toEqual([
      ["A (direct), run 1 of 3", "A", 1],
      ["B (tunnel), run 1 of 3", "B", 2],
      ["A (direct), run 2 of 3", "A", 1],
      ["B (tunnel), run 2 of 3", "B", 2],
      ["A (direct), run 3 of 3", "A", 1],
      ["B (tunnel), run 3 of 3", "B", 2],
    ]);
    expect([versusKind.maxRuns(plan, LINKS), versusKind.maxSteps(plan, LINKS)]).toEqual([6, 6]);
    expect(versusPlan({ linkIds: [1, 2] })).toMatchObject({ repeats: 5, variants: null, name: "A against B" });
  });

  it("runs one link with each variant's options over the base options", () => {
    const plan = versusPlan(BBR_VS_CUBIC);
    expect(plan.name).toBe("cubic against bbr");
    const [a, b] = versusKind.steps(plan, baseRequestOf(plan), LINKS)!;
    expect([
      a!.label,
      a!.runs[0]!.options.congestion,
      a!.runs[0]!.options.parallel,
      a!.runs[0]!.options.duration,
    ]).toEqual(["A (cubic), run 1 of 5", "cubic", 1, 2]);
    expect([b!.label, b!.runs[0]!.options.congestion, b!.runs[0]!.options.parallel, b!.runs[0]!.linkId]).toEqual([
      "B (bbr), run 1 of 5",
      "bbr",
      2,
      1,
    ]);
  });
});

describe("versus result", () => {
  it("answers how much slower B is, that it is clear, and its CPU per Gbit/s", () => {
    const plan = versusPlan({ linkIds: [1, 2] });
    const result = versusKind.result(plan, LINKS, runAll(plan, tunnel));
    expect(result).toMatchObject({ differencePercent: -38, clear: true, pairsAgreeing: 5, pairs: 5 });
    expect(result.sides.map((side) => [side.side, side.name, side.runIds.length])).toEqual([
      ["A", "direct", 5],
      ["B", "tunnel", 5],
    ]);
    expect(result.sides[0]).toMatchObject({
      medianBitsPerSecond: 9.4e9,
      minBitsPerSecond: 9.4e9 * 0.98,
      cpuPercentPerGbps: 5,
    });
    expect(result.sides[1]!.maxBitsPerSecond).toBeCloseTo(5.828e9 * 1.02);
    expect(result.sides[1]!.cpuPercentPerGbps).toBeCloseTo(10.35, 2);
    expect(versusKind.answer(plan, LINKS, result)).toBe(
      "B (tunnel) is 38% slower than A (direct), clearly: 5 of 5 pairs; it costs 2.1× the CPU per Gbit/s",
    );
  });

  it("is not clear when the runs overlap, and says how many pairs went B's way", () => {
    const plan = versusPlan(BBR_VS_CUBIC);
    const rates = { A: [9.1, 9.4, 9.2, 9.5, 9.3], B: [9.3, 9.2, 9.6, 9.4, 9.5] };
    const result = versusKind.result(
      plan,
      LINKS,
      runAll(plan, (side, repeat) => ({ receivedBitsPerSecond: rates[side][repeat - 1]! * 1e9 })),
    );
    expect(result).toMatchObject({ differencePercent: 1.1, clear: false, pairsAgreeing: 3, pairs: 5 });
    expect(versusKind.answer(plan, LINKS, result)).toBe(
      "B (bbr) is 1.1% faster than A (cubic), not clearly: 3 of 5 pairs",
    );
  });

  it("has nothing to say before both sides ran", () => {
    const plan = versusPlan({ linkIds: [1, 2] });
    const result = versusKind.result(plan, LINKS, runAll(plan, tunnel).slice(0, 1));
    expect(result).toMatchObject({ differencePercent: null, clear: false, pairs: 0 });
    expect(versusKind.answer(plan, LINKS, result)).toBeNull();
  });

  it("reads as a table of the two sides that pairs up across experiments and exports to CSV", () => {
    const plan = versusPlan({ linkIds: [1, 2], repeats: 3 });
    const table = versusKind.table(plan, LINKS, versusKind.result(plan, LINKS, runAll(plan, tunnel)));
    expect(table.rows.map((row) => [row.key, row.cells.name, row.cells.differencePercent])).toEqual([
      ["side A", "direct", null],
      ["side B", "tunnel", -38],
    ]);
    expect(resultTableCsv(table).split("\n")[0]).toBe(
      "Side,Name,Link,Median (bit/s),Min (bit/s),Max (bit/s),CPU of both ends per Gbit/s (%),Against A (%),Runs",
    );
    const faster = versusKind.table(
      plan,
      LINKS,
      versusKind.result(
        plan,
        LINKS,
        runAll(plan, (side, repeat) => ({ ...tunnel(side, repeat), receivedBitsPerSecond: 9.4e9 })),
      ),
    );
    expect(compareTables(table, faster).rows.map((row) => row.key)).toEqual(["side A", "side B"]);
  });
});

describe("the rank test", () => {
  it("gives the exact two-sided p of the Mann-Whitney test", () => {
    // 3 against 3, fully apart: 2 of the 20 ways to split are as extreme.
    expect(mannWhitneyP([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.1);
    // 5 against 5, fully apart: 2 of 252.
    expect(mannWhitneyP([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toBeCloseTo(2 / 252);
    expect(mannWhitneyP([1, 3, 5], [2, 4, 6])).toBeCloseTo(0.7);
    // Ties share their mean rank: all equal is no evidence at all.
    expect(mannWhitneyP([5, 5, 5], [5, 5, 5])).toBe(1);
  });

  it("calls a difference clear when the sides do not overlap, or the test says so", () => {
    expect(isClearDifference([1, 2, 3], [4, 5, 6])).toBe(true);
    // One A run above the slowest B run: 4 of 252 ways as extreme, p ≈ 0.016; with 4 a side, 4 of 70 is not.
    expect(isClearDifference([1, 2, 3, 4, 6.5], [5, 7, 8, 9, 10])).toBe(true);
    expect(isClearDifference([1, 2, 3, 5.5], [5, 6, 7, 8])).toBe(false);
    expect(isClearDifference([1, 3, 5], [2, 4, 6])).toBe(false);
    expect(isClearDifference([], [1])).toBe(false);
  });
});

describe("versus plan", () => {
  it("refuses three sides: three links, three variants, or variants on two links, naming the field", () => {
    expect(refusal(() => versusPlan({ linkIds: [1, 2, 3] }))).toEqual([
      {
        field: "linkIds",
        message: "a versus has two sides: give two links (A, then B), or one link with two variants (3 links given)",
      },
    ]);
    expect(
      refusal(() =>
        versusPlan({ ...BBR_VS_CUBIC, variants: [...BBR_VS_CUBIC.variants, { name: "reno", options: {} }] }),
      ),
    ).toEqual([
      {
        field: "variants",
        message:
          "must list exactly two option sets, A then B: [{ name, options }, { name, options }] (for two links, leave variants out)",
      },
    ]);
    expect(refusal(() => versusPlan({ ...BBR_VS_CUBIC, linkIds: [1, 2] }))).toEqual([
      {
        field: "variants",
        message:
          "two variants are the two sides on one link; with 2 links that makes 4 sides: give one link with variants, or two links without",
      },
    ]);
    expect(refusal(() => versusPlan({ linkIds: [1] }))).toEqual([expect.objectContaining({ field: "linkIds" })]);
  });

  it("checks each variant's options as a run's, naming the variant's field", () => {
    const errors = refusal(() =>
      versusPlan({
        linkIds: [1],
        variants: [
          { name: "cubic", options: {} },
          { name: "bad", options: { congestion: "no such thing!", parallel: 0 } },
        ],
      }),
    );
    expect(errors.map((error) => error.field).sort()).toEqual([
      "variants[1].options.congestion",
      "variants[1].options.parallel",
    ]);
    expect(refusal(() => versusPlan({ ...BBR_VS_CUBIC, repeats: 2 }))).toEqual([
      { field: "repeats", message: "must be a whole number from 3 to 20 (runs of each side)" },
    ]);
    expect(
      refusal(() => versusPlan({ linkIds: [1], variants: [BBR_VS_CUBIC.variants[0], BBR_VS_CUBIC.variants[0]] })),
    ).toEqual([{ field: "variants[1].name", message: '"cubic" is A\'s name too' }]);
    expect(checkPlan(versusPlan({ ...BBR_VS_CUBIC, repeats: 20 }), LINKS).maxRuns).toBe(40);
  });
});
