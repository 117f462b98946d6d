import { describe, expect, it } from "vitest";
import { baseRequestOf, parseExperimentRequest } from "../plan";
import type { PlanOf, StepOutcome } from "../contract";
import { planLink, stepOutcome } from "./outcome-builders";
import { compareDirections, matrixKind } from "./matrix";

const link = planLink(1, 1000, "lan");

function matrixPlan(fields: Record<string, unknown>, options: Record<string, unknown> = {}): PlanOf<"matrix"> {
  return parseExperimentRequest({ kind: "matrix", linkIds: [1], options, ...fields }) as PlanOf<"matrix">;
}

/** Every cell carried out, each measuring what `measure` gives for its tags. */
function runAll(
  plan: PlanOf<"matrix">,
  measure: (tags: StepOutcome["tags"]) => Record<string, number | null>,
): StepOutcome[] {
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (
    let step = matrixKind.nextStep(plan, base, [link], done);
    step;
    step = matrixKind.nextStep(plan, base, [link], done)
  ) {
    done.push(stepOutcome(done.length, step, [measure(step.tags)]));
  }
  return done;
}

describe("matrix steps", () => {
  it("has one run per cell, in a stable order whatever the order given", () => {
    const plan = matrixPlan(
      { directions: ["bidir", "b-to-a", "a-to-b"], protocols: ["udp", "tcp"], clientSides: ["b", "a"] },
      { bitrate: 1e9 },
    );
    const steps = matrixKind.steps(plan, baseRequestOf(plan), [link])!;
    expect(steps.map((step) => step.label)).toEqual([
      "TCP a→b, client on a",
      "TCP b→a, client on a",
      "TCP a⇄b, client on a",
      "TCP a→b, client on b",
      "TCP b→a, client on b",
      "TCP a⇄b, client on b",
      "UDP a→b, client on a",
      "UDP b→a, client on a",
      "UDP a⇄b, client on a",
      "UDP a→b, client on b",
      "UDP b→a, client on b",
      "UDP a⇄b, client on b",
    ]);
    expect(matrixKind.maxRuns(plan, [link])).toBe(12);
    expect(steps[3]!.tags).toEqual({ protocol: "tcp", clientSide: "b", direction: "a-to-b" });
  });

  it("gives each cell its direction flags and client side", () => {
    const plan = matrixPlan({ clientSides: ["a", "b"] });
    const runs = matrixKind.steps(plan, baseRequestOf(plan), [link])!.map((step) => step.runs[0]!);
    expect(runs.map((run) => [run.clientSide, run.options.reverse, run.options.bidir])).toEqual([
      ["a", false, false],
      ["a", true, false],
      ["a", false, true],
      // with b as the client, a→b is b receiving: -R
      ["b", true, false],
      ["b", false, false],
      ["b", false, true],
    ]);
  });

  it("drops the UDP bitrate from TCP cells, and mss and congestion from UDP cells", () => {
    const plan = matrixPlan(
      { directions: ["a-to-b"], protocols: ["tcp", "udp"] },
      { bitrate: 9e8, mss: 1400, congestion: "bbr", parallel: 2 },
    );
    const [tcp, udp] = matrixKind.steps(plan, baseRequestOf(plan), [link])!.map((step) => step.runs[0]!.options);
    expect(tcp).toMatchObject({ protocol: "tcp", mss: 1400, congestion: "bbr", parallel: 2 });
    expect(tcp!.bitrate).toBeUndefined();
    expect(udp).toMatchObject({ protocol: "udp", bitrate: 9e8, parallel: 2 });
    expect(udp!.mss).toBeUndefined();
    expect(udp!.congestion).toBeUndefined();
  });

  it("keeps a bitrate on TCP cells when the matrix is TCP only: the user asked for a capped TCP", () => {
    const plan = matrixPlan({ directions: ["a-to-b"] }, { bitrate: 5e8 });
    expect(matrixKind.steps(plan, baseRequestOf(plan), [link])![0]!.runs[0]!.options.bitrate).toBe(5e8);
  });

  it("refuses duplicates and empty lists", () => {
    expect(() => matrixPlan({ directions: ["a-to-b", "a-to-b"] })).toThrow("directions[1] a-to-b is given twice");
    expect(() => matrixPlan({ protocols: [] })).toThrow('protocols must be a list of "tcp", "udp", each at most once');
    expect(() => matrixPlan({ clientSides: ["c"] })).toThrow('clientSides[0] must be one of "a", "b"');
  });
});

describe("matrix result", () => {
  it("flags the slower direction when they differ by more than 10%", () => {
    const plan = matrixPlan({ directions: ["a-to-b", "b-to-a"], clientSides: ["a", "b"] });
    const rates = { "a-to-b": 941e6, "b-to-a": 725e6 };
    const done = runAll(plan, (tags) => ({
      receivedBitsPerSecond: rates[tags.direction as "a-to-b" | "b-to-a"],
      sentBitsPerSecond: 950e6,
      retransmits: 12,
    }));
    const result = matrixKind.result(plan, [link], done);
    expect(result.rows).toHaveLength(4);
    expect(result.rows[1]).toMatchObject({
      direction: "b-to-a",
      protocol: "tcp",
      clientSide: "a",
      receivedBitsPerSecond: 725e6,
      sentBitsPerSecond: 950e6,
      retransmits: 12,
      runId: done[1]!.runs[0]!.runId,
    });
    expect(result.asymmetry).toEqual({ slower: "b-to-a", percent: 23 });
    expect(matrixKind.answer(plan, [link], result)).toBe("b→a is 23% slower than a→b (TCP)");
  });

  it("says both directions are within 10% when they are", () => {
    const plan = matrixPlan({});
    const rates = { "a-to-b": 941e6, "b-to-a": 938e6, bidir: 1.86e9 };
    const done = runAll(plan, (tags) => ({
      receivedBitsPerSecond: rates[tags.direction!],
      reverseReceivedBitsPerSecond: tags.direction === "bidir" ? 930e6 : null,
    }));
    const result = matrixKind.result(plan, [link], done);
    expect(result.asymmetry).toBeNull();
    expect(result.rows[2]).toMatchObject({ direction: "bidir", reverseReceivedBitsPerSecond: 930e6 });
    expect(matrixKind.answer(plan, [link], result)).toBe("Both directions within 10%: a→b 941 Mbit/s, b→a 938 Mbit/s");
  });

  it("compares TCP first, the mean over client sides, and UDP when TCP has no pair", () => {
    // seeds/003 at 25G, roles swapped: UDP 24.7 one way, 21.8 and 22.1 the other
    const plan = matrixPlan(
      { directions: ["a-to-b", "b-to-a"], protocols: ["tcp", "udp"], clientSides: ["a", "b"] },
      { bitrate: 25e9 },
    );
    const figures: Record<string, number> = {
      "tcp a-to-b a": 24.8e9,
      "tcp b-to-a a": 24.8e9,
      "tcp a-to-b b": 24.8e9,
      "tcp b-to-a b": 24.8e9,
      "udp a-to-b a": 24.7e9,
      "udp b-to-a a": 21.8e9,
      "udp a-to-b b": 24.7e9,
      "udp b-to-a b": 22.1e9,
    };
    const done = runAll(plan, (tags) => ({
      receivedBitsPerSecond: figures[`${tags.protocol} ${tags.direction} ${tags.clientSide}`]!,
      jitterMs: 0.01,
      lostPercent: 0,
    }));
    const result = matrixKind.result(plan, [planLink(1, 25000)], done);
    expect(result.asymmetry).toBeNull();
    expect(matrixKind.answer(plan, [planLink(1, 25000)], result)).toBe(
      "Both directions within 10%: a→b 24.8 Gbit/s, b→a 24.8 Gbit/s (TCP)",
    );
    const udpOnly = result.rows.filter((row) => row.protocol === "udp");
    expect(compareDirections(udpOnly)).toEqual({
      protocol: "udp",
      aToB: 24.7e9,
      bToA: 21.95e9,
      slower: "b-to-a",
      percent: 11.1,
    });
  });

  it("answers with the fastest cell when no pair of directions was measured", () => {
    const plan = matrixPlan({ directions: ["bidir"] });
    const done = runAll(plan, () => ({ receivedBitsPerSecond: 1.9e9 }));
    expect(matrixKind.answer(plan, [link], matrixKind.result(plan, [link], done))).toBe(
      "Fastest: TCP a⇄b, client on a, 1.9 Gbit/s",
    );
    expect(matrixKind.answer(plan, [link], matrixKind.result(plan, [link], []))).toBeNull();
  });
});

describe("matrix table", () => {
  it("has one row per cell with a key that pairs the same cell of another matrix", () => {
    const plan = matrixPlan({ directions: ["a-to-b", "b-to-a"], protocols: ["tcp", "udp"] }, { bitrate: 1e9 });
    const done = runAll(plan, (tags) => ({
      receivedBitsPerSecond: 9e8,
      jitterMs: tags.protocol === "udp" ? 0.02 : null,
    }));
    const table = matrixKind.table(plan, [link], matrixKind.result(plan, [link], done));
    expect(table.rows.map((row) => row.key)).toEqual([
      "tcp a-to-b client-a",
      "tcp b-to-a client-a",
      "udp a-to-b client-a",
      "udp b-to-a client-a",
    ]);
    expect(table.rows[3]!.cells).toMatchObject({
      protocol: "UDP",
      direction: "b→a",
      clientSide: "a",
      receivedBitsPerSecond: 9e8,
      jitterMs: 0.02,
      runIds: [done[3]!.runs[0]!.runId],
    });
    expect(table.columns.find((column) => column.key === "jitterMs")?.format).toBe("ms");
  });
});
