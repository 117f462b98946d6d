import { describe, expect, it } from "vitest";
import { baseRequestOf, parseExperimentRequest } from "../plan";
import type { PlanOf, StepOutcome } from "../contract";
import { planLink, stepOutcome } from "./outcome-builders";
import { ceilingBounds, nextCeilingBitrate, UDP_CEILING, udpCeilingKind } from "./udp-ceiling";

const link1g = planLink(1, 1000, "lan");

function ceilingPlan(fields: Record<string, unknown> = {}, options: Record<string, unknown> = {}): PlanOf<"udp-ceiling"> {
  return parseExperimentRequest({ kind: "udp-ceiling", linkIds: [1], options, ...fields }) as PlanOf<"udp-ceiling">;
}

/**
 * A link that carries `capacity` bits/s of UDP payload: below it a datagram is lost now and
 * then (0.01%), above it everything beyond is dropped.
 */
function search(plan: PlanOf<"udp-ceiling">, capacity: number, links = [link1g]): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (let step = udpCeilingKind.nextStep(plan, base, links, done); step; step = udpCeilingKind.nextStep(plan, base, links, done)) {
    const bitrate = step.tags.bitrate!;
    const received = Math.min(bitrate, capacity);
    const lostPercent = bitrate <= capacity ? 0.01 : ((bitrate - capacity) / bitrate) * 100;
    done.push(stepOutcome(done.length, step, [{ sentBitsPerSecond: bitrate, receivedBitsPerSecond: received, lostPercent, jitterMs: bitrate <= capacity ? 0.021 : 0.4 }]));
    expect(done.length).toBeLessThanOrEqual(UDP_CEILING.maxSteps);
  }
  return done;
}

describe("udp-ceiling steps", () => {
  it("runs short UDP steps: 3 s unless the options say otherwise", () => {
    const plan = ceilingPlan({}, { protocol: "tcp", parallel: 2 });
    const step = udpCeilingKind.nextStep(plan, baseRequestOf(plan), [link1g], [])!;
    expect(step.label).toBe("UDP at 1 Gbit/s");
    expect(step.tags).toEqual({ bitrate: 1e9 });
    expect(step.runs[0]!.options).toMatchObject({ protocol: "udp", bitrate: 1e9, duration: 3, parallel: 2 });
    const longer = ceilingPlan({}, { duration: 10 });
    expect(udpCeilingKind.nextStep(longer, baseRequestOf(longer), [link1g], [])!.runs[0]!.options.duration).toBe(10);
    const bytes = ceilingPlan({}, { bytes: 1e8 });
    const byteOptions = udpCeilingKind.nextStep(bytes, baseRequestOf(bytes), [link1g], [])!.runs[0]!.options;
    expect([byteOptions.bytes, byteOptions.duration]).toEqual([1e8, undefined]);
    expect(udpCeilingKind.steps(plan, baseRequestOf(plan), [link1g])).toBeNull();
  });

  it("searches between low (1% of high by default) and high (the line rate by default)", () => {
    expect(ceilingBounds(ceilingPlan(), [link1g])).toEqual({ low: 1e7, high: 1e9 });
    expect(ceilingBounds(ceilingPlan({ low: 5e8, high: 2e9 }), [link1g])).toEqual({ low: 5e8, high: 2e9 });
    expect(ceilingBounds(ceilingPlan(), [planLink(1, 0)])).toBeNull();
  });

  it("stops after high when high already passes", () => {
    const done = search(ceilingPlan(), 2e9);
    expect(done.map((step) => step.tags.bitrate)).toEqual([1e9]);
  });

  it("tries just below what a failing step received, then bisects, until the bounds are within 2%", () => {
    const done = search(ceilingPlan(), 949e6);
    const bitrates = done.map((step) => step.tags.bitrate!);
    // 1 Gbit/s delivers 949 Mbit/s: 2% below that passes, and the gap to 1 Gbit/s is then bisected.
    expect(bitrates).toEqual([1e9, 930.02e6, 965.01e6, 947.515e6]);
    expect(bitrates.length).toBeLessThanOrEqual(8);
    const passing = bitrates.filter((bitrate) => bitrate <= 949e6);
    const failing = bitrates.filter((bitrate) => bitrate > 949e6);
    const gap = Math.min(...failing) - Math.max(...passing);
    expect(gap).toBeLessThanOrEqual(0.02 * Math.min(...failing));
    const result = udpCeilingKind.result(ceilingPlan(), [link1g], done);
    // within 10% of the line rate, as the lab asks of a 1 Gbit/s link
    expect(result.bitsPerSecond).toBeGreaterThan(0.9e9);
    expect(result.bitsPerSecond).toBeLessThanOrEqual(949e6);
  });

  it("bisects from the midpoint when what a failing step received is no better", () => {
    // A link that loses at any rate above 3 Mbit/s while delivering little: the midpoints lead.
    const done = search(ceilingPlan({ low: 0, high: 1e9 }), 3e6);
    expect(done.map((step) => step.tags.bitrate!).slice(0, 3)).toEqual([1e9, 5e8, 2.5e8]);
  });

  it("ends at 8 steps even when the tolerance is not reached", () => {
    const plan = ceilingPlan({ low: 0, high: 1e12 });
    const done = search(plan, 3e6, [link1g]);
    expect(done).toHaveLength(8);
  });

  it("stops when a step has no loss figure", () => {
    const plan = ceilingPlan();
    const first = udpCeilingKind.nextStep(plan, baseRequestOf(plan), [link1g], [])!;
    const failed = { ...stepOutcome(0, first, [{ status: "failed" }]), status: "failed" as const };
    expect(udpCeilingKind.nextStep(plan, baseRequestOf(plan), [link1g], [failed])).toBeNull();
  });

  it("does not try a rate again when the bounds meet", () => {
    const tried = (bitrate: number, lostPercent: number) => stepOutcome(0, { label: "", tags: { bitrate }, runs: [{ linkId: 1, clientSide: "a", options: {} as never }] }, [{ lostPercent }]);
    expect(nextCeilingBitrate(0.1, { low: 0, high: 1e9 }, [tried(1e9, 5)])).toBe(5e8);
    expect(nextCeilingBitrate(0.1, { low: 0, high: 1e9 }, [tried(1e9, 5), tried(5e8, 0)])).toBe(7.5e8);
    expect(nextCeilingBitrate(0.1, { low: 0, high: 1e9 }, [tried(1e9, 5), tried(9.85e8, 0)])).toBeNull();
    // lossPercent is "at or below"
    expect(nextCeilingBitrate(0.1, { low: 0, high: 1e9 }, [tried(1e9, 0.1)])).toBeNull();
  });

  it("takes lossPercent from 0 to 100, and low below high", () => {
    expect(() => ceilingPlan({ lossPercent: 101 })).toThrow("lossPercent must be a number from 0 to 100");
    expect(() => ceilingPlan({ low: 2e9, high: 1e9 })).toThrow("low must be below high (1 Gbit/s)");
  });
});

describe("udp-ceiling result", () => {
  it("gives the highest passing bitrate tried with its figures, and every step", () => {
    const plan = ceilingPlan();
    const done = search(plan, 949e6);
    const result = udpCeilingKind.result(plan, [link1g], done);
    const ceilingStep = result.steps.find((step) => step.bitrate === result.bitsPerSecond)!;
    expect(result).toMatchObject({ receivedBitsPerSecond: ceilingStep.receivedBitsPerSecond, lostPercent: 0.01, jitterMs: 0.021 });
    expect(result.steps.map((step) => step.bitrate)).toEqual(done.map((step) => step.tags.bitrate));
    expect(result.steps[0]).toMatchObject({ bitrate: 1e9, receivedBitsPerSecond: 949e6, runId: done[0]!.runs[0]!.runId });
    expect(udpCeilingKind.answer(plan, [link1g], result)).toBe(`Up to ${Number((result.bitsPerSecond! / 1e6).toPrecision(3))} Mbit/s without loss above 0.1% (jitter 0.021 ms)`);
  });

  it("says so when no bitrate tried stays within the loss", () => {
    const plan = ceilingPlan({ low: 9e8 });
    const done = search(plan, 5e8);
    const result = udpCeilingKind.result(plan, [link1g], done);
    expect(result.bitsPerSecond).toBeNull();
    expect(udpCeilingKind.answer(plan, [link1g], result)).toMatch(/^No bitrate tried stays without loss above 0\.1%: 9\d\d Mbit\/s, the lowest, loses more$/);
    expect(udpCeilingKind.answer(plan, [link1g], udpCeilingKind.result(plan, [link1g], []))).toBeNull();
  });

  it("says 'without loss' for a loss limit of 0", () => {
    const plan = ceilingPlan({ lossPercent: 0 });
    const first = udpCeilingKind.nextStep(plan, baseRequestOf(plan), [link1g], [])!;
    const result = udpCeilingKind.result(plan, [link1g], [stepOutcome(0, first, [{ receivedBitsPerSecond: 1e9, lostPercent: 0, jitterMs: 0.02 }])]);
    expect(udpCeilingKind.answer(plan, [link1g], result)).toBe("Up to 1 Gbit/s without loss (jitter 0.02 ms)");
  });
});

describe("udp-ceiling table", () => {
  it("lists each step tried and the ceiling", () => {
    const plan = ceilingPlan();
    const done = search(plan, 949e6);
    const table = udpCeilingKind.table(plan, [link1g], udpCeilingKind.result(plan, [link1g], done));
    expect(table.rows.map((row) => row.key)).toEqual([...done.map((_, index) => `step ${index + 1}`), "ceiling"]);
    expect(table.rows[0]!.cells).toMatchObject({ step: "1", bitrate: 1e9, withinLoss: "no" });
    expect(table.rows.at(-1)!.cells).toMatchObject({ step: "Ceiling", withinLoss: "yes", lostPercent: 0.01 });
    expect(table.columns.find((column) => column.key === "withinLoss")!.label).toBe("Loss ≤ 0.1%");
  });
});
