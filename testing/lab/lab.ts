/**
 * The Wirespeed test lab: network namespaces as hosts (each with its own sshd),
 * veth pairs as links (shaped by tc tbf, or htb for a per-flow cap or a shared ifb
 * bottleneck), all of it on 198.18.0.0/15 and reachable only from this machine.
 * See testing/lab/README.md.
 *
 *   tsx testing/lab/lab.ts up [topology.json]   # prints the LabState JSON
 *   tsx testing/lab/lab.ts down
 *   tsx testing/lab/lab.ts status
 *
 * Every command is run with an argv array (execFileSync/spawn), never a shell.
 * WIRESPEED_LAB_INSTANCE=N (0-7) builds a lab of its own beside others (names, addresses, state dir).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  LAB_ACCESS,
  LAB_FLAVORS,
  LAB_RATES,
  type LabAccess,
  type LabBottleneck,
  type LabFlavor,
  type LabHost,
  type LabLink,
  type LabLinkEnd,
  type LabRate,
  type LabState,
  type LabTopology,
  type LabTopologyBottleneck,
  type LabTopologyHost,
  type LabTopologyLink,
} from "../lab-state";

// ---------------------------------------------------------------- constants

// Instance 0's prefixes; instance N>0 uses "ws<N>-" and "wsm<N>-" (see netnsPrefix, mgmtVethPrefix).
export const NETNS_PREFIX = "ws-";
export const MGMT_VETH_PREFIX = "wsm-";
// WIRESPEED_LAB_INSTANCE=N (0-7) gives a lab with its own names, addresses and state dir, so runs can overlap.
export const LAB_INSTANCE_MAX = 7;
// Each instance owns 16 values of the third octet: 198.19.(N*16+i).x and 198.18.(N*16+j).x.
const INSTANCE_BLOCK = 16;
const SSHD = "/usr/sbin/sshd";
const SSH_PORT = 22;
const PREFIX_LENGTH = 24;
// Linux interface names are at most 15 bytes (IFNAMSIZ 16 with the NUL).
const IFNAME_MAX = 15;
// Host names become "wsm<N>-<host>"; sized for the longest prefix so one topology fits every instance.
export const HOST_NAME_MAX = IFNAME_MAX - `wsm${LAB_INSTANCE_MAX}-`.length;
// The third octet of 198.18.<j>.x / 198.19.<i>.x numbers links and hosts, 16 per instance.
const MAX_HOSTS = INSTANCE_BLOCK;
const MAX_LINKS = INSTANCE_BLOCK;
const MTU_MIN = 576;
const MTU_MAX = 9216;
// A bottleneck's ifb is named ifb<k> in its hosts' namespaces; a handful is all a test needs.
const MAX_BOTTLENECKS = 8;
const BOTTLENECK_RATE_RE = /^(?:0|[1-9]\d*)(?:\.\d+)?[mg]bit$/;
const BOTTLENECK_MBPS_MAX = 10_000;
const INSTALL_HINT = "apt-get install -y iperf3 openssh-server iproute2 iputils-ping ethtool";
// Marks a directory as ours, so `down` never deletes a directory it did not make.
const MARKER = ".wirespeed-lab";

/** The lab instance from WIRESPEED_LAB_INSTANCE (0-7, default 0); throws on anything else. */
export function labInstance(): number {
  const raw = process.env.WIRESPEED_LAB_INSTANCE;
  if (raw === undefined || raw === "") return 0;
  if (!/^[0-7]$/.test(raw))
    throw new Error(
      `WIRESPEED_LAB_INSTANCE must be a number from 0 to ${LAB_INSTANCE_MAX}, got ${JSON.stringify(raw)}`,
    );
  return Number(raw);
}

export const netnsPrefix = (instance: number = labInstance()) => (instance === 0 ? NETNS_PREFIX : `ws${instance}-`);
export const mgmtVethPrefix = (instance: number = labInstance()) =>
  instance === 0 ? MGMT_VETH_PREFIX : `wsm${instance}-`;

export function labDir(instance: number = labInstance()): string {
  return process.env.WIRESPEED_LAB_DIR ?? `/tmp/wirespeed-lab${instance > 0 ? `-${instance}` : ""}`;
}

export function labStatePath(): string {
  return path.join(labDir(), "lab.json");
}

// Beside this file; tsx (CJS) and vitest both define __dirname, the cwd fallback covers plain ESM.
const LAB_SOURCE_DIR = typeof __dirname === "string" ? __dirname : path.resolve("testing/lab");
export const DEFAULT_TOPOLOGY_PATH = path.join(LAB_SOURCE_DIR, "topology.json");
// Scripts of the ESXi stand-in (flavor "esxi"), see esxi-standin/README.md.
const ESXI_STANDIN_DIR = path.join(LAB_SOURCE_DIR, "esxi-standin");
// The ESXi stand-in's login shell: every command goes through BusyBox ash, as on ESXi.
const ESXI_FORCE_COMMAND = '/bin/busybox ash -c "$SSH_ORIGINAL_COMMAND"';

// ---------------------------------------------------------------- prerequisites

const REQUIRED_BINARIES: { name: string; pkg: string }[] = [
  { name: "ip", pkg: "iproute2" },
  { name: "tc", pkg: "iproute2" },
  { name: SSHD, pkg: "openssh-server" },
  { name: "ssh-keygen", pkg: "openssh-client" },
  { name: "iperf3", pkg: "iperf3" },
  // latency under load pings between lab hosts; the environment snapshot reads NICs with ethtool
  { name: "ping", pkg: "iputils-ping" },
  { name: "ethtool", pkg: "ethtool" },
];

// sbin directories are searched too: a non-root PATH often lacks them, and sudo may not add them.
const SEARCH_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Absolute path of a binary (PATH first, then the usual sbin/bin directories), or null. */
function findBinary(name: string): string | null {
  if (path.isAbsolute(name)) return isExecutable(name) ? name : null;
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

const resolved = new Map<string, string>();
// Commands run by absolute path, so the lab works the same whatever PATH the caller has.
function bin(name: string): string {
  const cached = resolved.get(name);
  if (cached) return cached;
  const found = findBinary(name);
  if (found) resolved.set(name, found);
  return found ?? name;
}

/** Human messages for everything the lab needs and this machine lacks; empty when ready. */
export function checkLabPrerequisites(): string[] {
  const problems: string[] = [];
  if (process.platform !== "linux")
    problems.push(`the lab needs Linux network namespaces; this is ${process.platform}`);
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    problems.push("the lab needs root: it creates network namespaces (run as root, or with sudo)");
  }
  for (const required of REQUIRED_BINARIES) {
    if (!findBinary(required.name)) {
      problems.push(`missing ${required.name} (Debian package ${required.pkg}): ${INSTALL_HINT}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- topology

/** Mb/s for a tc rate ("1gbit", "2.5gbit", "800mbit"); tc's "gbit" is 10^9 bit/s, "mbit" 10^6. */
export function rateToMbps(rate: string): number {
  const value = Number.parseFloat(rate);
  return Math.round(rate.endsWith("mbit") ? value : value * 1000);
}

/**
 * Bytes a shaper may send at once: 8 ms of traffic (1 MB at 1gbit). It must hold at least
 * one 64 KiB GSO skb, and a few more absorb softirq wake-up jitter (64 KiB gave 0.89 Gbit/s
 * here, 1 MB gives the TCP ceiling).
 */
export function burstBytes(rateMbps: number): number {
  return Math.max(256 * 1024, Math.round(((rateMbps * 1_000_000) / 8) * 0.008));
}

/** tbf parameters for a rate: burst as burstBytes(), and latency 10 ms bounds the queue. */
export function tbfParameters(rate: string): { rate: string; burstBytes: number; latency: string } {
  return { rate, burstBytes: burstBytes(rateToMbps(rate)), latency: "10ms" };
}

/** The arguments of `tc` that add (or change) the tbf qdisc at the root of `dev` in the network namespace `ns`. */
export function tbfQdiscArgs(
  ns: string,
  verb: "add" | "change",
  dev: string,
  tbf: ReturnType<typeof tbfParameters>,
): string[] {
  return [
    "-n",
    ns,
    "qdisc",
    verb,
    "dev",
    dev,
    "root",
    "tbf",
    "rate",
    tbf.rate,
    "burst",
    String(tbf.burstBytes),
    "latency",
    tbf.latency,
  ];
}

// 256 buckets, the most a u32 hash table holds: 4 flows on random ports share one 2.3% of the time.
export const FLOW_CAP_BUCKETS = 256;
// Bits 1-8 of the port: Linux hands out odd ephemeral ports to bind() (iperf3 -B) and even ones to
// connect(), so bit 0 never varies among one client's streams.
const FLOW_PORT_HASH_MASK = (FLOW_CAP_BUCKETS - 1) << 1;
// htb moves at most this much per class per round; above a 64 KiB GSO skb, and equal for every class, so flows share fairly.
const HTB_QUANTUM = 65536;
const hex = (n: number) => n.toString(16);
const flowClassId = (bucket: number) => `1:${hex(0x100 + bucket)}`;

/**
 * tc -batch lines that cap each TCP flow leaving `dev` at capMbps under the link's rateMbps:
 * an htb parent at the link's rate, one class per hash bucket that borrows from it up to the
 * cap, and a u32 hash of the flow's ephemeral port into the buckets. The ephemeral port is
 * the source port of a client's packets and the destination port of a server's (iperf3 -R
 * sends from the server), told apart by the port's top bit: ephemeral ports are 32768-60999,
 * iperf3 server ports 5201-5299. So a flow lands in the same bucket in either direction.
 * Offset 20 is the TCP header after an IPv4 header without options, which Linux never adds.
 */
export function flowCapTcBatch(dev: string, rateMbps: number, capMbps: number): string[] {
  const rate = `${rateMbps}mbit`;
  const burst = burstBytes(rateMbps);
  const capBurst = burstBytes(capMbps);
  // A bucket class is guaranteed only its share of the parent: above that it borrows, so the parent caps the sum.
  const shareMbps = Math.max(1, Math.floor(rateMbps / (FLOW_CAP_BUCKETS + 1)));
  const lines = [
    `qdisc add dev ${dev} root handle 1: htb default 2`,
    `class add dev ${dev} parent 1: classid 1:1 htb rate ${rate} ceil ${rate} burst ${burst} cburst ${burst} quantum ${HTB_QUANTUM}`,
    // Whatever is not TCP (ARP, ICMP) goes here, still under the link's rate.
    `class add dev ${dev} parent 1:1 classid 1:2 htb rate ${shareMbps}mbit ceil ${rate} burst ${burst} cburst ${burst} quantum ${HTB_QUANTUM}`,
  ];
  for (let bucket = 0; bucket < FLOW_CAP_BUCKETS; bucket++) {
    lines.push(
      `class add dev ${dev} parent 1:1 classid ${flowClassId(bucket)} htb rate ${shareMbps}mbit ` +
        `ceil ${capMbps}mbit burst ${capBurst} cburst ${capBurst} quantum ${HTB_QUANTUM}`,
    );
  }
  lines.push(`filter add dev ${dev} parent 1: prio 1 handle 2: protocol ip u32 divisor ${FLOW_CAP_BUCKETS}`);
  for (let bucket = 0; bucket < FLOW_CAP_BUCKETS; bucket++) {
    lines.push(
      `filter add dev ${dev} parent 1: prio 1 protocol ip u32 ht 2:${hex(bucket)}: match u32 0 0 flowid ${flowClassId(bucket)}`,
    );
  }
  const sourcePortMask = `0x${hex(FLOW_PORT_HASH_MASK << 16).padStart(8, "0")}`;
  const destinationPortMask = `0x${hex(FLOW_PORT_HASH_MASK).padStart(8, "0")}`;
  lines.push(
    `filter add dev ${dev} parent 1: prio 1 protocol ip u32 ht 800:: match ip protocol 6 0xff ` +
      `match u16 0x8000 0x8000 at 20 hashkey mask ${sourcePortMask} at 20 link 2:`,
    `filter add dev ${dev} parent 1: prio 1 protocol ip u32 ht 800:: match ip protocol 6 0xff hashkey mask ${destinationPortMask} at 20 link 2:`,
  );
  return lines;
}

/**
 * tc -batch lines that shape `dev` at the link's rate and send all of its egress through the
 * bottleneck's ifb first. The ifb hands each packet back to dev's egress marked as classified,
 * so it skips the filter and lands in the default class: the shared rate, then the link's own.
 */
export function bottleneckTcBatch(dev: string, rateMbps: number, ifb: string): string[] {
  const rate = `${rateMbps}mbit`;
  const burst = burstBytes(rateMbps);
  return [
    `qdisc add dev ${dev} root handle 1: htb default 1`,
    `class add dev ${dev} parent 1: classid 1:1 htb rate ${rate} ceil ${rate} burst ${burst} cburst ${burst} quantum ${HTB_QUANTUM}`,
    `filter add dev ${dev} parent 1: prio 1 protocol all u32 match u32 0 0 action mirred egress redirect dev ${ifb}`,
  ];
}

export const bottleneckIfbName = (bottleneckIndex: number) => `ifb${bottleneckIndex}`;

const NAME_RE = /^[a-z][a-z0-9-]*$/;

function describe(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}

function checkKeys(where: string, obj: Record<string, unknown>, allowed: string[], problems: string[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) problems.push(`${where}: unknown field "${key}" (allowed: ${allowed.join(", ")})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates a parsed topology; throws one Error listing every problem found. */
export function parseTopology(value: unknown): LabTopology {
  const problems: string[] = [];
  if (!isObject(value)) throw new Error("invalid lab topology: expected an object { hosts: [...], links: [...] }");
  checkKeys("topology", value, ["hosts", "links", "bottlenecks"], problems);

  const hosts: LabTopologyHost[] = [];
  if (!Array.isArray(value.hosts) || value.hosts.length === 0) {
    problems.push(`topology.hosts: expected a non-empty array, got ${describe(value.hosts)}`);
  } else if (value.hosts.length > MAX_HOSTS) {
    problems.push(
      `topology.hosts: at most ${MAX_HOSTS} hosts (one 198.19.<N*16+i>.0/24 each), got ${value.hosts.length}`,
    );
  } else {
    value.hosts.forEach((host, i) => {
      const where = `hosts[${i}]`;
      if (!isObject(host)) return void problems.push(`${where}: expected an object { "name": "..." }`);
      checkKeys(where, host, ["name", "flavor", "access", "reachedThrough"], problems);
      const name = host.name;
      const flavor = host.flavor;
      const { access, reachedThrough } = host;
      if (access !== undefined && !LAB_ACCESS.includes(access as LabAccess)) {
        return void problems.push(
          `${where}.access: expected one of ${LAB_ACCESS.map((a) => `"${a}"`).join(", ")}, got ${describe(access)}`,
        );
      }
      if (reachedThrough !== undefined) {
        const jump = hosts.find((h) => h.name === reachedThrough);
        if (!jump || (jump.access ?? "ssh") !== "ssh" || jump.reachedThrough !== undefined)
          return void problems.push(
            `${where}.reachedThrough: expected the name of an ssh host listed before it and reached directly, got ${describe(reachedThrough)}`,
          );
        if ((access ?? "ssh") !== "ssh")
          return void problems.push(`${where}.reachedThrough: only an ssh host is reached through another`);
      }
      if (flavor !== undefined && !LAB_FLAVORS.includes(flavor as LabFlavor)) {
        return void problems.push(
          `${where}.flavor: expected one of ${LAB_FLAVORS.map((f) => `"${f}"`).join(", ")}, got ${describe(flavor)}`,
        );
      }
      if (typeof name !== "string" || !NAME_RE.test(name)) {
        return void problems.push(
          `${where}.name: expected lowercase letters, digits and "-", starting with a letter, got ${describe(name)}`,
        );
      }
      if (name.length > HOST_NAME_MAX) {
        return void problems.push(
          `${where}.name: "${name}" is too long for an interface name: ` +
            `"wsm${LAB_INSTANCE_MAX}-${name}" exceeds ${IFNAME_MAX} characters (at most ${HOST_NAME_MAX})`,
        );
      }
      if (hosts.some((h) => h.name === name)) return void problems.push(`${where}.name: duplicate host "${name}"`);
      hosts.push({
        name,
        ...(flavor === undefined ? {} : { flavor: flavor as LabFlavor }),
        ...(access === undefined ? {} : { access: access as LabAccess }),
        ...(reachedThrough === undefined ? {} : { reachedThrough: reachedThrough as string }),
      });
    });
  }

  const bottlenecks: LabTopologyBottleneck[] = [];
  if (value.bottlenecks !== undefined && !Array.isArray(value.bottlenecks)) {
    problems.push(`topology.bottlenecks: expected an array, got ${describe(value.bottlenecks)}`);
  } else if (Array.isArray(value.bottlenecks) && value.bottlenecks.length > MAX_BOTTLENECKS) {
    problems.push(`topology.bottlenecks: at most ${MAX_BOTTLENECKS} bottlenecks, got ${value.bottlenecks.length}`);
  } else {
    (value.bottlenecks ?? []).forEach((bottleneck: unknown, k: number) => {
      const where = `bottlenecks[${k}]`;
      if (!isObject(bottleneck)) return void problems.push(`${where}: expected an object { name, rate }`);
      checkKeys(where, bottleneck, ["name", "rate"], problems);
      const before = problems.length;
      const { name, rate } = bottleneck;
      if (typeof name !== "string" || !NAME_RE.test(name) || name.length > 64) {
        problems.push(`${where}.name: expected lowercase letters, digits and "-" (at most 64), got ${describe(name)}`);
      } else if (bottlenecks.some((b) => b.name === name)) {
        problems.push(`${where}.name: duplicate bottleneck "${name}"`);
      }
      if (
        typeof rate !== "string" ||
        !BOTTLENECK_RATE_RE.test(rate) ||
        rateToMbps(rate) < 1 ||
        rateToMbps(rate) > BOTTLENECK_MBPS_MAX
      ) {
        problems.push(
          `${where}.rate: expected a tc rate from "1mbit" to "10gbit", such as "1.2gbit" or "800mbit", got ${describe(rate)}`,
        );
      }
      if (problems.length === before) bottlenecks.push({ name: name as string, rate: rate as string });
    });
  }

  const links: LabTopologyLink[] = [];
  const hostNames = new Set(hosts.map((h) => h.name));
  if (value.links !== undefined && !Array.isArray(value.links)) {
    problems.push(`topology.links: expected an array, got ${describe(value.links)}`);
  } else if (Array.isArray(value.links) && value.links.length > MAX_LINKS) {
    problems.push(
      `topology.links: at most ${MAX_LINKS} links (one 198.18.<N*16+j>.0/24 each), got ${value.links.length}`,
    );
  } else {
    (value.links ?? []).forEach((link: unknown, j: number) => {
      const where = `links[${j}]`;
      if (!isObject(link)) return void problems.push(`${where}: expected an object { name, a, b, rate, mtu }`);
      checkKeys(where, link, ["name", "a", "b", "rate", "mtu", "flowCapMbit", "bottleneck", "routedVia"], problems);
      const before = problems.length;
      const { name, a, b, rate, mtu, flowCapMbit, bottleneck, routedVia } = link;
      if (typeof name !== "string" || !NAME_RE.test(name) || name.length > 64) {
        problems.push(`${where}.name: expected lowercase letters, digits and "-" (at most 64), got ${describe(name)}`);
      } else if (links.some((l) => l.name === name)) {
        problems.push(`${where}.name: duplicate link "${name}"`);
      }
      for (const [end, host] of [
        ["a", a],
        ["b", b],
      ] as const) {
        if (typeof host !== "string") problems.push(`${where}.${end}: expected a host name, got ${describe(host)}`);
        else if (!hostNames.has(host)) problems.push(`${where}.${end}: unknown host "${host}"`);
      }
      if (typeof a === "string" && a === b)
        problems.push(`${where}: both ends are on host "${a}"; a link joins two different hosts`);
      if (rate !== null && !LAB_RATES.includes(rate as LabRate)) {
        problems.push(
          `${where}.rate: expected one of ${LAB_RATES.map((r) => `"${r}"`).join(", ")} or null (unshaped), got ${describe(rate)}`,
        );
      }
      if (typeof mtu !== "number" || !Number.isInteger(mtu) || mtu < MTU_MIN || mtu > MTU_MAX) {
        problems.push(`${where}.mtu: expected an integer from ${MTU_MIN} to ${MTU_MAX}, got ${describe(mtu)}`);
      }
      const rateMbps = typeof rate === "string" && LAB_RATES.includes(rate as LabRate) ? rateToMbps(rate) : null;
      if (flowCapMbit !== undefined) {
        if (rate === null) {
          problems.push(
            `${where}.flowCapMbit: needs a shaped link (rate is null): the cap is a share of the link's rate`,
          );
        } else if (
          typeof flowCapMbit !== "number" ||
          !Number.isInteger(flowCapMbit) ||
          flowCapMbit < 1 ||
          (rateMbps !== null && flowCapMbit >= rateMbps)
        ) {
          const below = rateMbps === null ? "the link's rate" : `${rateMbps}, the link's rate`;
          problems.push(
            `${where}.flowCapMbit: expected an integer number of Mbit/s from 1 to below ${below}, got ${describe(flowCapMbit)}`,
          );
        }
      }
      if (bottleneck !== undefined) {
        if (typeof bottleneck !== "string" || !bottlenecks.some((k) => k.name === bottleneck)) {
          const known =
            bottlenecks.length === 0
              ? "topology.bottlenecks names none"
              : `known: ${bottlenecks.map((k) => `"${k.name}"`).join(", ")}`;
          problems.push(
            `${where}.bottleneck: expected the name of one of topology.bottlenecks (${known}), got ${describe(bottleneck)}`,
          );
        } else if (rate === null) {
          problems.push(
            `${where}.bottleneck: needs a shaped link (rate is null): the link's htb takes the packets back from the ifb`,
          );
        }
        if (flowCapMbit !== undefined) {
          problems.push(
            `${where}: has both flowCapMbit and bottleneck; a link takes one or the other (packets back from the ifb skip the flow hash)`,
          );
        }
      }
      if (problems.length === before) {
        links.push({
          name: name as string,
          a: a as string,
          b: b as string,
          rate: rate as LabRate | null,
          mtu: mtu as number,
          ...(flowCapMbit === undefined ? {} : { flowCapMbit: flowCapMbit as number }),
          ...(bottleneck === undefined ? {} : { bottleneck: bottleneck as string }),
          ...(routedVia === undefined ? {} : { routedVia: routedVia as string }),
        });
      }
    });
  }
  // A detour is another link between the same two hosts, itself taken by its own traffic.
  links.forEach((link, j) => {
    if (link.routedVia === undefined) return;
    const via = links.find((l) => l.name === link.routedVia);
    const where = `links[${j}].routedVia`;
    if (!via || via === link || via.routedVia !== undefined) {
      problems.push(
        `${where}: expected the name of another link that is not itself routed elsewhere, got ${describe(link.routedVia)}`,
      );
    } else if (!((via.a === link.a && via.b === link.b) || (via.a === link.b && via.b === link.a))) {
      problems.push(`${where}: "${via.name}" must join the same two hosts as "${link.name}"`);
    }
  });

  // A bottleneck's ifb lives in the namespaces of its links' a and b hosts, one each: so they must be the same hosts.
  bottlenecks.forEach((bottleneck, k) => {
    const where = `bottlenecks[${k}]`;
    const members = links.filter((l) => l.bottleneck === bottleneck.name);
    const first = members[0];
    if (!first) return void problems.push(`${where}: no link names "${bottleneck.name}" in its "bottleneck" field`);
    const stray = members.find((l) => l.a !== first.a || l.b !== first.b);
    if (stray) {
      problems.push(
        `${where}: every link of "${bottleneck.name}" must join the same a host to the same b host (its ifb lives in those two namespaces); ` +
          `"${first.name}" joins ${first.a} to ${first.b} but "${stray.name}" joins ${stray.a} to ${stray.b}`,
      );
    }
  });

  if (problems.length > 0) throw new Error(`invalid lab topology:\n  - ${problems.join("\n  - ")}`);
  return { hosts, links, bottlenecks };
}

export function loadTopology(topologyPath: string): LabTopology {
  let text: string;
  try {
    text = fs.readFileSync(topologyPath, "utf8");
  } catch (err) {
    throw new Error(`cannot read lab topology ${topologyPath}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`lab topology ${topologyPath} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parseTopology(json);
  } catch (err) {
    throw new Error(`${topologyPath}: ${(err as Error).message}`);
  }
}

// ---------------------------------------------------------------- address plan

const octet = (index: number, instance: number) => instance * INSTANCE_BLOCK + index;
export const mgmtRootAddress = (hostIndex: number, instance: number = labInstance()) =>
  `198.19.${octet(hostIndex, instance)}.1`;
/** The management network of a host: 198.19.<octet>.0/24. */
export const mgmtNetwork = (hostIndex: number, instance: number = labInstance()) =>
  `198.19.${octet(hostIndex, instance)}.0/${PREFIX_LENGTH}`;
export const mgmtHostAddress = (hostIndex: number, instance: number = labInstance()) =>
  `198.19.${octet(hostIndex, instance)}.2`;
export const linkAddress = (linkIndex: number, side: "a" | "b", instance: number = labInstance()) =>
  `198.18.${octet(linkIndex, instance)}.${side === "a" ? 1 : 2}`;
export const linkNicName = (linkIndex: number) => `eth${linkIndex + 1}`;
export const netnsName = (host: string, instance: number = labInstance()) => `${netnsPrefix(instance)}${host}`;
export const mgmtVethName = (host: string, instance: number = labInstance()) => `${mgmtVethPrefix(instance)}${host}`;
/** The jump host's end of the management veth of a host reached through it (inside the jump host's namespace). */
export const jumpVethName = (host: string) => `jmp-${host}`;

// ---------------------------------------------------------------- process helpers

function run(file: string, args: string[], input?: string): string {
  try {
    return execFileSync(bin(file), args, {
      encoding: "utf8",
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      input,
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const detail = (e.stderr ?? "").trim() || e.message;
    throw new Error(`${file} ${args.join(" ")} failed: ${detail}`);
  }
}

// For teardown: failures (already gone, never made) are expected and ignored.
function tryRun(file: string, args: string[]): string | null {
  const res = spawnSync(bin(file), args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return res.status === 0 ? res.stdout : null;
}

const ip = (...args: string[]) => run("ip", args);
const ipn = (ns: string, ...args: string[]) => run("ip", ["-n", ns, ...args]);
// Hundreds of tc commands per device (a flow cap's classes and filters) in one process, fed on stdin.
const tcBatch = (ns: string, lines: string[]) => run("tc", ["-n", ns, "-batch", "-"], `${lines.join("\n")}\n`);

function listLabNetns(): string[] {
  const out = tryRun("ip", ["-j", "netns", "list"]);
  if (!out || !out.trim()) return [];
  const list = JSON.parse(out) as { name: string }[];
  return list.map((n) => n.name).filter((n) => n.startsWith(netnsPrefix()));
}

/** This instance's unreachable routes (lab up adds one per host behind a jump host). */
function listLabUnreachableRoutes(instance: number = labInstance()): string[] {
  const networks = Array.from({ length: INSTANCE_BLOCK }, (_, index) => mgmtNetwork(index, instance));
  const routes = (tryRun("ip", ["route", "show", "type", "unreachable"]) ?? "").split("\n");
  return routes.map((line) => line.trim().split(/\s+/)[1] ?? "").filter((network) => networks.includes(network));
}

function listLabRootLinks(): string[] {
  const out = tryRun("ip", ["-j", "link", "show"]);
  if (!out || !out.trim()) return [];
  const list = JSON.parse(out) as { ifname: string }[];
  return list.map((l) => l.ifname).filter((n) => n.startsWith(netnsPrefix()) || n.startsWith(mgmtVethPrefix()));
}

// A zombie still answers kill(pid, 0) but is gone for our purposes: its parent reaps it.
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidFilesUnder(dir: string): string[] {
  const found: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...pidFilesUnder(full));
    else if (entry.name.endsWith(".pid")) found.push(full);
  }
  return found;
}

// A pid file outlives its process: only trust it if the process still names our dir ("/" so -1 is not -10).
function isOurProcess(pid: number, dir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`${dir}/`);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- down

/** Tears the lab down: processes, namespaces, root-side veths, state dir. Safe to run any time. */
export function labDown(): void {
  const dir = labDir();
  const namespaces = listLabNetns();

  const pids = new Set<number>();
  // Everything inside our namespaces is ours: sshd, its sessions, iperf3 servers tests left.
  for (const ns of namespaces) {
    for (const line of (tryRun("ip", ["netns", "pids", ns]) ?? "").split("\n")) {
      const pid = Number.parseInt(line, 10);
      if (pid > 0 && pid !== process.pid) pids.add(pid);
    }
  }
  // Pid files catch an sshd whose namespace was already unmounted by a crashed run.
  for (const file of pidFilesUnder(dir)) {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
    if (pid > 0 && pid !== process.pid && isOurProcess(pid, dir)) pids.add(pid);
  }
  // A login shell still running its rc files (a standby session starting, lib/ssh/standby.ts) is let
  // finish first: killed half way, an rc file can leave a lock behind (pyenv's rehash does) that
  // makes every later shell of that user wait for it, outside the lab too.
  const starting = (pid: number) => {
    try {
      return /exec sh -c '?echo wirespeed-standby/.test(
        fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " "),
      );
    } catch {
      return false;
    }
  };
  const settled = Date.now() + 15_000;
  while ([...pids].some(starting) && Date.now() < settled) sleepSync(100);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 3000;
  while ([...pids].some(isAlive) && Date.now() < deadline) sleepSync(50);
  for (const pid of pids) {
    if (isAlive(pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // exited between the check and the kill
      }
    }
  }

  // The unreachable routes that keep the networks of hosts behind a jump host off this machine's default route.
  for (const network of listLabUnreachableRoutes()) tryRun("ip", ["route", "del", "unreachable", network]);
  // Delete root-side veths first: it is synchronous, while a namespace's own veths
  // vanish asynchronously after `ip netns del` and would collide with the next `up`.
  for (const link of listLabRootLinks()) tryRun("ip", ["link", "del", link]);
  for (const ns of namespaces) tryRun("ip", ["netns", "del", ns]);
  const linksGone = Date.now() + 3000;
  while (listLabRootLinks().length > 0 && Date.now() < linksGone) sleepSync(50);

  if (fs.existsSync(path.join(dir, MARKER))) fs.rmSync(dir, { recursive: true, force: true });

  const leftNs = listLabNetns();
  const leftLinks = listLabRootLinks();
  if (leftNs.length > 0 || leftLinks.length > 0) {
    throw new Error(`lab down left behind namespaces [${leftNs.join(", ")}] and links [${leftLinks.join(", ")}]`);
  }
}

// ---------------------------------------------------------------- up

function prepareDir(dir: string): void {
  if (fs.existsSync(dir) && !fs.existsSync(path.join(dir, MARKER)) && fs.readdirSync(dir).length > 0) {
    throw new Error(`${dir} exists and is not a lab directory; set WIRESPEED_LAB_DIR to an empty or new directory`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, MARKER), "created by testing/lab/lab.ts; removed by `lab down`\n");
}

function keygen(keyPath: string, comment: string): void {
  run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", keyPath]);
}

/** The fingerprint as `ssh-keygen -lf` prints it: "SHA256:<base64 without padding>". */
function fingerprint(pubKeyPath: string): string {
  const out = run("ssh-keygen", ["-lf", pubKeyPath]).trim();
  const fp = out.split(/\s+/)[1];
  if (!fp || !fp.startsWith("SHA256:")) throw new Error(`unexpected ssh-keygen -lf output: ${out}`);
  return fp;
}

function linkInfo(ns: string, dev: string): { mac: string; mtu: number } {
  const info = JSON.parse(ipn(ns, "-j", "link", "show", "dev", dev)) as { address: string; mtu: number }[];
  const first = info[0];
  if (!first) throw new Error(`no interface ${dev} in ${ns}`);
  return { mac: first.address, mtu: first.mtu };
}

function sshdConfig(opts: {
  listen: string;
  hostKey: string;
  pidFile: string;
  authorizedKeys: string;
  forceCommand?: string;
}): string {
  return [
    "# Written by testing/lab/lab.ts for one lab host; removed by `lab down`.",
    `ListenAddress ${opts.listen}:${SSH_PORT}`,
    `HostKey ${opts.hostKey}`,
    `PidFile ${opts.pidFile}`,
    `AuthorizedKeysFile ${opts.authorizedKeys}`,
    "PubkeyAuthentication yes",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "PermitRootLogin prohibit-password",
    // The keys live under /tmp, whose permissions StrictModes would reject.
    "StrictModes no",
    "UsePAM no",
    "PrintMotd no",
    // Tests open several sessions at once (server side and client side).
    "MaxStartups 50:30:100",
    "MaxSessions 50",
    "Subsystem sftp /usr/lib/openssh/sftp-server",
    "LogLevel VERBOSE",
    ...(opts.forceCommand ? [`ForceCommand ${opts.forceCommand}`] : []),
    "",
  ].join("\n");
}

async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function waitForTcp(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect({ host, port, timeout: 1000 });
      const retry = (why: string) => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`${host}:${port} did not accept TCP within ${timeoutMs} ms (${why})`));
        else setTimeout(attempt, 100);
      };
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("timeout", () => retry("timeout"));
      socket.once("error", (err) => retry(err.message));
    };
    attempt();
  });
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function buildLab(topology: LabTopology, dir: string): Promise<LabState> {
  prepareDir(dir);
  const clientKeyPath = path.join(dir, "id_ed25519");
  keygen(clientKeyPath, "wirespeed-lab-client");
  const clientPublicKey = fs.readFileSync(`${clientKeyPath}.pub`, "utf8").trim();
  const authorizedKeys = path.join(dir, "authorized_keys");
  fs.writeFileSync(authorizedKeys, `${clientPublicKey}\n`, { mode: 0o600 });
  if (topology.hosts.some((h) => h.flavor === "esxi")) {
    const missing = ["/bin/busybox", "unshare"].filter((b) => !findBinary(b));
    if (missing.length > 0)
      throw new Error(`the ESXi stand-in needs ${missing.join(" and ")}: apt-get install -y busybox util-linux`);
  }
  // sshd refuses to start without its privilege-separation directory.
  fs.mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });

  const hosts: LabHost[] = [];
  for (const [i, { name, flavor = "linux", access = "ssh", reachedThrough }] of topology.hosts.entries()) {
    const ns = netnsName(name);
    const mgmt = mgmtVethName(name);
    const hostDir = path.join(dir, "hosts", name);
    fs.mkdirSync(hostDir, { recursive: true, mode: 0o700 });

    ip("netns", "add", ns);
    ipn(ns, "link", "set", "lo", "up");
    if (access !== "ssh") {
      // No sshd and no management network: Wirespeed never logs in; tests run iperf3 in it themselves.
      hosts.push({
        name,
        flavor,
        access,
        reachedThrough: null,
        netns: ns,
        sshHost: "",
        sshPort: 0,
        username: "",
        hostKeyFingerprint: "",
        hostKeyPath: "",
        sshdPidFile: "",
        nics: [],
      });
      continue;
    }
    if (reachedThrough === undefined) {
      // Created in one step with its peer already inside: no half-moved veth if we die here.
      ip("link", "add", mgmt, "type", "veth", "peer", "name", "mgmt0", "netns", ns);
      ip("addr", "add", `${mgmtRootAddress(i)}/${PREFIX_LENGTH}`, "dev", mgmt);
      ip("link", "set", mgmt, "up");
    } else {
      // The management network joins the jump host's namespace only: this machine has no route to it.
      const jumpNs = netnsName(reachedThrough);
      const jumpEnd = jumpVethName(name);
      ip("link", "add", jumpEnd, "netns", jumpNs, "type", "veth", "peer", "name", "mgmt0", "netns", ns);
      ipn(jumpNs, "addr", "add", `${mgmtRootAddress(i)}/${PREFIX_LENGTH}`, "dev", jumpEnd);
      ipn(jumpNs, "link", "set", jumpEnd, "up");
      // This machine refuses the network at once: a direct attempt never leaves it by the default route.
      ip("route", "add", "unreachable", mgmtNetwork(i));
    }
    ipn(ns, "addr", "add", `${mgmtHostAddress(i)}/${PREFIX_LENGTH}`, "dev", "mgmt0");
    ipn(ns, "link", "set", "mgmt0", "up");

    const hostKeyPath = path.join(hostDir, "ssh_host_ed25519_key");
    keygen(hostKeyPath, `wirespeed-lab-${name}`);
    const sshdPidFile = path.join(hostDir, "sshd.pid");
    const configPath = path.join(hostDir, "sshd_config");
    const isEsxi = flavor === "esxi";
    fs.writeFileSync(
      configPath,
      sshdConfig({
        listen: mgmtHostAddress(i),
        hostKey: hostKeyPath,
        pidFile: sshdPidFile,
        authorizedKeys,
        forceCommand: isEsxi ? ESXI_FORCE_COMMAND : undefined,
      }),
    );
    const logPath = path.join(hostDir, "sshd.log");
    // sshd daemonizes itself and writes its PidFile; -E keeps its log with the host. The ESXi stand-in's
    // sshd starts inside a private mount namespace that overlays /usr with the stand-in's files.
    const sshdArgv = isEsxi
      ? [
          bin("unshare"),
          "-m",
          "--propagation",
          "private",
          "/bin/sh",
          path.join(ESXI_STANDIN_DIR, "start-sshd.sh"),
          hostDir,
          configPath,
          logPath,
        ]
      : [SSHD, "-f", configPath, "-E", logPath];
    // Recorded so a test that stops this sshd can start it again the same way.
    fs.writeFileSync(path.join(hostDir, "sshd.argv.json"), `${JSON.stringify(sshdArgv)}\n`);
    run("ip", ["netns", "exec", ns, ...sshdArgv]);

    const mgmtInfo = linkInfo(ns, "mgmt0");
    hosts.push({
      name,
      flavor,
      access,
      reachedThrough: reachedThrough ?? null,
      netns: ns,
      sshHost: mgmtHostAddress(i),
      sshPort: SSH_PORT,
      username: "root",
      hostKeyFingerprint: fingerprint(`${hostKeyPath}.pub`),
      hostKeyPath,
      sshdPidFile,
      nics: [
        {
          name: "mgmt0",
          address: mgmtHostAddress(i),
          prefixLength: PREFIX_LENGTH,
          mtu: mgmtInfo.mtu,
          mac: mgmtInfo.mac,
          speedMbps: null,
          link: null,
        },
      ],
    });
  }

  // The ifbs come first: a link's filter can only redirect into a device that exists.
  const bottlenecks: LabBottleneck[] = topology.bottlenecks.map((bottleneck, k) => {
    const members = topology.links.filter((l) => l.bottleneck === bottleneck.name);
    const { a, b } = members[0]!;
    const ifb = bottleneckIfbName(k);
    const tbf = tbfParameters(bottleneck.rate);
    // Both directions share the rate: a's egress passes the ifb in a's namespace, b's the one in b's.
    for (const ns of [netnsName(a), netnsName(b)]) {
      ipn(ns, "link", "add", ifb, "type", "ifb");
      ipn(ns, "link", "set", "dev", ifb, "mtu", String(Math.max(...members.map((l) => l.mtu))), "up");
      run("tc", tbfQdiscArgs(ns, "add", ifb, tbf));
    }
    return {
      name: bottleneck.name,
      rateMbps: rateToMbps(bottleneck.rate),
      ifb,
      a,
      b,
      links: members.map((l) => l.name),
    };
  });

  const links: LabLink[] = [];
  for (const [j, link] of topology.links.entries()) {
    const nic = linkNicName(j);
    const speedMbps = link.rate === null ? null : rateToMbps(link.rate);
    // Both ends are created directly inside their namespaces, already named ethN.
    ip("link", "add", nic, "netns", netnsName(link.a), "type", "veth", "peer", "name", nic, "netns", netnsName(link.b));
    const ends: LabLinkEnd[] = [];
    for (const side of ["a", "b"] as const) {
      const hostName = link[side];
      const ns = netnsName(hostName);
      const address = linkAddress(j, side);
      ipn(ns, "link", "set", "dev", nic, "mtu", String(link.mtu));
      ipn(ns, "addr", "add", `${address}/${PREFIX_LENGTH}`, "dev", nic);
      ipn(ns, "link", "set", "dev", nic, "up");
      // Both directions are shaped: each end's egress is the other end's ingress.
      const bottleneck = bottlenecks.find((k) => k.name === link.bottleneck);
      if (speedMbps !== null && link.flowCapMbit !== undefined) {
        tcBatch(ns, flowCapTcBatch(nic, speedMbps, link.flowCapMbit));
      } else if (speedMbps !== null && bottleneck) {
        tcBatch(ns, bottleneckTcBatch(nic, speedMbps, bottleneck.ifb));
      } else if (link.rate !== null) {
        run("tc", tbfQdiscArgs(ns, "add", nic, tbfParameters(link.rate)));
      }
      const { mac, mtu } = linkInfo(ns, nic);
      const host = hosts.find((h) => h.name === hostName);
      host?.nics.push({ name: nic, address, prefixLength: PREFIX_LENGTH, mtu, mac, speedMbps, link: link.name });
      ends.push({ host: hostName, nic, address });
    }
    links.push({
      name: link.name,
      rateMbps: speedMbps,
      mtu: link.mtu,
      a: ends[0]!,
      b: ends[1]!,
      flowCapMbps: link.flowCapMbit ?? null,
      bottleneck: link.bottleneck ?? null,
      routedVia: link.routedVia ?? null,
    });
  }

  // Detours: on each end, a /32 route sends the peer's address of the link through the other link's peer,
  // so a test bound to the link's addresses leaves by the other link's NIC (the path check's off-link case).
  for (const link of links) {
    const via = links.find((l) => l.name === link.routedVia);
    if (!via) continue;
    const viaEndOn = (host: string) => (via.a.host === host ? via.a : via.b);
    for (const [here, peer] of [
      [link.a, link.b],
      [link.b, link.a],
    ] as const) {
      ipn(netnsName(here.host), "route", "add", `${peer.address}/32`, "via", viaEndOn(peer.host).address);
    }
  }

  await Promise.all(
    hosts.map(async (host) => {
      try {
        if (host.access !== "ssh") return;
        // sshd writes its PidFile once it listens; a host behind a jump host cannot be dialled from here.
        if (host.reachedThrough !== null) return await waitForFile(host.sshdPidFile, 10_000);
        await waitForTcp(host.sshHost, host.sshPort, 10_000);
      } catch (err) {
        const log = path.join(path.dirname(host.sshdPidFile), "sshd.log");
        throw new Error(`sshd of lab host ${host.name}: ${(err as Error).message}\n${log}:\n${tail(log, 10)}`);
      }
    }),
  );

  const state: LabState = { instance: labInstance(), dir, clientKeyPath, clientPublicKey, hosts, links, bottlenecks };
  fs.writeFileSync(labStatePath(), `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

/** Builds the lab described by the topology, after tearing down any previous one. */
export async function labUp(topologyPath: string = DEFAULT_TOPOLOGY_PATH): Promise<LabState> {
  const problems = checkLabPrerequisites();
  if (problems.length > 0) throw new Error(`the lab cannot start:\n  - ${problems.join("\n  - ")}`);
  const topology = loadTopology(topologyPath);
  labDown();
  try {
    return await buildLab(topology, labDir());
  } catch (err) {
    // A half-built lab is worse than none: the next run would trip over it.
    try {
      labDown();
    } catch (downErr) {
      throw new Error(`${(err as Error).message}\n(and tearing down failed: ${(downErr as Error).message})`);
    }
    throw err;
  }
}

/** The state of the lab that is up, or null. */
export function readLabState(): LabState | null {
  try {
    return JSON.parse(fs.readFileSync(labStatePath(), "utf8")) as LabState;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- CLI

async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  switch (command) {
    case "up": {
      const state = await labUp(arg ? path.resolve(arg) : DEFAULT_TOPOLOGY_PATH);
      process.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
      return 0;
    }
    case "down":
      labDown();
      return 0;
    case "status": {
      const state = readLabState();
      if (!state) {
        process.stderr.write("lab is not up\n");
        return 1;
      }
      process.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
      return 0;
    }
    default:
      process.stderr.write("usage: tsx testing/lab/lab.ts up [topology.json] | down | status\n");
      return 2;
  }
}

// Run as a CLI only when this file is the entry point (tsx testing/lab/lab.ts), not when imported.
if (/^lab\.[cm]?[jt]s$/.test(path.basename(process.argv[1] ?? ""))) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  );
}
