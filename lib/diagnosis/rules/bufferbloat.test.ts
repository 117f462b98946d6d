import { describe, expect, it } from "vitest";
import type { LatencySummary } from "@/lib/diagnosis/contract";
import { bufferbloatRule } from "./bufferbloat";
import { runEvidence, snapshot } from "./evidence-builders";

function latency(loadedMedianMs: number, grade: LatencySummary["grade"]): LatencySummary {
  return {
    idleMedianMs: 0.4,
    idleP95Ms: 0.7,
    loadedMedianMs,
    loadedP95Ms: loadedMedianMs * 1.5,
    grade,
    sent: 75,
    lost: 0,
  };
}

describe("bufferbloat rule", () => {
  it("is a warning at grade C, with both medians, the increase and the loaded p95", () => {
    const run = runEvidence({ latency: latency(45, "C"), environment: { client: snapshot(), server: null } });
    expect(bufferbloatRule(run)).toEqual({
      id: "bufferbloat",
      severity: "warning",
      title: "Latency grows under load",
      evidence: "The median round trip went from 0.4 ms idle to 45 ms under load (p95 67.5 ms): 44.6 ms more, grade C.",
      suggestion:
        "Find the queue that fills and keep it short: an active queue manager such as fq_codel or cake on the client's enp3s0f0 (tc qdisc replace dev enp3s0f0 root fq_codel), " +
        "on the router or switch port where the path narrows, or a shaper set a little below the slowest hop with a short buffer.",
    });
  });

  it("is critical at grades D and F, and looks at the server's NIC when the server sends", () => {
    expect(bufferbloatRule(runEvidence({ latency: latency(150, "D") }))?.severity).toBe("critical");
    const found = bufferbloatRule(runEvidence({ latency: latency(400, "F"), options: { reverse: true } }));
    expect(found?.severity).toBe("critical");
    expect(found?.suggestion).toContain("cake on the server's eth1,");
  });

  it("says nothing at grades A and B (the lab's deep queue: about 10 ms), or without latency", () => {
    expect(bufferbloatRule(runEvidence({ latency: latency(10.2, "B") }))).toBeNull();
    expect(bufferbloatRule(runEvidence({ latency: latency(1.2, "A") }))).toBeNull();
    expect(bufferbloatRule(runEvidence({ latency: { ...latency(45, null), loadedMedianMs: null } }))).toBeNull();
    expect(bufferbloatRule(runEvidence())).toBeNull();
  });
});
