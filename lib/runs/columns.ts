// A run's result as Run columns: the forward (or only) direction's summary, the second direction
// of a --bidir run, and both ends' CPU use. The engine writes them when a run ends, and the
// importer (lib/imports) for an output a user brought.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { IperfCpu, IperfSummary } from "@/lib/iperf";
import type { PathCheck } from "./contract";

export function summaryColumns(summary: IperfSummary | null, prefix: "" | "reverse", isInterrupted: boolean) {
  if (!summary) return {};
  const sender = summary.sender;
  // A client stopped by a signal prints a receiver line of "0.00 Bytes": it measured nothing, so store none.
  const receiver = isInterrupted && summary.receiver?.bytes === 0 ? null : summary.receiver;
  if (prefix === "reverse") {
    return {
      reverseSentBytes: sender?.bytes ?? null,
      reverseSentBitsPerSecond: sender?.bitsPerSecond ?? null,
      reverseReceivedBytes: receiver?.bytes ?? null,
      reverseReceivedBitsPerSecond: receiver?.bitsPerSecond ?? null,
      reverseRetransmits: sender?.retransmits ?? null,
    };
  }
  return {
    sentBytes: sender?.bytes ?? null,
    sentBitsPerSecond: sender?.bitsPerSecond ?? null,
    receivedBytes: receiver?.bytes ?? null,
    receivedBitsPerSecond: receiver?.bitsPerSecond ?? null,
    retransmits: sender?.retransmits ?? null,
    jitterMs: receiver?.jitterMs ?? null,
    lostPackets: receiver?.lostPackets ?? null,
    packets: receiver?.packets ?? null,
    lostPercent: receiver?.lostPercent ?? null,
  };
}

/** The CPU use of the host that ran the client and of the server's, as the client's output gave them. */
export function cpuColumns(cpu: IperfCpu | null) {
  return { clientCpuPercent: cpu?.clientPercent ?? null, serverCpuPercent: cpu?.serverPercent ?? null };
}

/** A run's proof of the path (path-check.ts) as its two columns: the check as JSON, its verdict as text for filters. */
export function pathCheckColumns(check: PathCheck | null) {
  if (!check) return {};
  return { pathCheck: check as unknown as Prisma.InputJsonValue, pathVerdict: check.verdict };
}
