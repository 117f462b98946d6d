import { describe, expect, it } from "vitest";
import { nicFacts, runEvidence, snapshot } from "./evidence-builders";
import { mtuMismatchRule } from "./mtu-mismatch";
import { standardFramesRule } from "./standard-frames";

describe("MTU mismatch rule", () => {
  it("names both ends' MTUs and the commands to make them match", () => {
    const run = runEvidence({
      environment: { client: snapshot({ nic: { mtu: 9000 } }), server: snapshot({ nic: { name: "eth1", mtu: 1500 } }) },
    });
    expect(mtuMismatchRule(run)).toEqual({
      id: "mtu-mismatch",
      severity: "warning",
      title: "The ends' MTUs differ",
      evidence: "The client's enp3s0f0 has MTU 9000, the server's eth1 MTU 1500.",
      suggestion:
        "Set both ends, and every switch port between them, to the same MTU: raise the server's eth1 to 9000 (ip link set dev eth1 mtu 9000), " +
        "or lower the client's enp3s0f0 to 1500 (ip link set dev enp3s0f0 mtu 1500).",
    });
  });

  it("takes the inventory's MTU for an end without a snapshot, and no command where the platform is not known", () => {
    const run = runEvidence({
      nics: { client: nicFacts({ mtu: 1500 }), server: nicFacts({ name: "vmk1", mtu: 1500 }) },
      environment: { client: null, server: snapshot({ platform: "esxi", nic: { name: "vmk1", mtu: 9000 } }) },
    });
    expect(mtuMismatchRule(run)?.suggestion).toBe(
      "Set both ends, and every switch port between them, to the same MTU: raise the client's enp3s0f0 to 9000, " +
        "or lower the server's vmk1 to 1500 (esxcli network ip interface set -i vmk1 -m 1500).",
    );
  });

  it("lets the snapshot win over the inventory, and says nothing when the ends agree or one is not known", () => {
    const agreed = runEvidence({
      nics: { client: nicFacts({ mtu: 1500 }), server: nicFacts({ name: "eth1", mtu: 1500 }) },
      environment: { client: snapshot({ nic: { mtu: 9000 } }), server: snapshot({ nic: { name: "eth1", mtu: 9000 } }) },
    });
    expect(mtuMismatchRule(agreed)).toBeNull();
    expect(
      mtuMismatchRule(
        runEvidence({ nics: { client: nicFacts({ mtu: 9000 }), server: nicFacts({ name: "eth1", mtu: null }) } }),
      ),
    ).toBeNull();
  });
});

describe("standard frames rule", () => {
  it("suggests jumbo frames for MTU 1500 at 10 Gbit/s and more", () => {
    const run = runEvidence({
      linkSpeedMbps: 40_000,
      environment: { client: snapshot(), server: snapshot({ platform: "windows", nic: { name: "Ethernet 2" } }) },
    });
    expect(standardFramesRule(run)).toEqual({
      id: "standard-frames",
      severity: "info",
      title: "Standard frames on a fast link",
      evidence:
        "MTU 1500 on both ends (the client's enp3s0f0 and the server's Ethernet 2) of a 40 Gbit/s link: a frame carries at most 1448 bytes of TCP data, " +
        "against 8948 in a 9000-byte one, so the hosts handle about six times the packets.",
      suggestion:
        "Try jumbo frames: MTU 9000 on both ends and every switch port between them (on the client, ip link set dev enp3s0f0 mtu 9000; " +
        'on the server, Set-NetAdapterAdvancedProperty -Name "Ethernet 2" -RegistryKeyword "*JumboPacket" -RegistryValue 9014). At 40 Gbit/s they have given ×2.5.',
    });
  });

  it("says which end's MTU is not known", () => {
    const run = runEvidence({
      nics: { client: nicFacts({ mtu: 1500 }), server: nicFacts({ name: "eth1", mtu: null }) },
    });
    expect(standardFramesRule(run)?.evidence).toMatch(
      /^MTU 1500 on the client's enp3s0f0 \(the other end's is not known\) of a 10 Gbit\/s link/,
    );
  });

  it("says nothing below 10 Gbit/s, with jumbo frames, with one end on jumbo frames (a mismatch), or with no MTU known", () => {
    expect(standardFramesRule(runEvidence({ linkSpeedMbps: 2500 }))).toBeNull();
    const jumbo = { client: nicFacts({ mtu: 9000 }), server: nicFacts({ name: "eth1", mtu: 9000 }) };
    expect(standardFramesRule(runEvidence({ nics: jumbo }))).toBeNull();
    expect(
      standardFramesRule(runEvidence({ nics: { ...jumbo, server: nicFacts({ name: "eth1", mtu: 1500 }) } })),
    ).toBeNull();
    expect(
      standardFramesRule(runEvidence({ nics: { client: nicFacts({ mtu: null }), server: nicFacts({ mtu: null }) } })),
    ).toBeNull();
  });
});
