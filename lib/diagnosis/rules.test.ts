import { describe, expect, it } from "vitest";
import { HINT_IDS } from "@/lib/diagnosis/contract";
import type { ConcurrentResult } from "@/lib/experiments/contract";
import { HINT_TITLES, hintsForExperiment, hintsForLink, hintsForRun } from "./rules";
import { experimentEvidence, nicEnvironment, nicFacts, runEvidence, snapshot } from "./rules/evidence-builders";

// seeds/000's single stream, on hosts whose MTUs differ: a critical, a warning and an information
const mixed = {
  linkSpeedMbps: 10_000,
  receivedBitsPerSecond: 2.2e9,
  clientCpuPercent: 98,
  nics: { client: nicFacts({ mtu: 1500 }), server: nicFacts({ name: "eth1", mtu: 1400 }) },
};

function sharedBottleneck(): ConcurrentResult {
  return {
    rows: [
      { linkId: 2, runIds: [1, 3], aloneBitsPerSecond: 9.9e9, togetherBitsPerSecond: 7.2e9 },
      { linkId: 3, runIds: [2, 4], aloneBitsPerSecond: 9.9e9, togetherBitsPerSecond: 7.2e9 },
    ],
    aggregateBitsPerSecond: 14.4e9,
    lineRateSumBitsPerSecond: 20e9,
    aggregatePercentOfLineRates: 72,
    aggregatePercentOfAlone: 72.7,
    sharedBottleneck: true,
    startSkewMs: 40,
  };
}

describe("hints for a run", () => {
  it("orders its findings most severe first, then as the issue's table does", () => {
    const hints = hintsForRun(runEvidence(mixed));
    expect(hints.map((hint) => [hint.id, hint.severity])).toEqual([
      ["single-stream", "critical"],
      ["cpu-bound", "critical"],
      ["mtu-mismatch", "warning"],
      ["standard-frames", "info"],
    ]);
    expect(hints.every((hint) => hint.title === HINT_TITLES[hint.id] && hint.source === undefined)).toBe(true);
  });

  it("finds nothing in a healthy run", () => {
    const healthy = runEvidence({
      nics: { client: nicFacts({ mtu: 9000 }), server: nicFacts({ name: "eth1", mtu: 9000 }) },
    });
    expect(hintsForRun(healthy)).toEqual([]);
  });

  it("has a title for every rule", () => {
    expect(Object.keys(HINT_TITLES).sort()).toEqual([...HINT_IDS].sort());
  });
});

describe("hints for an experiment", () => {
  it("gives its own findings and its runs', one per rule, each with where it was found", () => {
    const runs = [
      runEvidence({ runId: 31, receivedBitsPerSecond: 7.2e9, serverCpuPercent: 95 }),
      runEvidence({ runId: 32, receivedBitsPerSecond: 7.2e9, serverCpuPercent: 96 }),
    ];
    const hints = hintsForExperiment(
      experimentEvidence({ experimentId: 5, kind: "concurrent", result: sharedBottleneck(), runs }),
    );
    expect(hints.map((hint) => [hint.id, hint.severity, hint.source])).toEqual([
      ["shared-bottleneck", "critical", { kind: "experiment", id: 5 }],
      // both runs were CPU bound: the newer one's finding
      ["cpu-bound", "critical", { kind: "run", id: 32 }],
      ["standard-frames", "info", { kind: "run", id: 32 }],
    ]);
  });
});

describe("hints for a link", () => {
  it("says how the ends are set up from the newest run alone: an MTU fixed since an older run is no finding", () => {
    const mismatched = runEvidence({
      runId: 10,
      environment: {
        client: snapshot({ nic: nicEnvironment({ mtu: 9000 }) }),
        server: snapshot({ nic: nicEnvironment({ name: "eth1", mtu: 1500 }) }),
      },
    });
    const fixed = runEvidence({
      runId: 11,
      environment: {
        client: snapshot({ nic: nicEnvironment({ mtu: 9000 }) }),
        server: snapshot({ nic: nicEnvironment({ name: "eth1", mtu: 9000 }) }),
      },
    });
    expect(hintsForLink({ runs: [mismatched], experiments: [] }).map((hint) => hint.id)).toContain("mtu-mismatch");
    expect(hintsForLink({ runs: [fixed, mismatched], experiments: [] }).map((hint) => hint.id)).not.toContain(
      "mtu-mismatch",
    );
    // a newer run without a snapshot (from before snapshots, or unreadable) does not hide what the newest snapshot says
    const unread = runEvidence({ runId: 12, environment: null });
    expect(
      hintsForLink({ runs: [unread, mismatched], experiments: [] }).find((hint) => hint.id === "mtu-mismatch")?.source,
    ).toEqual({ kind: "run", id: 10 });
  });

  it("keeps one finding per rule: the most severe, then the newest", () => {
    const older = runEvidence({
      runId: 10,
      receivedBitsPerSecond: 900e6,
      nics: { client: nicFacts({ speedMbps: 1000 }), server: nicFacts({ name: "eth1" }) },
    });
    const newer = runEvidence({
      runId: 20,
      status: "failed",
      receivedBitsPerSecond: null,
      nics: { client: nicFacts({ speedMbps: 2500 }), server: nicFacts({ name: "eth1", mtu: 9000 }) },
    });
    const newest = runEvidence({
      runId: 30,
      nics: { client: nicFacts(), server: nicFacts({ name: "eth1", mtu: 1400 }) },
    });
    const experiment = experimentEvidence({
      experimentId: 4,
      kind: "concurrent",
      result: sharedBottleneck(),
      runs: [runEvidence({ runId: 25 })],
    });
    const hints = hintsForLink({ runs: [newest, newer, older], experiments: [experiment] });
    expect(hints.map((hint) => [hint.id, hint.severity, hint.source])).toEqual([
      ["shared-bottleneck", "critical", { kind: "experiment", id: 4 }],
      // the older runs' slower NICs are no finding once the newest run shows them at full speed
      ["mtu-mismatch", "warning", { kind: "run", id: 30 }],
      ["standard-frames", "info", { kind: "run", id: 30 }],
    ]);
    expect(hints.find((hint) => hint.id === "mtu-mismatch")?.evidence).toBe(
      "The client's enp3s0f0 has MTU 1500, the server's eth1 MTU 1400.",
    );
  });

  it("finds nothing without runs or experiments", () => {
    expect(hintsForLink({ runs: [], experiments: [] })).toEqual([]);
  });
});
