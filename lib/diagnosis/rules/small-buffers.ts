// Small buffers: a TCP window cannot outgrow the socket buffer limits, and a window smaller
// than the bandwidth-delay product cannot fill the link. With -w the limits are rmem_max and
// wmem_max (what setsockopt may ask for); without it, the most that autotuning grows to (the
// third figure of tcp_rmem at the receiver, of tcp_wmem at the sender). The BSDs keep the same
// ideas under other names (agents/environment-bsd.ts), and kern.ipc.maxsockbuf caps autotuning too.
import type { Hint, TcpSettings } from "@/lib/diagnosis/contract";
import type { Platform } from "@/lib/platforms";
import {
  capitalized,
  formatBytesWord,
  formatMs,
  hint,
  lineRateOf,
  listWords,
  shortFlows,
  snapshotOf,
  whatTheRunGave,
  type Role,
} from "./shared";
import type { RunEvidence } from "./types";
import { formatBitRate } from "@/lib/format";

export const SMALL_BUFFERS_TITLE = "Socket buffers smaller than the bandwidth-delay product";
/** The round trip assumed when the run measured none: a LAN's, generously. */
export const ASSUMED_RTT_MS = 1;

type LimitKey = "rmemMax" | "wmemMax" | "tcpRmem" | "tcpWmem";

/** One limit that is below the bandwidth-delay product. */
type SmallLimit = { role: Role; platform: Platform; key: LimitKey; bytes: number; tcp: TcpSettings };

/** The sysctl that holds each limit on each platform that has them (Windows and ESXi say none). */
const SYSCTL_NAMES: Partial<Record<Platform, Record<LimitKey, string>>> = {
  linux: {
    rmemMax: "net.core.rmem_max",
    wmemMax: "net.core.wmem_max",
    tcpRmem: "net.ipv4.tcp_rmem",
    tcpWmem: "net.ipv4.tcp_wmem",
  },
  freebsd: {
    rmemMax: "kern.ipc.maxsockbuf",
    wmemMax: "kern.ipc.maxsockbuf",
    tcpRmem: "net.inet.tcp.recvbuf_max",
    tcpWmem: "net.inet.tcp.sendbuf_max",
  },
  macos: {
    rmemMax: "kern.ipc.maxsockbuf",
    wmemMax: "kern.ipc.maxsockbuf",
    tcpRmem: "net.inet.tcp.autorcvbufmax",
    tcpWmem: "net.inet.tcp.autosndbufmax",
  },
};

function sysctlName(limit: Pick<SmallLimit, "platform" | "key">): string {
  return (
    SYSCTL_NAMES[limit.platform]?.[limit.key] ??
    {
      rmemMax: "receive buffer limit",
      wmemMax: "send buffer limit",
      tcpRmem: "receive autotuning maximum",
      tcpWmem: "send autotuning maximum",
    }[limit.key]
  );
}

/** The limits that cap the window at the receiver and the sender, with -w or without. */
function limitsThatApply(platform: Platform, withWindow: boolean): { receiver: LimitKey[]; sender: LimitKey[] } {
  if (withWindow) return { receiver: ["rmemMax"], sender: ["wmemMax"] };
  // Linux's autotuning ignores rmem_max and wmem_max; a BSD's stops at kern.ipc.maxsockbuf as well
  return platform === "linux"
    ? { receiver: ["tcpRmem"], sender: ["tcpWmem"] }
    : { receiver: ["tcpRmem", "rmemMax"], sender: ["tcpWmem", "wmemMax"] };
}

/** The round trip the bandwidth-delay product is worked out with, and whether it was measured. */
export function rttOf(run: RunEvidence): { ms: number; measured: boolean } {
  const measured = run.latency?.loadedMedianMs ?? run.latency?.idleMedianMs ?? null;
  return measured !== null && measured > 0 ? { ms: measured, measured: true } : { ms: ASSUMED_RTT_MS, measured: false };
}

/** Bytes in flight that fill `bitsPerSecond` over `rttMs`. */
export function bandwidthDelayProduct(bitsPerSecond: number, rttMs: number): number {
  return (bitsPerSecond * rttMs) / 1000 / 8;
}

/** The most a buffer sysctl takes (an int). */
const MAX_SYSCTL_BYTES = 2 ** 31 - 1;

/** 2× the bandwidth-delay product, rounded up to a power of two: the value to set. */
export function bufferToSet(bdpBytes: number): number {
  return Math.min(2 ** Math.ceil(Math.log2(Math.max(2 * bdpBytes, 1))), MAX_SYSCTL_BYTES);
}

function limitOf(tcp: TcpSettings, key: LimitKey): number | null {
  if (key === "tcpRmem") return tcp.tcpRmem?.[2] ?? null;
  if (key === "tcpWmem") return tcp.tcpWmem?.[2] ?? null;
  return tcp[key];
}

/** "the server's net.core.rmem_max (213 kB)", "the client's net.ipv4.tcp_wmem maximum (4.19 MB)". */
function limitWords(limit: SmallLimit): string {
  const triple = limit.platform === "linux" && (limit.key === "tcpRmem" || limit.key === "tcpWmem");
  return `the ${limit.role}'s ${sysctlName(limit)}${triple ? " maximum" : ""} (${formatBytesWord(limit.bytes)})`;
}

/** The line to set; Linux's tcp_*mem triple keeps its first two figures. */
function sysctlLine(limit: SmallLimit, bytes: number): string {
  const triple =
    limit.platform !== "linux"
      ? null
      : limit.key === "tcpRmem"
        ? limit.tcp.tcpRmem
        : limit.key === "tcpWmem"
          ? limit.tcp.tcpWmem
          : null;
  const value = triple ? `"${triple[0]} ${triple[1]} ${bytes}"` : String(bytes);
  return `${sysctlName(limit)}=${value}`;
}

/** Where each platform keeps sysctl lines across reboots. */
const SYSCTL_FILES: Partial<Record<Platform, string>> = {
  linux: "/etc/sysctl.d/",
  freebsd: "/etc/sysctl.conf",
  macos: "/etc/sysctl.conf",
};

export function smallBuffersRule(run: RunEvidence): Hint | null {
  const lineRate = lineRateOf(run);
  // A channel carries its share of the link by design: its rate says nothing of its window.
  if (run.options.protocol !== "tcp" || run.isChannel || lineRate === null) return null;
  const short = shortFlows(run);
  if (short.length === 0) return null;
  const rtt = rttOf(run);
  const bdp = bandwidthDelayProduct(lineRate, rtt.ms);
  const window = run.options.window ?? null;

  const small: SmallLimit[] = [];
  const seen = new Set<string>();
  for (const flow of short) {
    for (const side of ["receiver", "sender"] as const) {
      const role = flow[side];
      const snapshot = snapshotOf(run, role);
      if (!snapshot) continue;
      for (const key of limitsThatApply(snapshot.platform, window !== null)[side]) {
        const bytes = limitOf(snapshot.tcp, key);
        // the BSDs' one maxsockbuf is both the receive and the send limit: say it once
        const name = `${role} ${sysctlName({ platform: snapshot.platform, key })}`;
        if (bytes === null || bytes >= bdp || seen.has(name)) continue;
        seen.add(name);
        small.push({ role, platform: snapshot.platform, key, bytes, tcp: snapshot.tcp });
      }
    }
  }
  const windowTooSmall = window !== null && window < bdp;
  if (small.length === 0 && !windowTooSmall) return null;

  const rttWords = rtt.measured
    ? `${formatMs(rtt.ms)} (the run's median round trip)`
    : `${formatMs(rtt.ms)} (assumed: the run measured no latency)`;
  const caps = [...(windowTooSmall ? [`the run's -w of ${formatBytesWord(window)}`] : []), ...small.map(limitWords)];
  const smallest = Math.min(...small.map((limit) => limit.bytes), windowTooSmall ? window : Infinity);
  const evidence =
    `The bandwidth-delay product of ${formatBitRate(lineRate)} over ${rttWords} is ${formatBytesWord(bdp)}; ` +
    `${listWords(caps)} ${caps.length === 1 ? "is" : "are"} below it, and a ${formatBytesWord(smallest)} window carries at most ` +
    `${formatBitRate((smallest * 8 * 1000) / rtt.ms)} over that round trip; ${whatTheRunGave(run, short)}.`;

  const target = bufferToSet(bdp);
  const byRole = (["client", "server"] as const)
    .map((role) => ({ role, limits: small.filter((limit) => limit.role === role) }))
    .filter((entry) => entry.limits.length > 0);
  const lines = byRole.map(({ role, limits }) => {
    const platform = limits[0]!.platform;
    const settings = limits.map((limit) => sysctlLine(limit, target)).join(" ");
    // FreeBSD's sysctl sets name=value as it is (it ignores -w); procps and macOS take -w
    if (!SYSCTL_NAMES[platform]) return `on the ${role}, ${settings}`;
    return `on the ${role}, sysctl ${platform === "freebsd" ? "" : "-w "}${settings}`;
  });
  const files = [...new Set(byRole.flatMap(({ limits }) => SYSCTL_FILES[limits[0]!.platform] ?? []))];
  const keep = files.length > 0 ? ` (the same lines in ${listWords(files)} keep them across reboots)` : "";
  const raise =
    lines.length > 0
      ? `Raise the limits to ${formatBytesWord(target)}, twice the bandwidth-delay product: ${lines.join("; ")}${keep}`
      : "";
  const widen = windowTooSmall
    ? `${raise ? "; and r" : "R"}un with -w ${target} or more, or without -w so that autotuning sizes the window`
    : "";
  return hint(
    "small-buffers",
    rtt.measured ? "critical" : "warning",
    SMALL_BUFFERS_TITLE,
    capitalized(evidence),
    `${raise}${widen}.`,
  );
}
