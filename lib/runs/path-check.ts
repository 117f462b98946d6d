// The proof of the path: whether the bytes iperf3 sent went through the link's NICs, from each
// end's byte counters read just before the client started and just after it ended. A route or a
// second address can send a test bound to the link's addresses over another port (the 1G management
// one), and the result then looks like a slow link. Pure.
import type { NicCounters } from "@/agents/types";
import type { PathCheck, PathEnd, PathVerdict } from "./contract";

/** The sending NIC's counter rose by at least this share of the bytes iperf3 sent: the bytes went through it. */
export const ON_LINK_PERCENT = 90;
/** Below this share, most of them went another way. */
export const OFF_LINK_PERCENT = 50;

/** One end's NIC and its counters as read before the client started and after it ended (null: not read). */
export type CounterReadings = { nic: string; before: NicCounters | null; after: NicCounters | null };

/** The rise of one counter; null where a reading is missing or the counter went down (reset, or a 32-bit one wrapped). */
function rise(before: number | undefined, after: number | undefined): number | null {
  if (before === undefined || after === undefined || after < before) return null;
  return after - before;
}

/** What one end's counters rose by during the test, for the stored check. */
export function pathEnd(readings: CounterReadings): PathEnd {
  const { nic, before, after } = readings;
  return { nic, txBytes: rise(before?.txBytes, after?.txBytes), rxBytes: rise(before?.rxBytes, after?.rxBytes) };
}

export type Role = "client" | "server";

/** The bytes iperf3 sent one way, and the end that sent them. */
export type SentBytes = { sender: Role; bytes: number | null };

/**
 * The ways a test sent bytes: the forward summary's sender (the client, or the server with -R), and
 * for --bidir the second direction, server to client. UDP is the same: its sender counts datagrams sent.
 */
export function sentDirections(
  direction: "normal" | "reverse" | "bidir",
  sentBytes: number | null,
  reverseSentBytes: number | null,
): SentBytes[] {
  if (direction === "bidir")
    return [
      { sender: "client", bytes: sentBytes },
      { sender: "server", bytes: reverseSentBytes },
    ];
  return [{ sender: direction === "reverse" ? "server" : "client", bytes: sentBytes }];
}

/** One direction's verdict: the sending NIC's transmit counter against what iperf3 sent through it. */
export function directionVerdict(
  sentBytes: number | null,
  txRise: number | null,
): { verdict: PathVerdict; percent: number | null } {
  if (sentBytes === null || !(sentBytes > 0) || txRise === null) return { verdict: "unknown", percent: null };
  const percent = (txRise / sentBytes) * 100;
  const verdict = percent >= ON_LINK_PERCENT ? "on-link" : percent < OFF_LINK_PERCENT ? "off-link" : "unclear";
  return { verdict, percent: Math.round(percent * 10) / 10 };
}

// The worst verdict wins a --bidir run: bytes that went another way are proof enough, whatever the other direction did.
const WORST_FIRST: readonly PathVerdict[] = ["off-link", "unclear", "unknown", "on-link"];

/**
 * The run's check: each direction's sender's NIC against the bytes iperf3 sent that way, and the worst
 * of them. An end without counters (null: a device, an iperf3 server Wirespeed does not manage) leaves
 * the directions it sends `unknown`.
 */
export function checkPath(input: { client: PathEnd | null; server: PathEnd | null; sent: SentBytes[] }): PathCheck {
  const { client, server, sent } = input;
  const judged = sent.map(({ sender, bytes }) => ({
    sender,
    ...directionVerdict(bytes, (sender === "client" ? client : server)?.txBytes ?? null),
  }));
  const worst = judged.toSorted((a, b) => WORST_FIRST.indexOf(a.verdict) - WORST_FIRST.indexOf(b.verdict))[0];
  const counted = sent.filter((s) => s.bytes !== null);
  return {
    client,
    server,
    iperfBytes: counted.length > 0 ? counted.reduce((sum, s) => sum + s.bytes!, 0) : null,
    verdict: worst?.verdict ?? "unknown",
    sender: worst && worst.verdict !== "unknown" ? worst.sender : null,
    percent: worst?.percent ?? null,
  };
}
