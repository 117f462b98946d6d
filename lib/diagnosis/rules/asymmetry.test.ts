import { describe, expect, it } from "vitest";
import type { MatrixRow } from "@/lib/experiments/contract";
import { asymmetryMatrixRule, asymmetryRunRule } from "./asymmetry";
import { experimentEvidence, runEvidence, snapshot } from "./evidence-builders";

function matrixRow(direction: "a-to-b" | "b-to-a", receivedBitsPerSecond: number, runId: number): MatrixRow {
  return {
    direction,
    protocol: "tcp",
    clientSide: "a",
    runId,
    receivedBitsPerSecond,
    sentBitsPerSecond: receivedBitsPerSecond,
    reverseReceivedBitsPerSecond: null,
    retransmits: 0,
    jitterMs: null,
    lostPercent: null,
  };
}

describe("asymmetry rule on a run", () => {
  it("compares the two directions of a --bidir run and points at the slower one's receiver", () => {
    const run = runEvidence({
      options: { bidir: true },
      receivedBitsPerSecond: 9.4e9,
      reverseReceivedBitsPerSecond: 7e9,
      environment: {
        client: snapshot({ nic: { offloads: { tso: true, gso: true, gro: false, lro: false } } }),
        server: null,
      },
    });
    expect(asymmetryRunRule(run)).toEqual({
      id: "asymmetry",
      severity: "warning",
      title: "One direction is slower",
      evidence: "b→a gave 7 Gbit/s, a→b 9.4 Gbit/s: b→a is 26% slower (both at once, in this --bidir run).",
      suggestion:
        "Look at the receive path of end a (the client's enp3s0f0), which receives the slower direction: its receive ring and interrupt coalescing, GRO/LRO, " +
        "the core that takes its interrupts, and its socket buffers; GRO and LRO are off there (ethtool -K enp3s0f0 gro on lro on).",
    });
  });

  it("compares a run with the latest one the other way, with the link's ends as the run had them", () => {
    // client on b, not reversed: this run went b→a; the other way (a→b) was slower, received by b: the client here
    const run = runEvidence({
      clientSide: "b",
      receivedBitsPerSecond: 9.4e9,
      opposite: { runId: 12, receivedBitsPerSecond: 6e9 },
    });
    const found = asymmetryRunRule(run);
    expect(found?.evidence).toBe(
      "a→b gave 6 Gbit/s, b→a 9.4 Gbit/s: a→b is 36% slower (this run against run #12, the latest the other way).",
    );
    expect(found?.suggestion).toMatch(/^Look at the receive path of end b \(the client's enp3s0f0\)/);
  });

  it("says nothing within 10%, without the other figure, or without a result", () => {
    expect(
      asymmetryRunRule(
        runEvidence({ options: { bidir: true }, receivedBitsPerSecond: 9.4e9, reverseReceivedBitsPerSecond: 8.5e9 }),
      ),
    ).toBeNull();
    expect(asymmetryRunRule(runEvidence({ opposite: { runId: 12, receivedBitsPerSecond: 8.6e9 } }))).toBeNull();
    expect(asymmetryRunRule(runEvidence({ opposite: { runId: 12, receivedBitsPerSecond: null } }))).toBeNull();
    expect(asymmetryRunRule(runEvidence({ opposite: null }))).toBeNull();
    expect(
      asymmetryRunRule(runEvidence({ status: "failed", opposite: { runId: 12, receivedBitsPerSecond: 1e9 } })),
    ).toBeNull();
  });
});

describe("asymmetry rule on a matrix", () => {
  it("reports the matrix's asymmetry with both directions' figures", () => {
    const result = {
      rows: [matrixRow("a-to-b", 9.4e9, 1), matrixRow("b-to-a", 7e9, 2)],
      asymmetry: { slower: "b-to-a", percent: 25.5 },
    };
    const found = asymmetryMatrixRule(experimentEvidence({ kind: "matrix", result, runs: [runEvidence()] }));
    expect(found).toMatchObject({
      id: "asymmetry",
      severity: "warning",
      evidence: "TCP a→b gave 9.4 Gbit/s, b→a 7 Gbit/s: b→a is 26% slower than a→b (the matrix's runs).",
    });
    expect(found?.suggestion).toMatch(/^Look at the receive path of end a \(the client's enp3s0f0\)/);
  });

  it("says nothing when the matrix found none", () => {
    const result = { rows: [matrixRow("a-to-b", 9.4e9, 1), matrixRow("b-to-a", 9.1e9, 2)], asymmetry: null };
    expect(asymmetryMatrixRule(experimentEvidence({ kind: "matrix", result }))).toBeNull();
  });
});
