/** Topology validation and the address/tbf plan: pure, runs without root. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TOPOLOGY_PATH,
  HOST_NAME_MAX,
  labDir,
  labInstance,
  linkAddress,
  linkNicName,
  loadTopology,
  mgmtHostAddress,
  mgmtRootAddress,
  mgmtVethName,
  mgmtVethPrefix,
  netnsName,
  netnsPrefix,
  parseTopology,
  rateToMbps,
  tbfParameters,
} from "./lab";

const twoHosts = [{ name: "alpha" }, { name: "beta" }];
const link = (over: Record<string, unknown> = {}) => ({ name: "ab-1g", a: "alpha", b: "beta", rate: "1gbit", mtu: 1500, ...over });

describe("parseTopology", () => {
  it("accepts the default topology: alpha and beta joined by ab-1g, ab-2g5 and ab-fast, and the ESXi stand-in", () => {
    const topology = loadTopology(DEFAULT_TOPOLOGY_PATH);
    expect(topology.hosts.map((h) => h.name)).toEqual(["alpha", "beta", "esx"]);
    expect(topology.hosts[2]).toMatchObject({ flavor: "esxi" });
    expect(topology.links).toEqual([
      { name: "ab-1g", a: "alpha", b: "beta", rate: "1gbit", mtu: 9000 },
      { name: "ab-2g5", a: "alpha", b: "beta", rate: "2.5gbit", mtu: 1500 },
      { name: "ab-fast", a: "alpha", b: "beta", rate: null, mtu: 9000 },
      { name: "a-esx", a: "alpha", b: "esx", rate: "1gbit", mtu: 9000 },
    ]);
  });

  it("accepts an optional host flavor and rejects unknown ones", () => {
    expect(parseTopology({ hosts: [{ name: "esx", flavor: "esxi" }, { name: "plain" }] }).hosts).toEqual([
      { name: "esx", flavor: "esxi" },
      { name: "plain" },
    ]);
    expect(() => parseTopology({ hosts: [{ name: "esx", flavor: "vmware" }] })).toThrow(/hosts\[0\]\.flavor: expected one of "linux", "esxi"/);
  });

  it("allows at most 16 hosts and 16 links: one instance's block of the third octet", () => {
    const hosts = Array.from({ length: 17 }, (_, i) => ({ name: `h${i}` }));
    expect(() => parseTopology({ hosts })).toThrow(/at most 16 hosts/);
    expect(() => parseTopology({ hosts: hosts.slice(0, 16) })).not.toThrow();
    const links = Array.from({ length: 17 }, (_, j) => link({ name: `l${j}` }));
    expect(() => parseTopology({ hosts: twoHosts, links })).toThrow(/at most 16 links/);
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

  it("rejects a host name too long for its interface name with the longest instance prefix", () => {
    expect(HOST_NAME_MAX).toBe(15 - "wsm7-".length);
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
    expect([netnsName("alpha", 0), mgmtVethName("alpha", 0)]).toEqual(["ws-alpha", "wsm-alpha"]);
  });

  it("offsets instance N by N*16 in the third octet and prefixes its names with ws<N>- / wsm<N>-", () => {
    expect([mgmtRootAddress(0, 1), mgmtHostAddress(0, 1), mgmtHostAddress(1, 1)]).toEqual(["198.19.16.1", "198.19.16.2", "198.19.17.2"]);
    expect([linkAddress(0, "a", 1), linkAddress(2, "b", 1)]).toEqual(["198.18.16.1", "198.18.18.2"]);
    expect([mgmtHostAddress(15, 7), linkAddress(15, "b", 7)]).toEqual(["198.19.127.2", "198.18.127.2"]);
    expect([netnsName("alpha", 3), mgmtVethName("alpha", 3)]).toEqual(["ws3-alpha", "wsm3-alpha"]);
    expect(mgmtVethName("a".repeat(HOST_NAME_MAX), 7).length).toBeLessThanOrEqual(15);
  });

  it("keeps instance 0 and instance N>0 names apart, so one's teardown never matches the other's", () => {
    for (let n = 1; n <= 7; n++) {
      expect(netnsName("alpha", n).startsWith(netnsPrefix(0))).toBe(false);
      expect(mgmtVethName("alpha", n).startsWith(mgmtVethPrefix(0))).toBe(false);
      expect(netnsName("alpha", 0).startsWith(netnsPrefix(n))).toBe(false);
    }
  });
});

describe("lab instance", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("reads WIRESPEED_LAB_INSTANCE (default 0) and derives the state dir from it", () => {
    vi.stubEnv("WIRESPEED_LAB_DIR", undefined);
    vi.stubEnv("WIRESPEED_LAB_INSTANCE", undefined);
    expect([labInstance(), labDir(), netnsName("alpha"), mgmtHostAddress(0)]).toEqual([0, "/tmp/wirespeed-lab", "ws-alpha", "198.19.0.2"]);
    vi.stubEnv("WIRESPEED_LAB_INSTANCE", "2");
    expect([labInstance(), labDir(), netnsName("alpha"), mgmtVethName("alpha"), linkAddress(0, "a")]).toEqual([
      2,
      "/tmp/wirespeed-lab-2",
      "ws2-alpha",
      "wsm2-alpha",
      "198.18.32.1",
    ]);
    vi.stubEnv("WIRESPEED_LAB_DIR", "/tmp/elsewhere");
    expect(labDir()).toBe("/tmp/elsewhere");
  });

  it("rejects an instance outside 0-7", () => {
    for (const bad of ["8", "-1", "one", "1.5"]) {
      vi.stubEnv("WIRESPEED_LAB_INSTANCE", bad);
      expect(() => labInstance()).toThrow(/from 0 to 7/);
    }
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
