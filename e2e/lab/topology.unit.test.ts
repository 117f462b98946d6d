/** Topology validation and the address/tbf plan: pure, runs without root. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TOPOLOGY_PATH,
  HOST_NAME_MAX,
  linkAddress,
  linkNicName,
  loadTopology,
  mgmtHostAddress,
  mgmtRootAddress,
  mgmtVethName,
  netnsName,
  parseTopology,
  rateToMbps,
  tbfParameters,
} from "./lab";

const twoHosts = [{ name: "alpha" }, { name: "beta" }];
const link = (over: Record<string, unknown> = {}) => ({ name: "ab-1g", a: "alpha", b: "beta", rate: "1gbit", mtu: 1500, ...over });

describe("parseTopology", () => {
  it("accepts the default topology: alpha and beta joined by ab-1g, ab-2g5 and ab-fast", () => {
    const topology = loadTopology(DEFAULT_TOPOLOGY_PATH);
    expect(topology.hosts.map((h) => h.name)).toEqual(["alpha", "beta"]);
    expect(topology.links).toEqual([
      { name: "ab-1g", a: "alpha", b: "beta", rate: "1gbit", mtu: 9000 },
      { name: "ab-2g5", a: "alpha", b: "beta", rate: "2.5gbit", mtu: 1500 },
      { name: "ab-fast", a: "alpha", b: "beta", rate: null, mtu: 9000 },
    ]);
  });

  it("accepts every supported rate and a topology without links", () => {
    for (const rate of ["1gbit", "2.5gbit", "5gbit", "10gbit", null]) {
      expect(() => parseTopology({ hosts: twoHosts, links: [link({ rate })] })).not.toThrow();
    }
    expect(parseTopology({ hosts: [{ name: "solo" }] }).links).toEqual([]);
  });

  it("rejects a link to an unknown host", () => {
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ b: "gamma" })] })).toThrow(/links\[0\]\.b: unknown host "gamma"/);
  });

  it("rejects a rate tc would not shape the way the lab promises", () => {
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ rate: "100mbit" })] })).toThrow(/links\[0\]\.rate: expected one of "1gbit"/);
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ rate: 1000 })] })).toThrow(/rate/);
  });

  it("rejects a host name too long for its interface name", () => {
    const name = "a".repeat(HOST_NAME_MAX + 1);
    expect(() => parseTopology({ hosts: [{ name }] })).toThrow(/too long for an interface name/);
    expect(() => parseTopology({ hosts: [{ name: "a".repeat(HOST_NAME_MAX) }] })).not.toThrow();
  });

  it("rejects bad names, duplicates, loops, MTUs and unknown fields, listing every problem at once", () => {
    const bad = {
      hosts: [{ name: "alpha" }, { name: "alpha" }, { name: "Beta!" }],
      links: [link({ a: "alpha", b: "alpha" }), link({ mtu: 20000 }), link({ mut: 9000 })],
      extra: true,
    };
    let message = "";
    try {
      parseTopology(bad);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('hosts[1].name: duplicate host "alpha"');
    expect(message).toContain("hosts[2].name: expected lowercase letters");
    expect(message).toContain('links[0]: both ends are on host "alpha"');
    expect(message).toContain("links[1].mtu: expected an integer from 576 to 9216, got 20000");
    expect(message).toContain('links[2]: unknown field "mut"');
    expect(message).toContain('topology: unknown field "extra"');
  });

  it("rejects an empty or malformed document", () => {
    expect(() => parseTopology(null)).toThrow(/expected an object/);
    expect(() => parseTopology({ hosts: [] })).toThrow(/non-empty array/);
    expect(() => parseTopology({ hosts: twoHosts, links: {} })).toThrow(/topology\.links: expected an array/);
  });

  it("names the file when it is not JSON", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ws-topology-")), "broken.json");
    fs.writeFileSync(file, "{ hosts: ");
    try {
      expect(() => loadTopology(file)).toThrow(/broken\.json is not valid JSON/);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe("address plan", () => {
  it("puts management on 198.19.<host>.0/24 and links on 198.18.<link>.0/24", () => {
    expect([mgmtRootAddress(0), mgmtHostAddress(0), mgmtHostAddress(1)]).toEqual(["198.19.0.1", "198.19.0.2", "198.19.1.2"]);
    expect([linkAddress(0, "a"), linkAddress(0, "b"), linkAddress(1, "a")]).toEqual(["198.18.0.1", "198.18.0.2", "198.18.1.1"]);
    expect([linkNicName(0), linkNicName(1)]).toEqual(["eth1", "eth2"]);
    expect([netnsName("alpha"), mgmtVethName("alpha")]).toEqual(["ws-alpha", "wsm-alpha"]);
  });
});

describe("tbf parameters", () => {
  it("converts rates to Mb/s", () => {
    expect(["1gbit", "2.5gbit", "5gbit", "10gbit"].map((r) => rateToMbps(r as "1gbit"))).toEqual([1000, 2500, 5000, 10000]);
  });

  it("never lets the burst be smaller than a 64 KiB GSO packet", () => {
    for (const rate of ["1gbit", "2.5gbit", "5gbit", "10gbit"] as const) {
      expect(tbfParameters(rate).burstBytes).toBeGreaterThanOrEqual(64 * 1024);
    }
    expect(tbfParameters("1gbit")).toEqual({ rate: "1gbit", burstBytes: 1_000_000, latency: "10ms" });
  });
});
