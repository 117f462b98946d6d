import { describe, expect, it } from "vitest";
import type { PathCheck } from "@/lib/runs/contract";
import { runEvidence, snapshot } from "./evidence-builders";
import { offLinkRule } from "./off-link";

const GB = 1_000_000_000;

function pathCheck(figures: Partial<PathCheck>): PathCheck {
  return {
    client: { nic: "enp3s0f0", txBytes: 0.03 * GB, rxBytes: 0.001 * GB },
    server: { nic: "data3", txBytes: 0.001 * GB, rxBytes: 0.03 * GB },
    iperfBytes: GB,
    verdict: "off-link",
    sender: "client",
    percent: 3,
    ...figures,
  };
}

describe("off-link rule", () => {
  it("is critical, naming the share, the sending NIC and its host, and the route to check there", () => {
    const run = runEvidence({
      options: { reverse: true },
      pathCheck: pathCheck({ sender: "server" }),
      hosts: { client: { name: "alpha", address: "10.0.10.1" }, server: { name: "nas", address: "10.0.10.2" } },
    });
    expect(offLinkRule(run)).toMatchObject({
      id: "off-link",
      severity: "critical",
      evidence:
        "Only 3% of the bytes iperf3 sent went through data3 on nas: the test took another route (check `ip route get 10.0.10.1` on nas).",
    });
    expect(offLinkRule(run)!.suggestion).toMatch(/does not count toward the link's baseline/);
  });

  it("asks in the sending host's own words where its snapshot names the platform", () => {
    const run = runEvidence({
      pathCheck: pathCheck({ percent: 0.4 }),
      environment: { client: snapshot({ platform: "freebsd" }), server: null },
    });
    expect(offLinkRule(run)!.evidence).toBe(
      "Only 0.4% of the bytes iperf3 sent went through enp3s0f0 on alpha: the test took another route (check `route -n get 10.0.10.2` on alpha).",
    );
  });

  it("says nothing of a run on the link, an unclear or unknown one, or one not checked", () => {
    for (const verdict of ["on-link", "unclear", "unknown"] as const)
      expect(offLinkRule(runEvidence({ pathCheck: pathCheck({ verdict }) }))).toBeNull();
    expect(offLinkRule(runEvidence())).toBeNull();
  });
});
