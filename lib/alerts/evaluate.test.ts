import { describe, expect, it } from "vitest";
import {
  breachedConditions,
  breaches,
  decide,
  firingText,
  isJudged,
  resolvedText,
  type RuleConditions,
  type RunFact,
} from "./evaluate";

const GBIT = 1e9;

const baselineRule: RuleConditions = {
  belowBaselinePercent: 80,
  belowLineRatePercent: null,
  failed: false,
  m: 2,
  n: 3,
};

let nextId = 1;
function run(received: number | null, overrides: Partial<RunFact> = {}): RunFact {
  return {
    runId: nextId++,
    status: "succeeded",
    signature: "tcp a-to-b P1",
    receivedBitsPerSecond: received,
    baselineBitsPerSecond: 9.4 * GBIT,
    lineRateBitsPerSecond: 10 * GBIT,
    errorMessage: null,
    ...overrides,
  };
}
const good = (overrides: Partial<RunFact> = {}) => run(9.3 * GBIT, overrides);
const slow = (overrides: Partial<RunFact> = {}) => run(4.1 * GBIT, overrides);
const failed = (message = "iperf3: unable to connect to server: Connection refused") =>
  run(null, { status: "failed", errorMessage: message });

/**
 * Feeds runs one at a time, oldest first, as the watcher sees them end, keeping the open alert
 * as the watcher would; returns the notifications that would go out, in order.
 */
function replay(rule: RuleConditions, runs: RunFact[]): Array<"fire" | "resolve"> {
  const events: Array<"fire" | "resolve"> = [];
  const history: RunFact[] = [];
  let open = false;
  for (const fact of runs) {
    history.unshift(fact);
    const { action } = decide(rule, history, open);
    if (action === "fire") open = true;
    if (action === "resolve") open = false;
    if (action !== "none") events.push(action);
  }
  return events;
}

describe("breaches", () => {
  it("breaches the baseline condition below X% of the run's baseline, and not at or above it", () => {
    expect(breachedConditions(baselineRule, run(7.5 * GBIT))).toEqual(["below-baseline"]);
    expect(breaches(baselineRule, run(0.8 * 9.4 * GBIT))).toBe(false);
    expect(breaches(baselineRule, run(9.4 * GBIT))).toBe(false);
  });

  it("treats a baseline from too few runs (null) as not below", () => {
    expect(breaches(baselineRule, run(1 * GBIT, { baselineBitsPerSecond: null }))).toBe(false);
  });

  it("breaches the line-rate condition below Y% of the link's line rate, and not without a known line rate", () => {
    const rule: RuleConditions = { belowBaselinePercent: null, belowLineRatePercent: 90, failed: false, m: 1, n: 1 };
    expect(breachedConditions(rule, run(8.9 * GBIT))).toEqual(["below-line-rate"]);
    expect(breaches(rule, run(9 * GBIT))).toBe(false);
    expect(breaches(rule, run(1 * GBIT, { lineRateBitsPerSecond: null }))).toBe(false);
  });

  it("names both rate conditions when both hold, the baseline first", () => {
    const rule: RuleConditions = { belowBaselinePercent: 80, belowLineRatePercent: 90, failed: false, m: 1, n: 1 };
    expect(breachedConditions(rule, slow())).toEqual(["below-baseline", "below-line-rate"]);
  });

  it("breaches with a failed run only when the rule watches failures, and never judges a failed run otherwise", () => {
    const watching: RuleConditions = { ...baselineRule, failed: true };
    expect(breachedConditions(watching, failed())).toEqual(["failed"]);
    expect(breaches(baselineRule, failed())).toBe(false);
    expect(isJudged(baselineRule, failed())).toBe(false);
    expect(isJudged(watching, failed())).toBe(true);
  });

  it("does not breach a rate condition with a succeeded run that has no rate", () => {
    expect(breaches({ ...baselineRule, belowLineRatePercent: 90 }, run(null))).toBe(false);
  });
});

describe("decide: m of n", () => {
  it("fires once 2 of the last 3 runs breach, naming those runs newest first", () => {
    const older = slow();
    const middle = good();
    const newest = slow();
    const decision = decide(baselineRule, [newest, middle, older], false);
    expect(decision.action).toBe("fire");
    expect(decision.breaching.map((fact) => fact.runId)).toEqual([newest.runId, older.runId]);
    expect(decision.judged).toHaveLength(3);
  });

  it("does not fire on one bad run, nor when the second breach is older than the last n", () => {
    expect(decide(baselineRule, [slow(), good(), good()], false).action).toBe("none");
    // newest first: the older breach is the 4th run back, outside n = 3
    expect(decide(baselineRule, [slow(), good(), good(), slow()], false).action).toBe("none");
  });

  it("fires on m breaches before n runs exist (a new link's first two runs)", () => {
    expect(decide(baselineRule, [slow(), slow()], false).action).toBe("fire");
  });

  it("with m = n = 1 fires on a single breach", () => {
    expect(decide({ ...baselineRule, m: 1, n: 1 }, [slow()], false).action).toBe("fire");
  });

  it("skips failed runs a rule does not watch: the last n are the judged runs around them", () => {
    const decision = decide(baselineRule, [slow(), failed(), failed(), slow(), good()], false);
    expect(decision.action).toBe("fire");
    expect(decision.judged.every((fact) => fact.status === "succeeded")).toBe(true);
  });

  it("counts failures toward m when the rule watches them, together with slow runs", () => {
    const rule: RuleConditions = { ...baselineRule, failed: true };
    expect(decide(rule, [failed(), good(), slow()], false).action).toBe("fire");
    expect(decide(rule, [failed(), good(), good()], false).action).toBe("none");
  });
});

describe("decide: episodes", () => {
  it("fires once, never again while open, and resolves only after n clean runs in a row", () => {
    const runs = [good(), slow(), slow(), slow(), slow(), good(), good(), slow(), good(), good(), good()];
    //                      fire                                                          resolve (3 clean)
    expect(replay(baselineRule, runs)).toEqual(["fire", "resolve"]);
  });

  it("does not resolve while any of the last n still breaches, nor with fewer than n runs after", () => {
    const open = true;
    expect(decide(baselineRule, [good(), good(), slow()], open).action).toBe("none");
    expect(decide(baselineRule, [good(), good()], open).action).toBe("none");
    expect(decide(baselineRule, [good(), good(), good()], open).action).toBe("resolve");
  });

  it("opens a new episode after a resolution, once m of the last n breach again", () => {
    const runs = [slow(), slow(), good(), good(), good(), slow(), good(), slow()];
    expect(replay(baselineRule, runs)).toEqual(["fire", "resolve", "fire"]);
  });

  it("a failed run does not count as recovered when the rule does not watch failures", () => {
    const runs = [slow(), slow(), failed(), failed(), failed(), good(), good()];
    expect(replay(baselineRule, runs)).toEqual(["fire"]);
    expect(replay(baselineRule, [...runs, good()])).toEqual(["fire", "resolve"]);
  });

  it("resolves with n clean runs under m < n, giving the clean runs newest first", () => {
    const rule: RuleConditions = { ...baselineRule, m: 3, n: 5 };
    const history = [good(), good(), good(), good(), good()];
    const decision = decide(rule, history, true);
    expect(decision.action).toBe("resolve");
    expect(decision.judged.map((fact) => fact.runId)).toEqual(history.map((fact) => fact.runId));
  });
});

describe("decide: baselines per signature", () => {
  it("judges each run against its own signature's baseline: a slow UDP test is not a slow TCP link", () => {
    const udp = (received: number) =>
      run(received, { signature: "udp a-to-b P1 100000000", baselineBitsPerSecond: 100e6 });
    // UDP at its 100 Mbit/s target: 1% of the line rate, 100% of its baseline
    const mixed = [udp(99e6), good(), udp(100e6)];
    expect(decide(baselineRule, mixed, false).action).toBe("none");
    expect(decide(baselineRule, [udp(40e6), good(), udp(50e6)], false).action).toBe("fire");
  });

  it("a signature without a baseline yet breaches nothing while another's slow runs still count", () => {
    const fresh = run(1e6, { signature: "tcp b-to-a P4", baselineBitsPerSecond: null });
    expect(decide(baselineRule, [fresh, slow(), fresh], false).action).toBe("none");
    expect(decide(baselineRule, [fresh, slow(), slow()], false).action).toBe("fire");
  });
});

describe("notification words", () => {
  it("tells a baseline breach by rate, share of the baseline and the count", () => {
    const decision = decide(baselineRule, [slow(), good(), slow()], false);
    const text = firingText("nas-10g", baselineRule, decision);
    expect(text.title).toBe("nas-10g: below its baseline");
    expect(text.body).toBe("nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)");
    expect(text.runId).toBe(decision.breaching[0]!.runId);
    expect(text.runIds).toEqual([decision.breaching[1]!.runId, decision.breaching[0]!.runId]);
    expect(text).toMatchObject({
      receivedBitsPerSecond: 4.1 * GBIT,
      baselineBitsPerSecond: 9.4 * GBIT,
      lineRatePercent: 41,
    });
  });

  it("tells a line-rate breach against the line rate", () => {
    const rule: RuleConditions = { belowBaselinePercent: null, belowLineRatePercent: 90, failed: false, m: 2, n: 3 };
    const text = firingText("nas-10g", rule, decide(rule, [slow(), good(), slow()], false));
    expect(text.title).toBe("nas-10g: below its line rate");
    expect(text.body).toBe("nas-10g: 4.1 Gbit/s, 41% of its 10 Gbit/s line rate (2 of 3 runs)");
  });

  it("tells failures by count and the newest run's error", () => {
    const rule: RuleConditions = { belowBaselinePercent: null, belowLineRatePercent: null, failed: true, m: 2, n: 3 };
    const text = firingText(
      "nas-10g",
      rule,
      decide(rule, [failed("ssh: host unreachable."), good(), failed("older")], false),
    );
    expect(text.title).toBe("nas-10g: runs failing");
    expect(text.body).toBe("nas-10g: 2 of the last 3 runs failed: ssh: host unreachable");
    expect(text.receivedBitsPerSecond).toBeNull();
  });

  it("tells a recovery by the newest rate and its share of the baseline", () => {
    const decision = decide(baselineRule, [good(), good(), good()], true);
    const text = resolvedText("nas-10g", decision);
    expect(text.title).toBe("nas-10g: recovered");
    expect(text.body).toBe("nas-10g: back to 9.3 Gbit/s, 99% of its baseline, for 3 runs in a row");
    expect(text.runIds).toEqual(decision.judged.map((fact) => fact.runId).reverse());
  });

  it("falls back to the line rate in a recovery when the run has no baseline", () => {
    const decision = decide(baselineRule, [good({ baselineBitsPerSecond: null }), good(), good()], true);
    expect(resolvedText("nas-10g", decision).body).toBe(
      "nas-10g: back to 9.3 Gbit/s, 93% of its line rate, for 3 runs in a row",
    );
  });
});
