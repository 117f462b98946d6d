// What the rules share: the two ends of a run and what is known of their NICs (the snapshot
// read at the run first, the inventory where it says nothing), the directions a run measured
// and whether it fell short, and figures in words. Pure.
import type { EnvironmentSnapshot, Hint, HintId, HintSeverity, NicOffloads, NicRings } from "@/lib/diagnosis/contract";
import { HINT_SEVERITIES } from "@/lib/diagnosis/contract";
import { numberWord, otherSide } from "@/lib/experiments/kinds/figures";
import { formatBitRate, formatPercentWord } from "@/lib/format";
import type { Platform } from "@/lib/platforms";
import type { ClientSide } from "@/lib/runs/contract";
import type { RunEvidence } from "./types";

/** A run below this share of the line rate fell short (TCP over 1500-byte frames carries about 94%). */
export const FELL_SHORT_PERCENT = 90;
/** IPv4 and TCP headers (40 bytes) and the timestamp option (12) Linux sends: MSS = MTU − 52. */
export const TCP_IP_OVERHEAD = 52;
/** An end whose iperf3 used this much CPU (one core, as iperf3 counts it) is the limit. */
export const CPU_BOUND_PERCENT = 90;

export type Role = "client" | "server";
export const ROLES: readonly Role[] = ["client", "server"];

export function otherRole(role: Role): Role {
  return role === "client" ? "server" : "client";
}

export function hint(id: HintId, severity: HintSeverity, title: string, evidence: string, suggestion: string): Hint {
  return { id, severity, title, evidence, suggestion };
}

/** critical 2, warning 1, info 0. */
export function severityRank(severity: HintSeverity): number {
  return HINT_SEVERITIES.indexOf(severity);
}

export function moreSevere(a: HintSeverity, b: HintSeverity): HintSeverity {
  return severityRank(a) >= severityRank(b) ? a : b;
}

// ---------------------------------------------------------------- the ends and their NICs

export function snapshotOf(run: RunEvidence, role: Role): EnvironmentSnapshot | null {
  return run.environment?.[role] ?? null;
}

/** The link's end ("a" or "b") that plays a role in this run. */
export function sideOf(run: RunEvidence, role: Role): ClientSide {
  return role === "client" ? run.clientSide : otherSide(run.clientSide);
}

export type PcieState = {
  speedGTs: number | null;
  width: number | null;
  maxSpeedGTs: number | null;
  maxWidth: number | null;
};

/** What is known of one end's NIC: each field from the snapshot when it tells, else the inventory. */
export type EndNic = {
  role: Role;
  name: string;
  /** the platform of the snapshot, for commands in its syntax; null without one */
  platform: Platform | null;
  speedMbps: number | null;
  duplex: "full" | "half" | null;
  mtu: number | null;
  pcie: PcieState | null;
  siblingPorts: { name: string; speedMbps: number | null }[];
  rings: NicRings | null;
  /** from the snapshot only */
  offloads: NicOffloads | null;
};

/** "8.0 GT/s PCIe", "5 GT/s", "2.5GT/s" → the GT/s; null for "Unknown" or nothing. */
export function parsePcieSpeed(text: string | null): number | null {
  const match = text === null ? null : /(\d+(?:\.\d+)?)\s*GT\/s/i.exec(text);
  return match ? Number(match[1]) : null;
}

export function nicOf(run: RunEvidence, role: Role): EndNic {
  const snapshot = snapshotOf(run, role);
  const read = snapshot?.nic ?? null;
  const facts = run.nics[role];
  const speedGTs = read?.pcie?.speedGTs ?? parsePcieSpeed(facts.pcieLinkSpeed);
  const width = read?.pcie?.width ?? facts.pcieLinkWidth;
  const maxSpeedGTs = read?.pcie?.maxSpeedGTs ?? null;
  const maxWidth = read?.pcie?.maxWidth ?? null;
  const known = [speedGTs, width, maxSpeedGTs, maxWidth].some((value) => value !== null);
  return {
    role,
    name: read?.name ?? facts.name,
    platform: snapshot?.platform ?? null,
    speedMbps: positive(read?.speedMbps) ?? positive(facts.speedMbps),
    duplex: read?.duplex ?? null,
    mtu: positive(read?.mtu) ?? positive(facts.mtu),
    pcie: known ? { speedGTs, width, maxSpeedGTs, maxWidth } : null,
    siblingPorts: read?.siblingPorts ?? [],
    rings: read?.rings ?? null,
    offloads: read?.offloads ?? null,
  };
}

// a speed or MTU of 0 or -1 is how some platforms say "not known" (a port that is down)
function positive(value: number | null | undefined): number | null {
  return typeof value === "number" && value > 0 ? value : null;
}

/** "the client's enp3s0f0": an end and its NIC in a sentence. */
export function endNic(nic: Pick<EndNic, "role" | "name">): string {
  return `the ${nic.role}'s ${nic.name}`;
}

/** "The client's enp3s0f0", to start a sentence; a direction ("a→b: …") keeps its end's letter. */
export function capitalized(text: string): string {
  if (/^[ab]→/.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------- directions and rates

/** One direction a run measured: who sent, who received, and what came of it. */
export type Flow = {
  sender: Role;
  receiver: Role;
  bitsPerSecond: number | null;
  sentBytes: number | null;
  retransmits: number | null;
};

/** The directions of a run: the client sends unless -R; --bidir adds the server's sending. */
export function flowsOf(run: RunEvidence): Flow[] {
  const sender: Role = run.options.reverse ? "server" : "client";
  const flows: Flow[] = [
    {
      sender,
      receiver: otherRole(sender),
      bitsPerSecond: run.receivedBitsPerSecond,
      sentBytes: run.sentBytes,
      retransmits: run.retransmits,
    },
  ];
  if (run.options.bidir) {
    flows.push({
      sender: "server",
      receiver: "client",
      bitsPerSecond: run.reverseReceivedBitsPerSecond,
      sentBytes: run.reverseSentBytes,
      retransmits: run.reverseRetransmits,
    });
  }
  return flows;
}

/** "a→b": the direction of a flow over the link. */
export function flowWord(run: RunEvidence, flow: Pick<Flow, "sender" | "receiver">): string {
  return `${sideOf(run, flow.sender)}→${sideOf(run, flow.receiver)}`;
}

export function lineRateOf(run: { linkSpeedMbps: number }): number | null {
  return run.linkSpeedMbps > 0 ? run.linkSpeedMbps * 1e6 : null;
}

/**
 * Whether the run tried to fill the link: TCP or UDP without a bitrate cap (or 0), or one whose
 * streams together asked for about the line rate. A run capped well below it is short on purpose.
 */
export function askedForLineRate(run: RunEvidence): boolean {
  const lineRate = lineRateOf(run);
  const bitrate = run.options.bitrate;
  if (lineRate === null) return false;
  // UDP without a bitrate sends 1 Mbit/s
  if (bitrate === undefined) return run.options.protocol === "tcp";
  if (bitrate === 0) return true;
  return bitrate * run.options.parallel >= (lineRate * FELL_SHORT_PERCENT) / 100;
}

/** The flows of a succeeded run that tried to fill the link and stayed below FELL_SHORT_PERCENT of it. */
export function shortFlows(run: RunEvidence): Flow[] {
  const lineRate = lineRateOf(run);
  if (run.status !== "succeeded" || lineRate === null || !askedForLineRate(run)) return [];
  return flowsOf(run).filter(
    (flow) => flow.bitsPerSecond !== null && flow.bitsPerSecond < (lineRate * FELL_SHORT_PERCENT) / 100,
  );
}

export function fellShort(run: RunEvidence): boolean {
  return shortFlows(run).length > 0;
}

/** "2.2 Gbit/s, 44% of the 5 Gbit/s line rate". */
export function rateOfLine(bitsPerSecond: number, lineRate: number): string {
  return `${formatBitRate(bitsPerSecond)}, ${formatPercentWord((bitsPerSecond / lineRate) * 100)} of the ${formatBitRate(lineRate)} line rate`;
}

/** "the run gave 2.2 Gbit/s, 44% of the 5 Gbit/s line rate" (each direction of a --bidir run). */
export function whatTheRunGave(run: RunEvidence, flows: readonly Flow[] = flowsOf(run)): string | null {
  const lineRate = lineRateOf(run);
  const measured = flows.filter((flow) => flow.bitsPerSecond !== null);
  if (lineRate === null || measured.length === 0) return null;
  if (measured.length === 1 && !run.options.bidir)
    return `the run gave ${rateOfLine(measured[0]!.bitsPerSecond!, lineRate)}`;
  return `the run gave ${measured.map((flow) => `${flowWord(run, flow)} ${rateOfLine(flow.bitsPerSecond!, lineRate)}`).join(", ")}`;
}

// ---------------------------------------------------------------- figures in words

/** 12.5e6 → "12.5 MB", 212992 → "213 kB": decimal, to compare with rates at a glance. */
export function formatBytesWord(bytes: number): string {
  const units = ["bytes", "kB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${Number(value.toPrecision(3))} ${units[unit]}`;
}

/** 0.43 → "0.43 ms", 12.04 → "12 ms", 153.2 → "153 ms". */
export function formatMs(ms: number): string {
  return `${Number(ms.toPrecision(ms < 10 ? 2 : 3))} ms`;
}

/** ["a", "b", "c"] → "a, b and c". */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** 2, "port" → "two ports"; 1, "stream" → "one stream". */
export function countWord(count: number, noun: string): string {
  return `${numberWord(count)} ${noun}${count === 1 ? "" : "s"}`;
}

// ---------------------------------------------------------------- commands in a platform's syntax (shown, never run)

/** How to set a NIC's MTU on its platform, as a user would type it; null when the platform is not known. */
export function setMtuCommand(nic: Pick<EndNic, "name" | "platform">, mtu: number): string | null {
  switch (nic.platform) {
    case "linux":
      return `ip link set dev ${nic.name} mtu ${mtu}`;
    case "freebsd":
    case "macos":
      return `ifconfig ${nic.name} mtu ${mtu}`;
    case "esxi":
      // an uplink takes its vSwitch's MTU; a VMkernel interface has its own
      return nic.name.startsWith("vmk")
        ? `esxcli network ip interface set -i ${nic.name} -m ${mtu}`
        : `esxcli network vswitch standard set -v <its vSwitch> -m ${mtu}`;
    case "windows":
      // the Jumbo Packet setting counts the 14-byte Ethernet header
      return `Set-NetAdapterAdvancedProperty -Name "${nic.name}" -RegistryKeyword "*JumboPacket" -RegistryValue ${mtu + 14}`;
    default:
      return null;
  }
}
