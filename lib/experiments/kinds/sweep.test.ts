import { describe, expect, it } from "vitest";
import { baseRequestOf, parseExperimentRequest } from "../plan";
import type { PlanOf, StepOutcome } from "../contract";
import { planLink, stepOutcome } from "./outcome-builders";
import { describeSweepValue, kneeOf, sweepKind } from "./sweep";

const link5g = planLink(1, 5000, "esxi 5G");

function sweepPlan(fields: Record<string, unknown>, options: Record<string, unknown> = {}): PlanOf<"sweep"> {
  return parseExperimentRequest({ kind: "sweep", linkIds: [1], options, ...fields }) as PlanOf<"sweep">;
}

/** Carries out every step, each run measuring what `measure` says for its step. */
function runAll(
  plan: PlanOf<"sweep">,
  measure: (index: number, value: unknown) => Record<string, number | null>,
): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (
    let step = sweepKind.nextStep(plan, base, [link5g], done);
    step;
    step = sweepKind.nextStep(plan, base, [link5g], done)
  ) {
    done.push(stepOutcome(done.length, step, [measure(done.length, step.tags.value)]));
  }
  return done;
}

// seeds/000: one stream 2.2 Gbit/s on a 5G link, two 3.5, three 3.3, four and five 4.7
const SEED_000: Record<number, number> = { 1: 2.2e9, 2: 3.5e9, 3: 3.3e9, 4: 4.7e9, 5: 4.7e9 };

describe("sweep steps", () => {
  it("steps value by value, each repeated, with the factor set and everything else fixed", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 4], repeats: 3 }, { duration: 20, omit: 2 });
    const steps = sweepKind.steps(plan, baseRequestOf(plan), [link5g])!;
    expect(steps.map((step) => step.label)).toEqual([
      "1 stream, run 1 of 3",
      "1 stream, run 2 of 3",
      "1 stream, run 3 of 3",
      "4 streams, run 1 of 3",
      "4 streams, run 2 of 3",
      "4 streams, run 3 of 3",
    ]);
    expect(steps[4]!.tags).toEqual({ value: 4, repeat: 2 });
    expect(steps[4]!.runs).toEqual([
      {
        linkId: 1,
        clientSide: "a",
        options: expect.objectContaining({ parallel: 4, duration: 20, omit: 2, protocol: "tcp", reverse: false }),
      },
    ]);
    expect(sweepKind.maxRuns(plan, [link5g])).toBe(6);
  });

  it("labels other factors in their own words, without a run count when each value runs once", () => {
    const plan = sweepPlan({ factor: "window", values: [65536, 262144, 4 * 1024 * 1024] });
    expect(sweepKind.steps(plan, baseRequestOf(plan), [])!.map((step) => step.label)).toEqual([
      "window 64 KiB",
      "window 256 KiB",
      "window 4 MiB",
    ]);
    expect(describeSweepValue("zerocopy", true)).toBe("zero-copy on");
    expect(describeSweepValue("congestion", "bbr")).toBe("congestion control bbr");
    expect(describeSweepValue("mss", 1460)).toBe("MSS 1460 bytes");
    expect(describeSweepValue("bitrate", 5e8)).toBe("bitrate 500 Mbit/s");
  });

  it("sweeps a UDP bitrate without a bitrate in the base options", () => {
    const plan = sweepPlan({ factor: "bitrate", values: [1e8, 5e8] }, { protocol: "udp" });
    const steps = sweepKind.steps(plan, baseRequestOf(plan), [])!;
    expect(steps.map((step) => step.runs[0]!.options.bitrate)).toEqual([1e8, 5e8]);
    expect(steps[0]!.runs[0]!.options.protocol).toBe("udp");
  });

  it("keeps the base's direction and client side", () => {
    const plan = sweepPlan({ factor: "parallel", values: [2] }, { direction: "b-to-a", clientSide: "b" });
    const [step] = sweepKind.steps(plan, baseRequestOf(plan), [])!;
    expect(step!.runs[0]).toMatchObject({ clientSide: "b", options: { reverse: false } });
  });
});

describe("sweep checks", () => {
  it("names each value iperf3 refuses, with its message", () => {
    const plan = { ...sweepPlan({ factor: "parallel", values: [1] }), values: [1, 200, 4] };
    expect(sweepKind.check(plan, baseRequestOf(plan), [link5g])).toEqual([
      { field: "values[1]", message: "parallel must be a whole number from 1 to 128 streams" },
    ]);
    expect(() => sweepPlan({ factor: "parallel", values: [1, 200, 4] })).toThrow(
      "values[1] parallel must be a whole number from 1 to 128 streams",
    );
  });

  it("refuses a TCP-only value on a UDP base, and a sweep of more than one link", () => {
    const plan = {
      ...sweepPlan({ factor: "congestion", values: ["cubic"] }),
      options: { protocol: "udp", bitrate: 1e8 },
    };
    expect(sweepKind.check({ ...plan, linkIds: [1, 2] }, baseRequestOf(plan), [])).toEqual([
      { field: "linkIds", message: "a sweep measures one link: give exactly one (2 given)" },
      { field: "values[0]", message: "congestion applies to tcp only" },
    ]);
  });
});

describe("sweep result", () => {
  it("finds the knee of seeds/000 at 4 streams with 95%, and says it", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 2, 3, 4, 5] });
    const done = runAll(plan, (_, value) => ({ receivedBitsPerSecond: SEED_000[value as number]!, retransmits: 0 }));
    const result = sweepKind.result(plan, [link5g], done);
    expect(result.knee).toEqual({ value: 4, receivedBitsPerSecond: 4.7e9 });
    expect(result.rows.map((row) => row.lineRatePercent)).toEqual([44, 70, 66, 94, 94]);
    expect(sweepKind.answer(plan, [link5g], result)).toBe(
      "4 streams reach the best (4.7 Gbit/s); 1 stream gives 2.2 Gbit/s",
    );
  });

  it("takes the median of the repeats with min and max, and the knee below the best", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 2, 4, 8], repeats: 3 });
    const figures: Record<number, number[]> = {
      1: [2.1e9, 2.2e9, 2.3e9],
      2: [3.4e9, 3.6e9, 3.5e9],
      4: [4.4e9, 4.6e9, 4.5e9],
      8: [4.7e9, 4.6e9, 4.8e9],
    };
    const done = runAll(plan, (index, value) => ({
      receivedBitsPerSecond: figures[value as number]![index % 3]!,
      retransmits: index,
      clientCpuPercent: 90 + (index % 3),
      serverCpuPercent: 40,
    }));
    const result = sweepKind.result(plan, [link5g], done);
    expect(result.rows[2]).toMatchObject({
      value: 4,
      receivedBitsPerSecond: 4.5e9,
      minBitsPerSecond: 4.4e9,
      maxBitsPerSecond: 4.6e9,
      lineRatePercent: 90,
      retransmits: 7,
      clientCpuPercent: 91,
      serverCpuPercent: 40,
    });
    expect(result.rows[2]!.runIds).toEqual(done.slice(6, 9).map((step) => step.runs[0]!.runId));
    expect(result.knee).toEqual({ value: 4, receivedBitsPerSecond: 4.5e9 });
    expect(sweepKind.answer(plan, [link5g], result)).toBe(
      "4 streams reach 96% of the best (4.7 Gbit/s); 1 stream gives 2.2 Gbit/s",
    );
  });

  it("moves the knee with kneePercent", () => {
    const rows = [1, 2, 3, 4, 5].map((value) => ({
      value,
      runIds: [],
      receivedBitsPerSecond: SEED_000[value]!,
      minBitsPerSecond: null,
      maxBitsPerSecond: null,
      lineRatePercent: null,
      retransmits: null,
      clientCpuPercent: null,
      serverCpuPercent: null,
    }));
    expect(kneeOf(rows, 95)?.value).toBe(4);
    expect(kneeOf(rows, 70)?.value).toBe(2);
    expect(kneeOf(rows, 40)?.value).toBe(1);
    expect(kneeOf([], 95)).toBeNull();
  });

  it("gives a partial result while it runs, and uses a failed run's figure only if it has one", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 2, 4], repeats: 2 });
    const steps = sweepKind.steps(plan, baseRequestOf(plan), [link5g])!;
    const done = [
      stepOutcome(0, steps[0]!, [{ receivedBitsPerSecond: 2.2e9 }]),
      { ...stepOutcome(1, steps[1]!, [{ status: "failed", receivedBitsPerSecond: null }]), status: "failed" as const },
      {
        ...stepOutcome(2, steps[2]!, [{ status: "cancelled", receivedBitsPerSecond: 3.1e9 }]),
        status: "cancelled" as const,
      },
    ];
    const result = sweepKind.result(plan, [link5g], done);
    expect(result.rows.map((row) => [row.value, row.runIds.length, row.receivedBitsPerSecond])).toEqual([
      [1, 2, 2.2e9],
      [2, 1, 3.1e9],
    ]);
    expect(result.knee).toEqual({ value: 2, receivedBitsPerSecond: 3.1e9 });
  });

  it("has no knee and no answer when nothing was measured", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 2] });
    const [first] = sweepKind.steps(plan, baseRequestOf(plan), [link5g])!;
    const result = sweepKind.result(plan, [link5g], [stepOutcome(0, first!, [{ status: "failed" }])]);
    expect(result.rows[0]).toMatchObject({
      value: 1,
      receivedBitsPerSecond: null,
      minBitsPerSecond: null,
      lineRatePercent: null,
    });
    expect(result.knee).toBeNull();
    expect(sweepKind.answer(plan, [link5g], result)).toBeNull();
  });

  it("speaks of windows in the answer", () => {
    const plan = sweepPlan({ factor: "window", values: [65536, 262144, 1048576] });
    const rates: Record<number, number> = { 65536: 3e8, 262144: 9.2e8, 1048576: 9.4e8 };
    const done = runAll(plan, (_, value) => ({ receivedBitsPerSecond: rates[value as number]! }));
    const result = sweepKind.result(plan, [planLink(1, 1000)], done);
    expect(sweepKind.answer(plan, [planLink(1, 1000)], result)).toBe(
      "window 256 KiB reaches 98% of the best (940 Mbit/s); window 64 KiB gives 300 Mbit/s",
    );
  });
});

describe("sweep table", () => {
  it("has one row per value, keyed by the value, with the knee marked and rates in bits/s", () => {
    const plan = sweepPlan({ factor: "parallel", values: [1, 2, 3, 4, 5] });
    const done = runAll(plan, (_, value) => ({ receivedBitsPerSecond: SEED_000[value as number]! }));
    const table = sweepKind.table(plan, [link5g], sweepKind.result(plan, [link5g], done));
    expect(table.columns.map((column) => column.key)).toEqual([
      "value",
      "receivedBitsPerSecond",
      "minBitsPerSecond",
      "maxBitsPerSecond",
      "lineRatePercent",
      "retransmits",
      "clientCpuPercent",
      "serverCpuPercent",
      "knee",
      "runIds",
    ]);
    expect(table.columns[0]!.label).toBe("Streams");
    expect(table.rows.map((row) => row.key)).toEqual(["1", "2", "3", "4", "5"]);
    expect(table.rows[3]!.cells).toMatchObject({
      value: "4",
      receivedBitsPerSecond: 4.7e9,
      knee: "knee (95% of the best)",
    });
    expect(table.rows[4]!.cells.knee).toBeNull();
  });

  it("shows sizes readably in the value column and keys rows by the raw value", () => {
    const plan = sweepPlan({ factor: "window", values: [262144] });
    const done = runAll(plan, () => ({ receivedBitsPerSecond: 9e8 }));
    const table = sweepKind.table(plan, [], sweepKind.result(plan, [], done));
    expect(table.rows[0]).toMatchObject({ key: "262144", cells: { value: "256 KiB" } });
  });
});
