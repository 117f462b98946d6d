import { describe, expect, it } from "vitest";
import { PortLeases } from "./ports";

const range = { min: 5201, max: 5203 };

describe("PortLeases", () => {
  it("gives concurrent runs on one host different ports, and other hosts their own", () => {
    const leases = new PortLeases();
    expect(leases.lease(1, "nas1", range)).toBe(5201);
    expect(leases.lease(1, "nas1", range)).toBe(5202);
    expect(leases.lease(2, "esx1", range)).toBe(5201);
    expect(leases.inUse(1)).toEqual([5201, 5202]);
  });

  it("skips ports found busy and reuses released ones", () => {
    const leases = new PortLeases();
    expect(leases.lease(1, "nas1", range, new Set([5201]))).toBe(5202);
    leases.release(1, 5202);
    expect(leases.lease(1, "nas1", range)).toBe(5201);
  });

  it("says which host and range ran out", () => {
    const leases = new PortLeases();
    for (let i = 0; i < 3; i += 1) leases.lease(1, "nas1", range);
    expect(() => leases.lease(1, "nas1", range)).toThrow("every iperf3 port of nas1 (5201-5203) is in use or busy");
  });
});
