// The diagnosis contract: what a run's environment snapshot, its latency under load and the
// hints drawn from them are. Agents write snapshots and parse pings, the engine stores them,
// lib/diagnosis/rules turns them into hints, the REST API and the pages show them.
// Pure: no I/O, safe in the browser.
import type { Platform } from "@/lib/platforms";

// ---------------------------------------------------------------- environment snapshot

/** TCP segmentation, generic segmentation, generic receive and large receive offload: on, off, or unknown. */
export type NicOffloads = { tso: boolean | null; gso: boolean | null; gro: boolean | null; lro: boolean | null };

/** Ring (descriptor queue) sizes: the current ones and the most the NIC takes. */
export type NicRings = { rx: number | null; tx: number | null; rxMax: number | null; txMax: number | null };

/**
 * The PCIe link of the NIC's card: what it runs at now and what it can do. Speeds in GT/s per lane
 * (2.5, 5, 8, 16, 32 for PCIe 1.0 to 5.0), widths in lanes.
 */
export type PcieLink = {
  /** the PCI address, e.g. "0000:03:00.0" */
  address: string | null;
  speedGTs: number | null;
  width: number | null;
  maxSpeedGTs: number | null;
  maxWidth: number | null;
};

/** The NIC that carries the link, as the host sees it at the start of the run. */
export type NicEnvironment = {
  name: string;
  driver: string | null;
  driverVersion: string | null;
  firmware: string | null;
  /** negotiated speed; null when the OS does not say */
  speedMbps: number | null;
  duplex: "full" | "half" | null;
  mtu: number | null;
  pcie: PcieLink | null;
  /** the other ports of the same card (same PCIe device, other function), whose traffic shares its slot */
  siblingPorts: { name: string; speedMbps: number | null }[];
  offloads: NicOffloads;
  rings: NicRings | null;
};

/** Socket buffer limits in bytes; the tcp_* triples are min, default, max (Linux's net.ipv4.tcp_rmem/wmem). */
export type TcpSettings = {
  congestionControl: string | null;
  rmemMax: number | null;
  wmemMax: number | null;
  tcpRmem: [number, number, number] | null;
  tcpWmem: [number, number, number] | null;
};

/**
 * What one end of a run looked like when it started, read with one command. Every field the
 * platform does not tell, or that could not be read, is null, and `missing` says what and why.
 */
export type EnvironmentSnapshot = {
  platform: Platform;
  /** ISO time the snapshot was read */
  readAt: string;
  /** the OS and its release as the user knows it: "Debian GNU/Linux 12 (bookworm)", "VMware ESXi 8.0.2" */
  os: string | null;
  /** kernel release: "6.1.0-18-amd64", "14.0-RELEASE", "23.1.0" */
  kernel: string | null;
  /** the iperf3 the run used, as detected */
  iperf3Version: string | null;
  /** "none" on bare metal, else the hypervisor or container ("kvm", "vmware", "microsoft", "docker"); null: unknown */
  virtualization: string | null;
  cpu: { model: string | null; cores: number | null; governor: string | null };
  tcp: TcpSettings;
  nic: NicEnvironment | null;
  /** what could not be read, each "what: why", e.g. "ring sizes: ethtool is not installed" */
  missing: string[];
};

/**
 * A snapshot with nothing read yet: every field null, `missing` as given. Parsers start from it and
 * fill in what their platform tells; the engine stores it as is when the host could not be read.
 */
export function emptyEnvironment(
  platform: Platform,
  missing: string[] = [],
): Omit<EnvironmentSnapshot, "readAt" | "iperf3Version"> {
  return {
    platform,
    os: null,
    kernel: null,
    virtualization: null,
    cpu: { model: null, cores: null, governor: null },
    tcp: { congestionControl: null, rmemMax: null, wmemMax: null, tcpRmem: null, tcpWmem: null },
    nic: null,
    missing,
  };
}

/** The snapshots of a run's two ends; either is null when it was never read (older runs). */
export type RunEnvironment = { client: EnvironmentSnapshot | null; server: EnvironmentSnapshot | null };

/** A stored snapshot, or null when the value is not one (a run from before snapshots, a damaged row). */
export function parseStoredSnapshot(value: unknown): EnvironmentSnapshot | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const snapshot = value as Partial<EnvironmentSnapshot>;
  if (typeof snapshot.platform !== "string" || typeof snapshot.cpu !== "object" || typeof snapshot.tcp !== "object")
    return null;
  return { ...(snapshot as EnvironmentSnapshot), missing: Array.isArray(snapshot.missing) ? snapshot.missing : [] };
}

/** A run's stored `environment` column as both ends' snapshots. */
export function parseStoredEnvironment(value: unknown): RunEnvironment | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const both = value as { client?: unknown; server?: unknown };
  const client = parseStoredSnapshot(both.client);
  const server = parseStoredSnapshot(both.server);
  return client || server ? { client, server } : null;
}

// ---------------------------------------------------------------- latency under load

export const LATENCY_PHASES = ["idle", "loaded"] as const;
export type LatencyPhase = (typeof LATENCY_PHASES)[number];

/**
 * One ping: `t` seconds from the start of the traffic on the throughput chart's axis (negative
 * while idle, before it), its round-trip time, or null when no answer came.
 */
export type LatencySample = { t: number; rttMs: number | null; phase: LatencyPhase };

/** One line of a ping's output, as an agent reads it: a reply, or a request that got none. */
export type PingLine = { seq: number | null; rttMs: number | null };

export const BUFFERBLOAT_GRADES = ["A", "B", "C", "D", "F"] as const;
export type BufferbloatGrade = (typeof BUFFERBLOAT_GRADES)[number];

export type LatencySummary = {
  idleMedianMs: number | null;
  idleP95Ms: number | null;
  loadedMedianMs: number | null;
  loadedP95Ms: number | null;
  /** from the increase of the median under load; null without both medians */
  grade: BufferbloatGrade | null;
  /** pings sent and lost, both phases */
  sent: number;
  lost: number;
};

/** Seconds between pings, and of pings before the traffic starts. */
export const LATENCY_INTERVAL_SECONDS = 0.2;
export const LATENCY_IDLE_SECONDS = 5;

// ---------------------------------------------------------------- hints

export const HINT_SEVERITIES = ["info", "warning", "critical"] as const;
export type HintSeverity = (typeof HINT_SEVERITIES)[number];

export const HINT_IDS = [
  "pcie-slot",
  "shared-bottleneck",
  "single-stream",
  "cpu-bound",
  "mtu-mismatch",
  "standard-frames",
  "negotiated-below-nominal",
  "retransmits",
  "asymmetry",
  "small-buffers",
  "iperf3-too-old",
  "bufferbloat",
  "off-link",
] as const;
export type HintId = (typeof HINT_IDS)[number];

/** A finding: what the evidence says, the evidence itself in figures, and what to try next. */
export type Hint = {
  id: HintId;
  severity: HintSeverity;
  title: string;
  evidence: string;
  suggestion: string;
  /** where it was found, on the link page: the run or experiment */
  source?: { kind: "run" | "experiment"; id: number };
};
