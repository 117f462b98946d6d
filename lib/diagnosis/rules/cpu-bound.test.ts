import { describe, expect, it } from "vitest";
import { cpuBoundRule } from "./cpu-bound";
import { runEvidence } from "./evidence-builders";

describe("CPU bound rule", () => {
  it("is critical when an end's CPU is full and the run fell short, naming the end and its figure", () => {
    expect(cpuBoundRule(runEvidence({ receivedBitsPerSecond: 6.1e9, serverCpuPercent: 97.4 }))).toEqual({
      id: "cpu-bound",
      severity: "critical",
      title: "CPU bound",
      evidence:
        "The client's iperf3 used 30% CPU, the server's 97% (90% or more is a full core); the run gave 6.1 Gbit/s, 61% of the 10 Gbit/s line rate.",
      suggestion:
        "Spread or lighten the work: more streams (-P 4), channels pinned to cores of their own (a channels experiment with affinity, -A), or a faster host at the server.",
    });
  });

  it("offers zero-copy when the busy end sends, and leaves out what the run already did", () => {
    const found = cpuBoundRule(
      runEvidence({ receivedBitsPerSecond: 6.1e9, clientCpuPercent: 99, options: { parallel: 4, affinity: "2,3" } }),
    );
    expect(found?.suggestion).toBe(
      "Spread or lighten the work: zero-copy sending (-Z), or a faster host at the client.",
    );
  });

  it("is information only when the link was full all the same", () => {
    const found = cpuBoundRule(runEvidence({ clientCpuPercent: 92, serverCpuPercent: 95 }));
    expect(found?.severity).toBe("info");
    expect(found?.evidence).toBe(
      "The client's iperf3 used 92% CPU, the server's 95% (90% or more is a full core); the run gave 9.4 Gbit/s, 94% of the 10 Gbit/s line rate: the link was full, but the host has no headroom.",
    );
  });

  it("says nothing below 90% on both ends, or without CPU figures", () => {
    expect(
      cpuBoundRule(runEvidence({ receivedBitsPerSecond: 6.1e9, clientCpuPercent: 89.9, serverCpuPercent: 50 })),
    ).toBeNull();
    expect(cpuBoundRule(runEvidence({ clientCpuPercent: null, serverCpuPercent: null }))).toBeNull();
  });
});
