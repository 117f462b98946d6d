/** Topology validation and the address/tbf plan: pure, runs without root. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TOPOLOGY_PATH,
  FLOW_CAP_BUCKETS,
  HOST_NAME_MAX,
  bottleneckTcBatch,
  flowCapTcBatch,
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
const link = (over: Record<string, unknown> = {}) => ({
  name: "ab-1g",
  a: "alpha",
  b: "beta",
  rate: "1gbit",
  mtu: 1500,
  ...over,
});

describe("parseTopology", () => {
  it("accepts the default topology: alpha and beta, the ESXi stand-in, gamma and delta for the shared bottleneck, a host behind gamma, an iperf3 server and a device", () => {
    const topology = loadTopology(DEFAULT_TOPOLOGY_PATH);
    expect(topology.hosts.map((h) => h.name)).toEqual([
      "alpha",
      "beta",
      "esx",
      "gamma",
      "delta",
      "hidden",
      "appl",
      "phone",
    ]);
    expect(topology.hosts[2]).toMatchObject({ flavor: "esxi" });
    expect(topology.hosts.slice(5)).toEqual([
      { name: "hidden", reachedThrough: "gamma" },
      { name: "appl", access: "iperf3-server" },
      { name: "phone", access: "device" },
    ]);
    expect(topology.links).toEqual([
      { name: "ab-1g", a: "alpha", b: "beta", rate: "1gbit", mtu: 9000 },
      { name: "ab-2g5", a: "alpha", b: "beta", rate: "2.5gbit", mtu: 1500 },
      { name: "ab-fast", a: "alpha", b: "beta", rate: null, mtu: 9000 },
      { name: "a-esx", a: "alpha", b: "esx", rate: "1gbit", mtu: 9000 },
      { name: "ab-flowcap", a: "alpha", b: "beta", rate: "1gbit", mtu: 9000, flowCapMbit: 300 },
      { name: "gd-shared-1", a: "gamma", b: "delta", rate: "1gbit", mtu: 9000, bottleneck: "gd-shared" },
      { name: "gd-shared-2", a: "gamma", b: "delta", rate: "1gbit", mtu: 9000, bottleneck: "gd-shared" },
      { name: "gd-indep-1", a: "gamma", b: "delta", rate: "1gbit", mtu: 9000 },
      { name: "gd-indep-2", a: "gamma", b: "delta", rate: "1gbit", mtu: 9000 },
      { name: "a-hidden", a: "alpha", b: "hidden", rate: "1gbit", mtu: 1500 },
      { name: "a-appl", a: "alpha", b: "appl", rate: "1gbit", mtu: 1500 },
      { name: "b-phone", a: "beta", b: "phone", rate: "1gbit", mtu: 1500 },
      { name: "gd-detour", a: "gamma", b: "delta", rate: "1gbit", mtu: 9000, routedVia: "gd-indep-2" },
    ]);
    expect(topology.bottlenecks).toEqual([{ name: "gd-shared", rate: "1.2gbit" }]);
  });

  it("routes a link over another between the same hosts, and refuses a detour anywhere else", () => {
    const hosts = [{ name: "x" }, { name: "y" }, { name: "z" }];
    const link = (name: string, a: string, b: string, routedVia?: string) => ({
      name,
      a,
      b,
      rate: "1gbit",
      mtu: 1500,
      ...(routedVia ? { routedVia } : {}),
    });
    expect(parseTopology({ hosts, links: [link("l1", "x", "y"), link("l2", "y", "x", "l1")] }).links[1]).toEqual(
      link("l2", "y", "x", "l1"),
    );
    expect(() => parseTopology({ hosts, links: [link("l1", "x", "z"), link("l2", "x", "y", "l1")] })).toThrow(
      /links\[1\]\.routedVia: "l1" must join the same two hosts as "l2"/,
    );
    expect(() => parseTopology({ hosts, links: [link("l1", "x", "y", "l1")] })).toThrow(/links\[0\]\.routedVia/);
    expect(() => parseTopology({ hosts, links: [link("l1", "x", "y", "nowhere")] })).toThrow(/links\[0\]\.routedVia/);
  });

  it("accepts an optional host flavor and rejects unknown ones", () => {
    expect(parseTopology({ hosts: [{ name: "esx", flavor: "esxi" }, { name: "plain" }] }).hosts).toEqual([
      { name: "esx", flavor: "esxi" },
      { name: "plain" },
    ]);
    expect(() => parseTopology({ hosts: [{ name: "esx", flavor: "vmware" }] })).toThrow(
      /hosts\[0\]\.flavor: expected one of "linux", "esxi"/,
    );
  });

  it("accepts hosts without sshd and hosts reached through another, and refuses a jump host that is not a direct ssh host", () => {
    expect(
      parseTopology({
        hosts: [{ name: "jump" }, { name: "far", reachedThrough: "jump" }, { name: "srv", access: "iperf3-server" }],
      }).hosts,
    ).toEqual([{ name: "jump" }, { name: "far", reachedThrough: "jump" }, { name: "srv", access: "iperf3-server" }]);
    expect(() => parseTopology({ hosts: [{ name: "x", access: "telnet" }] })).toThrow(
      /hosts\[0\]\.access: expected one of "ssh", "iperf3-server", "device"/,
    );
    // Later in the list, unknown, itself behind a jump host, or without sshd: refused.
    for (const hosts of [
      [{ name: "far", reachedThrough: "jump" }, { name: "jump" }],
      [{ name: "a" }, { name: "b", reachedThrough: "a" }, { name: "c", reachedThrough: "b" }],
      [
        { name: "dev", access: "device" },
        { name: "far", reachedThrough: "dev" },
      ],
    ])
      expect(() => parseTopology({ hosts })).toThrow(/reachedThrough: expected the name of an ssh host/);
    expect(() =>
      parseTopology({ hosts: [{ name: "a" }, { name: "b", access: "device", reachedThrough: "a" }] }),
    ).toThrow(/only an ssh host is reached through another/);
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
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ b: "gamma" })] })).toThrow(
      /links\[0\]\.b: unknown host "gamma"/,
    );
  });

  it("rejects a rate tc would not shape the way the lab promises", () => {
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ rate: "100mbit" })] })).toThrow(
      /links\[0\]\.rate: expected one of "1gbit"/,
    );
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

  it("accepts a flow cap below a shaped link's rate, and rejects one on an unshaped link, at or above the rate, or not a whole number", () => {
    expect(parseTopology({ hosts: twoHosts, links: [link({ flowCapMbit: 300 })] }).links[0]).toMatchObject({
      flowCapMbit: 300,
    });
    expect(parseTopology({ hosts: twoHosts, links: [link({ flowCapMbit: 999 })] }).links[0]).toMatchObject({
      flowCapMbit: 999,
    });
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ rate: null, flowCapMbit: 300 })] })).toThrow(
      /links\[0\]\.flowCapMbit: needs a shaped link \(rate is null\)/,
    );
    for (const bad of [1000, 2500, 0, -300, 300.5, "300", null]) {
      expect(() => parseTopology({ hosts: twoHosts, links: [link({ flowCapMbit: bad })] })).toThrow(
        /links\[0\]\.flowCapMbit: expected an integer number of Mbit\/s from 1 to below 1000, the link's rate, got/,
      );
    }
  });

  const bottleneckLinks = (over: Record<string, unknown> = {}) => [
    link({ name: "s1", bottleneck: "shared" }),
    link({ name: "s2", bottleneck: "shared", ...over }),
  ];

  it("accepts links that share a bottleneck between the same two hosts", () => {
    const topology = parseTopology({
      hosts: twoHosts,
      links: bottleneckLinks(),
      bottlenecks: [{ name: "shared", rate: "1.2gbit" }],
    });
    expect(topology.bottlenecks).toEqual([{ name: "shared", rate: "1.2gbit" }]);
    expect(topology.links.map((l) => l.bottleneck)).toEqual(["shared", "shared"]);
    expect(
      parseTopology({ hosts: twoHosts, links: bottleneckLinks(), bottlenecks: [{ name: "shared", rate: "800mbit" }] })
        .bottlenecks[0]!.rate,
    ).toBe("800mbit");
    expect(parseTopology({ hosts: twoHosts }).bottlenecks).toEqual([]);
  });

  it("rejects a bottleneck rate tc would not read as a rate from 1mbit to 10gbit", () => {
    for (const rate of ["fast", "1.2 gbit", "1.2Gbit", "0mbit", "20gbit", "1.2", 1200, null, "01gbit"]) {
      expect(() =>
        parseTopology({ hosts: twoHosts, links: bottleneckLinks(), bottlenecks: [{ name: "shared", rate }] }),
      ).toThrow(/bottlenecks\[0\]\.rate: expected a tc rate from "1mbit" to "10gbit"/);
    }
  });

  it("rejects a link naming an unknown bottleneck, a bottleneck on an unshaped link, and a link with both a flow cap and a bottleneck", () => {
    const bottlenecks = [{ name: "shared", rate: "1.2gbit" }];
    expect(() =>
      parseTopology({ hosts: twoHosts, links: bottleneckLinks({ bottleneck: "shard" }), bottlenecks }),
    ).toThrow(
      /links\[1\]\.bottleneck: expected the name of one of topology\.bottlenecks \(known: "shared"\), got "shard"/,
    );
    expect(() => parseTopology({ hosts: twoHosts, links: [link({ bottleneck: "shared" })] })).toThrow(
      /topology\.bottlenecks names none/,
    );
    expect(() => parseTopology({ hosts: twoHosts, links: bottleneckLinks({ rate: null }), bottlenecks })).toThrow(
      /links\[1\]\.bottleneck: needs a shaped link \(rate is null\)/,
    );
    expect(() => parseTopology({ hosts: twoHosts, links: bottleneckLinks({ flowCapMbit: 300 }), bottlenecks })).toThrow(
      /links\[1\]: has both flowCapMbit and bottleneck/,
    );
  });

  it("rejects a bottleneck no link uses, duplicates, unknown fields, and links of one bottleneck between different hosts", () => {
    const threeHosts = [...twoHosts, { name: "gamma" }];
    const problems = (topology: unknown) => {
      try {
        parseTopology(topology);
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    };
    const message = problems({
      hosts: threeHosts,
      links: bottleneckLinks({ b: "gamma" }),
      bottlenecks: [
        { name: "shared", rate: "1.2gbit" },
        { name: "idle", rate: "1gbit" },
        { name: "shared", rate: "1gbit" },
        { name: "x", rate: "1gbit", burst: 5 },
      ],
    });
    expect(message).toContain('bottlenecks[0]: every link of "shared" must join the same a host to the same b host');
    expect(message).toContain('"s1" joins alpha to beta but "s2" joins alpha to gamma');
    expect(message).toContain('bottlenecks[1]: no link names "idle" in its "bottleneck" field');
    expect(message).toContain('bottlenecks[2].name: duplicate bottleneck "shared"');
    expect(message).toContain('bottlenecks[3]: unknown field "burst"');
    expect(problems({ hosts: twoHosts, bottlenecks: {} })).toContain("topology.bottlenecks: expected an array");
    const nine = Array.from({ length: 9 }, (_, k) => ({ name: `b${k}`, rate: "1gbit" }));
    expect(problems({ hosts: twoHosts, bottlenecks: nine })).toContain("topology.bottlenecks: at most 8 bottlenecks");
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
    expect([mgmtRootAddress(0), mgmtHostAddress(0), mgmtHostAddress(1)]).toEqual([
      "198.19.0.1",
      "198.19.0.2",
      "198.19.1.2",
    ]);
    expect([linkAddress(0, "a"), linkAddress(0, "b"), linkAddress(1, "a")]).toEqual([
      "198.18.0.1",
      "198.18.0.2",
      "198.18.1.1",
    ]);
    expect([linkNicName(0), linkNicName(1)]).toEqual(["eth1", "eth2"]);
    expect([netnsName("alpha", 0), mgmtVethName("alpha", 0)]).toEqual(["ws-alpha", "wsm-alpha"]);
  });

  it("offsets instance N by N*16 in the third octet and prefixes its names with ws<N>- / wsm<N>-", () => {
    expect([mgmtRootAddress(0, 1), mgmtHostAddress(0, 1), mgmtHostAddress(1, 1)]).toEqual([
      "198.19.16.1",
      "198.19.16.2",
      "198.19.17.2",
    ]);
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
    expect([labInstance(), labDir(), netnsName("alpha"), mgmtHostAddress(0)]).toEqual([
      0,
      "/tmp/wirespeed-lab",
      "ws-alpha",
      "198.19.0.2",
    ]);
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
    expect(["1gbit", "2.5gbit", "5gbit", "10gbit"].map((r) => rateToMbps(r as "1gbit"))).toEqual([
      1000, 2500, 5000, 10000,
    ]);
    expect([rateToMbps("1.2gbit"), rateToMbps("800mbit")]).toEqual([1200, 800]);
  });

  it("never lets the burst be smaller than a 64 KiB GSO packet", () => {
    for (const rate of ["1gbit", "2.5gbit", "5gbit", "10gbit"] as const) {
      expect(tbfParameters(rate).burstBytes).toBeGreaterThanOrEqual(64 * 1024);
    }
    expect(tbfParameters("1gbit")).toEqual({ rate: "1gbit", burstBytes: 1_000_000, latency: "10ms" });
  });
});

describe("flow cap", () => {
  const lines = flowCapTcBatch("eth5", 1000, 300);

  it("puts one class per hash bucket under a parent at the link's rate, each borrowing up to the cap", () => {
    expect(lines[0]).toBe("qdisc add dev eth5 root handle 1: htb default 2");
    expect(lines[1]).toMatch(/^class add dev eth5 parent 1: classid 1:1 htb rate 1000mbit ceil 1000mbit /);
    const bucketClasses = lines.filter((l) => / classid 1:1[0-9a-f]{2} /.test(l));
    expect(bucketClasses).toHaveLength(FLOW_CAP_BUCKETS);
    for (const line of bucketClasses)
      expect(line).toMatch(/parent 1:1 classid 1:1[0-9a-f]{2} htb rate 3mbit ceil 300mbit /);
    // Guaranteed rates within the parent's: above them every class borrows, so the parent holds the sum to the link's rate.
    expect(3 * (FLOW_CAP_BUCKETS + 1)).toBeLessThanOrEqual(1000);
  });

  it("sends every bucket of the hash table to a class of its own", () => {
    const buckets = lines.filter((l) => l.includes(" ht 2:"));
    expect(buckets).toHaveLength(FLOW_CAP_BUCKETS);
    expect(new Set(buckets.map((l) => l.split("flowid ")[1])).size).toBe(FLOW_CAP_BUCKETS);
    expect(buckets[0]).toBe("filter add dev eth5 parent 1: prio 1 protocol ip u32 ht 2:0: match u32 0 0 flowid 1:100");
    expect(buckets[255]).toBe(
      "filter add dev eth5 parent 1: prio 1 protocol ip u32 ht 2:ff: match u32 0 0 flowid 1:1ff",
    );
  });

  it("hashes bits 1-8 of the ephemeral port: the source port when it is one (top bit set), else the destination port", () => {
    expect(lines).toContain(
      "filter add dev eth5 parent 1: prio 1 protocol ip u32 ht 800:: match ip protocol 6 0xff match u16 0x8000 0x8000 at 20 hashkey mask 0x01fe0000 at 20 link 2:",
    );
    expect(lines.at(-1)).toBe(
      "filter add dev eth5 parent 1: prio 1 protocol ip u32 ht 800:: match ip protocol 6 0xff hashkey mask 0x000001fe at 20 link 2:",
    );
  });
});

describe("shared bottleneck", () => {
  it("shapes the link at its own rate and redirects all of its egress into the bottleneck's ifb", () => {
    expect(bottleneckTcBatch("eth6", 1000, "ifb0")).toEqual([
      "qdisc add dev eth6 root handle 1: htb default 1",
      "class add dev eth6 parent 1: classid 1:1 htb rate 1000mbit ceil 1000mbit burst 1000000 cburst 1000000 quantum 65536",
      "filter add dev eth6 parent 1: prio 1 protocol all u32 match u32 0 0 action mirred egress redirect dev ifb0",
    ]);
  });
});
