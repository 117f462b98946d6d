import { describe, expect, it } from "vitest";
import type { ConcurrentResult } from "@/lib/experiments/contract";
import { experimentEvidence, runEvidence, snapshot } from "./evidence-builders";
import { sharedBottleneckRule } from "./shared-bottleneck";

// seeds/004: two 10G ports, each 9.9 Gbit/s alone, 7.2 Gbit/s each together
function concurrent(sharedBottleneck: boolean, together = 7.2e9): ConcurrentResult {
  return {
    rows: [
      { linkId: 2, runIds: [1, 3], aloneBitsPerSecond: 9.9e9, togetherBitsPerSecond: together },
      { linkId: 3, runIds: [2, 4], aloneBitsPerSecond: 9.9e9, togetherBitsPerSecond: together },
    ],
    aggregateBitsPerSecond: 2 * together,
    lineRateSumBitsPerSecond: 20e9,
    aggregatePercentOfLineRates: Math.round((2 * together) / 2e8),
    aggregatePercentOfAlone: Math.round(((2 * together) / 19.8e9) * 1000) / 10,
    sharedBottleneck,
    startSkewMs: 40,
  };
}

describe("shared bottleneck rule", () => {
  it("reports a concurrent experiment's shared bottleneck with the figures together and alone", () => {
    expect(sharedBottleneckRule(experimentEvidence({ kind: "concurrent", result: concurrent(true) }))).toEqual({
      id: "shared-bottleneck",
      severity: "critical",
      title: "The links share a bottleneck",
      evidence:
        "Together the two links gave 14.4 Gbit/s, 73% of the 19.8 Gbit/s they gave one at a time (their line rates add up to 20 Gbit/s).",
      suggestion: expect.stringContaining("the PCIe slot of a multi-port card"),
    });
  });

  it("points at the PCIe slot first when one of the experiment's runs found it", () => {
    const slot = runEvidence({
      environment: {
        client: snapshot({ nic: { pcie: { address: null, speedGTs: 5, width: 4, maxSpeedGTs: 8, maxWidth: 8 } } }),
        server: null,
      },
    });
    const found = sharedBottleneckRule(
      experimentEvidence({ kind: "concurrent", result: concurrent(true), runs: [runEvidence(), slot] }),
    );
    expect(found?.suggestion).toMatch(/^Start with the card's PCIe slot/);
  });

  it("says nothing when the links together gave what they gave alone, or for another kind's result", () => {
    expect(
      sharedBottleneckRule(experimentEvidence({ kind: "concurrent", result: concurrent(false, 9.8e9) })),
    ).toBeNull();
    expect(sharedBottleneckRule(experimentEvidence({ kind: "matrix", result: concurrent(true) }))).toBeNull();
    expect(sharedBottleneckRule(experimentEvidence({ kind: "concurrent", result: null }))).toBeNull();
  });
});
