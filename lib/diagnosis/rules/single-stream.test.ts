import { describe, expect, it } from "vitest";
import type { SweepRow } from "@/lib/experiments/contract";
import { kneeOf } from "@/lib/experiments/kinds/sweep";
import { experimentEvidence, runEvidence } from "./evidence-builders";
import { singleStreamRunRule, singleStreamSweepRule } from "./single-stream";

function sweepRow(value: number, receivedBitsPerSecond: number): SweepRow {
  return {
    value,
    runIds: [value],
    receivedBitsPerSecond,
    minBitsPerSecond: receivedBitsPerSecond,
    maxBitsPerSecond: receivedBitsPerSecond,
    lineRatePercent: null,
    retransmits: 0,
    clientCpuPercent: null,
    serverCpuPercent: null,
  };
}

/** A stream sweep's result as the sweep kind gives it: the knee at 95% of the best. */
function streamSweep(rates: [number, number][]) {
  const rows = rates.map(([value, rate]) => sweepRow(value, rate));
  return { factor: "parallel" as const, rows, knee: kneeOf(rows, 95) };
}

describe("single stream rule on a run", () => {
  // seeds/000: one stream stops at 2.2 Gbit/s on a 5G link
  const seed000 = { linkSpeedMbps: 5000, receivedBitsPerSecond: 2.2e9, clientCpuPercent: 98 };

  it("finds one stream well below the line rate with its sender's core full, and says how many streams to try", () => {
    expect(singleStreamRunRule(runEvidence(seed000))).toEqual({
      id: "single-stream",
      severity: "critical",
      title: "One stream cannot fill the link",
      evidence: "One stream gave 2.2 Gbit/s, 44% of the 5 Gbit/s line rate, with its sender (the client) at 98% CPU.",
      suggestion:
        "Use 3 streams (-P 3: 5 Gbit/s ÷ 2.2 Gbit/s per stream; a stream sweep finds the smallest count that fills the link).",
    });
  });

  it("reads the server's CPU when the server sends (-R)", () => {
    expect(singleStreamRunRule(runEvidence({ ...seed000, options: { reverse: true } }))).toBeNull();
    const reversed = singleStreamRunRule(
      runEvidence({ ...seed000, clientCpuPercent: 20, serverCpuPercent: 95, options: { reverse: true } }),
    );
    expect(reversed?.evidence).toContain("its sender (the server) at 95% CPU");
  });

  it("suggests channels at 40 Gbit/s and more", () => {
    const found = singleStreamRunRule(
      runEvidence({ linkSpeedMbps: 40_000, receivedBitsPerSecond: 18e9, clientCpuPercent: 100 }),
    );
    expect(found?.suggestion).toContain("channels: several iperf3 processes");
    expect(found?.suggestion).toMatch(/^Use 3 streams \(-P 3:/);
  });

  it("says nothing with the sender's CPU to spare, with several streams, for a channel, or near the line rate", () => {
    expect(singleStreamRunRule(runEvidence({ ...seed000, clientCpuPercent: 60 }))).toBeNull();
    expect(singleStreamRunRule(runEvidence({ ...seed000, options: { parallel: 4 } }))).toBeNull();
    expect(singleStreamRunRule(runEvidence({ ...seed000, isChannel: true }))).toBeNull();
    expect(singleStreamRunRule(runEvidence({ ...seed000, receivedBitsPerSecond: 4.7e9 }))).toBeNull();
    expect(singleStreamRunRule(runEvidence({ ...seed000, status: "failed" }))).toBeNull();
  });
});

describe("single stream rule on a stream sweep", () => {
  it("finds a knee above one stream with one stream below 70% of the line rate", () => {
    const sweep = streamSweep([
      [1, 2.2e9],
      [2, 3.9e9],
      [4, 4.7e9],
      [8, 4.7e9],
    ]);
    expect(singleStreamSweepRule(experimentEvidence({ kind: "sweep", linkSpeedMbps: 5000, result: sweep }))).toEqual({
      id: "single-stream",
      severity: "critical",
      title: "One stream cannot fill the link",
      evidence:
        "One stream gave 2.2 Gbit/s, 44% of the 5 Gbit/s line rate; 4 streams reach 4.7 Gbit/s, the sweep's knee.",
      suggestion: "Use 4 streams (-P 4: the sweep's knee on this link).",
    });
  });

  it("says nothing when one stream is the knee, for a sweep of another option, or when one stream is near the line rate", () => {
    const flat = streamSweep([
      [1, 4.6e9],
      [4, 4.7e9],
    ]);
    expect(flat.knee?.value).toBe(1);
    expect(singleStreamSweepRule(experimentEvidence({ kind: "sweep", linkSpeedMbps: 5000, result: flat }))).toBeNull();
    const windows = {
      ...streamSweep([
        [1, 2.2e9],
        [4, 4.7e9],
      ]),
      factor: "window",
    };
    expect(
      singleStreamSweepRule(experimentEvidence({ kind: "sweep", linkSpeedMbps: 5000, result: windows })),
    ).toBeNull();
    const closeEnough = streamSweep([
      [1, 3.6e9],
      [4, 4.7e9],
    ]);
    expect(closeEnough.knee?.value).toBe(4);
    expect(
      singleStreamSweepRule(experimentEvidence({ kind: "sweep", linkSpeedMbps: 5000, result: closeEnough })),
    ).toBeNull();
  });
});
