// Words and symbols for runs, shared by tables, charts and headings. Pure.
import type { IperfOptions } from "@/lib/iperf/options";
import { formatPercentWord } from "@/lib/format";
import type { PathCheck, PathVerdict, RunDirection, RunStatus } from "./contract";

export const DIRECTION_ARROWS: Record<RunDirection, string> = { "a-to-b": "→", "b-to-a": "←", bidir: "⇄" };

/** `TCP ×4 30s ←`: protocol, streams, length and direction, as the runs table shows them. */
export function describeOptions(
  options: Pick<IperfOptions, "protocol" | "parallel" | "duration" | "bytes"> & { latency?: boolean },
  direction: RunDirection,
): string {
  const parts = [options.protocol.toUpperCase()];
  if (options.parallel > 1) parts.push(`×${options.parallel}`);
  if (options.bytes !== undefined) parts.push(formatByteCount(options.bytes));
  else parts.push(`${options.duration ?? 10}s`);
  parts.push(DIRECTION_ARROWS[direction]);
  if (options.latency) parts.push("+ latency");
  return parts.join(" ");
}

/** Direction in words with the hosts' names: "alpha → beta". */
export function describeDirection(direction: RunDirection, aName: string, bName: string): string {
  if (direction === "bidir") return `${aName} ⇄ ${bName}`;
  return direction === "a-to-b" ? `${aName} → ${bName}` : `${bName} → ${aName}`;
}

function formatByteCount(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let index = 0;
  while (value >= 1000 && index < units.length - 1) {
    value /= 1000;
    index += 1;
  }
  return `${Number(value.toFixed(1))}${units[index]}`;
}

export const STATUS_LABELS: Record<RunStatus, string> = {
  queued: "Queued",
  preparing: "Preparing",
  listening: "Listening",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
};

/** A path check's verdict in words: never a colour alone. */
export const PATH_VERDICT_LABELS: Record<PathVerdict, string> = {
  "on-link": "On the link",
  unclear: "Unclear",
  "off-link": "Off the link",
  unknown: "Not proven",
};

/**
 * What the path check found, in a line: "eth1 on alpha carried 104% of the bytes iperf3 sent" (counters
 * count headers too), or why nothing is proven. `hosts` names the client's and the server's host.
 */
export function describePathCheck(check: PathCheck, hosts: { client: string; server: string }): string {
  if (check.sender !== null && check.percent !== null) {
    const nic = check[check.sender]?.nic ?? "the NIC";
    return `${nic} on ${hosts[check.sender]} carried ${formatPercentWord(check.percent)} of the bytes iperf3 sent`;
  }
  const unread = (["client", "server"] as const).filter((role) => check[role]?.txBytes == null);
  if (check.iperfBytes === null) return "iperf3 reported no bytes sent";
  if (unread.length === 0) return "the counters did not tell";
  return `no counter read on ${unread.map((role) => hosts[role]).join(" or ")}`;
}
