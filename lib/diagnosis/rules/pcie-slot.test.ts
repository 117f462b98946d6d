import { describe, expect, it } from "vitest";
import type { PcieLink } from "@/lib/diagnosis/contract";
import { nicFacts, runEvidence, snapshot } from "./evidence-builders";
import { pcieLinkWords, pcieSlotRule } from "./pcie-slot";

function pcie(
  speedGTs: number,
  width: number,
  maxSpeedGTs: number | null = null,
  maxWidth: number | null = null,
): PcieLink {
  return { address: "0000:03:00.0", speedGTs, width, maxSpeedGTs, maxWidth };
}

describe("PCIe link in words", () => {
  it("names the generation, or keeps the figure of a speed that has none", () => {
    expect([pcieLinkWords(5, 4), pcieLinkWords(8, 8), pcieLinkWords(32, 16), pcieLinkWords(6, 4)]).toEqual([
      "PCIe 2.0 x4",
      "PCIe 3.0 x8",
      "PCIe 5.0 x16",
      "6 GT/s x4",
    ]);
  });
});

describe("PCIe slot rule", () => {
  it("finds seeds/004's dual-port 10G card in a PCIe 2.0 x4 slot: both figures, a warning while one port reaches its line rate", () => {
    const run = runEvidence({
      environment: {
        client: snapshot({ nic: { pcie: pcie(5, 4, 8, 8), siblingPorts: [{ name: "enp3s0f1", speedMbps: 10_000 }] } }),
        server: null,
      },
    });
    expect(pcieSlotRule(run)).toEqual({
      id: "pcie-slot",
      severity: "warning",
      title: "PCIe slot too narrow or slow",
      evidence:
        "The client's enp3s0f0 sits in a PCIe 2.0 x4 link, which gives about 16 Gbit/s; the card can do PCIe 3.0 x8 (about 63 Gbit/s); its two ports (10 Gbit/s each) carry 20 Gbit/s.",
      suggestion: expect.stringContaining("Move the card of the client's enp3s0f0 to a slot that gives it PCIe 3.0 x8"),
    });
  });

  it("is critical when the slot gives less than the link and the run fell short", () => {
    const run = runEvidence({
      linkSpeedMbps: 25_000,
      receivedBitsPerSecond: 12e9,
      environment: {
        client: null,
        server: snapshot({ nic: { name: "eth1", speedMbps: 25_000, pcie: pcie(8, 2, 8, 2) } }),
      },
      nics: { client: nicFacts({ speedMbps: 25_000 }), server: nicFacts({ name: "eth1", speedMbps: 25_000 }) },
    });
    const found = pcieSlotRule(run);
    expect(found?.severity).toBe("critical");
    expect(found?.evidence).toBe(
      "The server's eth1 sits in a PCIe 3.0 x2 link, which gives about 15.8 Gbit/s, less than the link's 25 Gbit/s; the run gave 12 Gbit/s, 48% of the 25 Gbit/s line rate.",
    );
    // the card runs at its best already: a wider card is the way
    expect(found?.suggestion).toBe(
      "The card's own PCIe 3.0 x2 link cannot carry its port's 25 Gbit/s; a card and slot with PCIe 3.0 x4 or better carry 25 Gbit/s.",
    );
  });

  it("is only a warning for the same slot when the run did not try to fill the link", () => {
    const run = runEvidence({
      linkSpeedMbps: 25_000,
      receivedBitsPerSecond: 1e9,
      options: { protocol: "udp", bitrate: 1e9 },
      environment: { client: snapshot({ nic: { speedMbps: 25_000, pcie: pcie(8, 2) } }), server: null },
    });
    expect(pcieSlotRule(run)?.severity).toBe("warning");
  });

  it("is information when the link runs below the card's best but still carries every port", () => {
    const run = runEvidence({ environment: { client: snapshot({ nic: { pcie: pcie(8, 4, 8, 8) } }), server: null } });
    const found = pcieSlotRule(run);
    expect(found?.severity).toBe("info");
    expect(found?.evidence).toBe(
      "The client's enp3s0f0 sits in a PCIe 3.0 x4 link, which gives about 31.5 Gbit/s; the card can do PCIe 3.0 x8 (about 63 Gbit/s).",
    );
  });

  it("reads the inventory's PCIe link when there is no snapshot", () => {
    const run = runEvidence({
      receivedBitsPerSecond: 3.9e9,
      nics: {
        client: nicFacts({ pcieLinkSpeed: "5.0 GT/s PCIe", pcieLinkWidth: 1 }),
        server: nicFacts({ name: "eth1" }),
      },
    });
    const found = pcieSlotRule(run);
    expect(found?.severity).toBe("critical");
    expect(found?.evidence).toContain("PCIe 2.0 x1 link, which gives about 4 Gbit/s, less than the link's 10 Gbit/s");
  });

  it("lets the snapshot win over the inventory", () => {
    const run = runEvidence({
      nics: {
        client: nicFacts({ pcieLinkSpeed: "5.0 GT/s PCIe", pcieLinkWidth: 1 }),
        server: nicFacts({ name: "eth1" }),
      },
      environment: {
        client: snapshot({ nic: { pcie: pcie(8, 8, 8, 8), siblingPorts: [{ name: "enp3s0f1", speedMbps: 10_000 }] } }),
        server: null,
      },
    });
    expect(pcieSlotRule(run)).toBeNull();
  });

  it("says nothing of a card at its full width whose link carries its ports, or of a NIC whose PCIe link is not known", () => {
    const full = runEvidence({
      environment: {
        client: snapshot({ nic: { pcie: pcie(8, 8, 8, 8), siblingPorts: [{ name: "enp3s0f1", speedMbps: 10_000 }] } }),
        server: snapshot({ nic: { name: "eth1", pcie: null } }),
      },
    });
    expect(pcieSlotRule(full)).toBeNull();
    expect(pcieSlotRule(runEvidence())).toBeNull();
  });

  it("says both ends in one finding", () => {
    const run = runEvidence({
      receivedBitsPerSecond: 7e9,
      environment: {
        client: snapshot({ nic: { pcie: pcie(8, 4, 8, 8) } }),
        server: snapshot({ nic: { name: "eth1", pcie: pcie(2.5, 4, 5, 8) } }),
      },
    });
    const found = pcieSlotRule(run);
    expect(found?.severity).toBe("critical");
    expect(found?.evidence).toMatch(
      /^The client's enp3s0f0 sits in a PCIe 3\.0 x4 link.* The server's eth1 sits in a PCIe 1\.0 x4 link, which gives about 8 Gbit\/s, less than the link's 10 Gbit\/s/,
    );
  });
});
