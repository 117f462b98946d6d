import { describe, expect, it } from "vitest";
import { describePathCheck, PATH_VERDICT_LABELS } from "./describe";
import { checkPath, directionVerdict, pathEnd, sentDirections } from "./path-check";

const GB = 1_000_000_000;
const end = (txBytes: number | null, rxBytes: number | null = 0) => ({ nic: "eth1", txBytes, rxBytes });

describe("directionVerdict", () => {
  it("is on-link from 90% of the bytes iperf3 sent, off-link below 50%, unclear between", () => {
    // Headers make a NIC's counter rise by more than iperf3's payload: 104% on-link.
    expect(directionVerdict(GB, 1.04 * GB)).toEqual({ verdict: "on-link", percent: 104 });
    expect(directionVerdict(GB, 0.9 * GB)).toEqual({ verdict: "on-link", percent: 90 });
    expect(directionVerdict(GB, 0.899 * GB)).toEqual({ verdict: "unclear", percent: 89.9 });
    expect(directionVerdict(GB, 0.5 * GB)).toEqual({ verdict: "unclear", percent: 50 });
    expect(directionVerdict(GB, 0.499 * GB)).toEqual({ verdict: "off-link", percent: 49.9 });
    expect(directionVerdict(GB, 0.03 * GB)).toEqual({ verdict: "off-link", percent: 3 });
    expect(directionVerdict(GB, 0)).toEqual({ verdict: "off-link", percent: 0 });
  });

  it("is unknown without a counter, or without bytes sent to prove anything by", () => {
    expect(directionVerdict(GB, null)).toEqual({ verdict: "unknown", percent: null });
    expect(directionVerdict(null, GB)).toEqual({ verdict: "unknown", percent: null });
    expect(directionVerdict(0, 5000)).toEqual({ verdict: "unknown", percent: null });
  });
});

describe("pathEnd", () => {
  it("keeps each counter's rise during the test", () => {
    expect(
      pathEnd({ nic: "eth1", before: { txBytes: 100, rxBytes: 50 }, after: { txBytes: 1100, rxBytes: 80 } }),
    ).toEqual({ nic: "eth1", txBytes: 1000, rxBytes: 30 });
  });

  it("has no rise where a reading is missing or a counter went down (reset, wrapped)", () => {
    expect(pathEnd({ nic: "eth1", before: null, after: { txBytes: 1, rxBytes: 1 } })).toEqual(end(null, null));
    expect(
      pathEnd({ nic: "eth1", before: { txBytes: 4_000_000_000, rxBytes: 5 }, after: { txBytes: 10, rxBytes: 9 } }),
    ).toEqual(end(null, 4));
  });
});

describe("sentDirections", () => {
  it("gives the client's bytes, the server's with -R, and both ways with --bidir", () => {
    expect(sentDirections("normal", 10, null)).toEqual([{ sender: "client", bytes: 10 }]);
    expect(sentDirections("reverse", 10, null)).toEqual([{ sender: "server", bytes: 10 }]);
    expect(sentDirections("bidir", 10, 20)).toEqual([
      { sender: "client", bytes: 10 },
      { sender: "server", bytes: 20 },
    ]);
  });
});

describe("checkPath", () => {
  it("judges a forward test by the client's NIC, a reverse one by the server's", () => {
    const client = end(1.05 * GB);
    const server = end(0.02 * GB);
    expect(checkPath({ client, server, sent: sentDirections("normal", GB, null) })).toEqual({
      client,
      server,
      iperfBytes: GB,
      verdict: "on-link",
      sender: "client",
      percent: 105,
    });
    expect(checkPath({ client, server, sent: sentDirections("reverse", GB, null) })).toMatchObject({
      verdict: "off-link",
      sender: "server",
      percent: 2,
    });
  });

  it("takes the worst direction of --bidir, and counts both directions' bytes", () => {
    const check = checkPath({ client: end(1.05 * GB), server: end(0.7 * GB), sent: sentDirections("bidir", GB, GB) });
    expect(check).toMatchObject({ iperfBytes: 2 * GB, verdict: "unclear", sender: "server", percent: 70 });
    expect(
      checkPath({ client: end(0.1 * GB), server: end(null), sent: sentDirections("bidir", GB, GB) }),
    ).toMatchObject({ verdict: "off-link", sender: "client" });
    // What cannot be read is not proof: one direction unknown leaves an on-link run unknown.
    expect(
      checkPath({ client: end(1.05 * GB), server: end(null), sent: sentDirections("bidir", GB, GB) }),
    ).toMatchObject({ verdict: "unknown", sender: null, percent: null });
  });

  it("rests on the managed end where the other has no counters (a device, an unmanaged server)", () => {
    expect(checkPath({ client: end(1.05 * GB), server: null, sent: sentDirections("normal", GB, null) })).toMatchObject(
      { server: null, verdict: "on-link" },
    );
    expect(
      checkPath({ client: end(1.05 * GB), server: null, sent: sentDirections("reverse", GB, null) }),
    ).toMatchObject({ server: null, verdict: "unknown", sender: null });
  });

  it("is unknown when iperf3 said nothing of what it sent", () => {
    expect(checkPath({ client: end(GB), server: end(GB), sent: sentDirections("normal", null, null) })).toEqual({
      client: end(GB),
      server: end(GB),
      iperfBytes: null,
      verdict: "unknown",
      sender: null,
      percent: null,
    });
  });
});

describe("describePathCheck", () => {
  const hosts = { client: "alpha", server: "nas" };
  it("names the NIC that decided, its host and its share", () => {
    const check = checkPath({ client: end(0.03 * GB), server: end(GB), sent: sentDirections("normal", GB, null) });
    expect(PATH_VERDICT_LABELS[check.verdict]).toBe("Off the link");
    expect(describePathCheck(check, hosts)).toBe("eth1 on alpha carried 3% of the bytes iperf3 sent");
  });

  it("says which end had no counter to read", () => {
    const check = checkPath({ client: end(GB), server: null, sent: sentDirections("reverse", GB, null) });
    expect(PATH_VERDICT_LABELS[check.verdict]).toBe("Not proven");
    expect(describePathCheck(check, hosts)).toBe("no counter read on nas");
  });
});
