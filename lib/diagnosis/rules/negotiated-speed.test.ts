import { describe, expect, it } from "vitest";
import { nicFacts, runEvidence, snapshot } from "./evidence-builders";
import { negotiatedSpeedRule } from "./negotiated-speed";

describe("negotiated below nominal rule", () => {
  it("is critical when a NIC linked slower than the link and the run fell short", () => {
    const run = runEvidence({
      receivedBitsPerSecond: 941e6,
      environment: { client: snapshot(), server: snapshot({ nic: { name: "eth1", speedMbps: 1000, duplex: "half" } }) },
    });
    expect(negotiatedSpeedRule(run)).toEqual({
      id: "negotiated-below-nominal",
      severity: "critical",
      title: "A NIC negotiated below the link's speed",
      evidence:
        "The server's eth1 negotiated 1 Gbit/s at half duplex on a 10 Gbit/s link; the run gave 941 Mbit/s, 9.4% of the 10 Gbit/s line rate.",
      suggestion:
        "Check the cable (Cat6a or better for 10GBASE-T, a DAC or fibre rated for the speed), the transceivers and the switch port's speed setting " +
        "(auto-negotiation on at both ends): eth1 should link at 10 Gbit/s.",
    });
  });

  it("is a warning from the inventory's speed when the run has no result", () => {
    const run = runEvidence({
      status: "failed",
      receivedBitsPerSecond: null,
      nics: { client: nicFacts({ speedMbps: 2500 }), server: nicFacts({ name: "eth1" }) },
    });
    const found = negotiatedSpeedRule(run);
    expect(found?.severity).toBe("warning");
    expect(found?.evidence).toBe("The client's enp3s0f0 negotiated 2.5 Gbit/s on a 10 Gbit/s link.");
  });

  it("lets the snapshot win over the inventory, and says nothing at the nominal speed or when no speed is known", () => {
    const upgraded = runEvidence({
      nics: { client: nicFacts({ speedMbps: 1000 }), server: nicFacts({ name: "eth1" }) },
      environment: { client: snapshot({ nic: { speedMbps: 10_000 } }), server: null },
    });
    expect(negotiatedSpeedRule(upgraded)).toBeNull();
    expect(
      negotiatedSpeedRule(
        runEvidence({ nics: { client: nicFacts({ speedMbps: null }), server: nicFacts({ speedMbps: null }) } }),
      ),
    ).toBeNull();
  });
});
