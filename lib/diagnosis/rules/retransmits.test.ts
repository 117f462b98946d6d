import { describe, expect, it } from "vitest";
import { nicFacts, runEvidence, snapshot } from "./evidence-builders";
import { mssOf, retransmitsRule } from "./retransmits";

describe("the MSS segments are counted with", () => {
  it("is the run's -M, else the smaller MTU of the two ends less 52 bytes, else 1448", () => {
    expect(mssOf(runEvidence({ options: { mss: 1200 } }))).toBe(1200);
    expect(mssOf(runEvidence({ nics: { client: nicFacts({ mtu: 9000 }), server: nicFacts({ mtu: 9000 }) } }))).toBe(
      8948,
    );
    expect(mssOf(runEvidence({ nics: { client: nicFacts({ mtu: 9000 }), server: nicFacts({ mtu: 1500 }) } }))).toBe(
      1448,
    );
    expect(mssOf(runEvidence({ nics: { client: nicFacts({ mtu: null }), server: nicFacts({ mtu: null }) } }))).toBe(
      1448,
    );
  });
});

describe("retransmits rule", () => {
  // 1448 MB at MSS 1448 is one million segments
  const million = { sentBytes: 1448e6 };

  it("fires above 1% of the segments sent, critical when the run fell short, with the receiver's ring to raise", () => {
    const run = runEvidence({
      ...million,
      retransmits: 25_000,
      receivedBitsPerSecond: 6e9,
      environment: {
        client: snapshot(),
        server: snapshot({ nic: { name: "eth1", rings: { rx: 512, tx: 512, rxMax: 4096, txMax: 4096 } } }),
      },
    });
    expect(retransmitsRule(run)).toEqual({
      id: "retransmits",
      severity: "critical",
      title: "Retransmits above 1%",
      evidence:
        "25,000 retransmits of about 1,000,000 segments sent (2.5%; 1.45 GB at an MSS of 1448 bytes); the run gave 6 Gbit/s, 60% of the 10 Gbit/s line rate.",
      suggestion:
        "Check the cable and the transceivers, and that both ports run full duplex; then the receiver, which drops what it cannot take in time " +
        "(its missed and no-buffer counters): raise the receive ring of the server's eth1 from 512 to 4096 (ethtool -G eth1 rx 4096), and its socket buffers.",
    });
  });

  it("is a warning when the link was full all the same, and says an end runs at half duplex", () => {
    const run = runEvidence({
      ...million,
      retransmits: 11_000,
      environment: { client: snapshot({ nic: { duplex: "half" } }), server: null },
    });
    const found = retransmitsRule(run);
    expect(found?.severity).toBe("warning");
    expect(found?.evidence).toBe(
      "11,000 retransmits of about 1,000,000 segments sent (1.1%; 1.45 GB at an MSS of 1448 bytes); the client's enp3s0f0 runs at half duplex.",
    );
  });

  it("counts larger segments with jumbo frames: the same retransmits are a larger share", () => {
    const jumbo = { client: nicFacts({ mtu: 9000 }), server: nicFacts({ name: "eth1", mtu: 9000 }) };
    expect(retransmitsRule(runEvidence({ ...million, retransmits: 5000 }))).toBeNull();
    expect(retransmitsRule(runEvidence({ ...million, retransmits: 5000, nics: jumbo }))?.evidence).toMatch(
      /^5,000 retransmits of about 162,000 segments sent \(3\.1%; 1\.45 GB at an MSS of 8948 bytes\)/,
    );
  });

  it("reads the second direction of a --bidir run on its own", () => {
    const run = runEvidence({
      ...million,
      retransmits: 10,
      options: { bidir: true },
      reverseReceivedBitsPerSecond: 9.3e9,
      reverseSentBytes: 1448e6,
      reverseRetransmits: 30_000,
    });
    expect(retransmitsRule(run)?.evidence).toMatch(/^b→a: 30,000 retransmits of about 1,000,000 segments sent \(3%;/);
  });

  it("says nothing at 1% or less, for UDP, or without a result", () => {
    expect(retransmitsRule(runEvidence({ ...million, retransmits: 10_000 }))).toBeNull();
    expect(
      retransmitsRule(runEvidence({ ...million, retransmits: 50_000, options: { protocol: "udp", bitrate: 0 } })),
    ).toBeNull();
    expect(retransmitsRule(runEvidence({ ...million, retransmits: 50_000, status: "failed" }))).toBeNull();
    expect(retransmitsRule(runEvidence({ sentBytes: null, retransmits: 50_000 }))).toBeNull();
  });
});
