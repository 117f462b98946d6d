// Pinging the far end of a link for latency under load, per platform: the command in its syntax and
// the parser of its lines. lib/runs/latency.ts turns the parsed lines into the run's samples.
import { LATENCY_INTERVAL_SECONDS, type PingLine } from "@/lib/diagnosis/contract";
import { isSafeAddress } from "@/lib/iperf";
import { pidFirstCommand } from "./posix";
import type { ExecCommand, PingSupport } from "./types";

/** A day of pings every 0.2 s is 432,000: more is a mistake, not a run. */
export const MAX_PING_COUNT = 1_000_000;

/**
 * Windows prints "time<1ms" for any reply under a millisecond: the middle of [0, 1) ms. 0 would claim a
 * perfect link and 1 would read as a measured millisecond; either way the grade, read from the rise of
 * the median, is the same to half a millisecond.
 */
export const WINDOWS_BELOW_1MS = 0.5;

type PingInput = { address: string; source: string; count: number };

// Only an IP literal (and its %zone) reaches the command line: never a name, an option or a word of code.
function checkInput({ address, source, count }: PingInput): void {
  if (!isSafeAddress(address)) throw new Error("ping: the address to ping must be an IPv4 or IPv6 address");
  if (!isSafeAddress(source)) throw new Error("ping: the source address must be an IPv4 or IPv6 address");
  if (!Number.isInteger(count) || count < 1 || count > MAX_PING_COUNT) {
    throw new Error(`ping: the count must be a whole number from 1 to ${MAX_PING_COUNT}`);
  }
}

function isIpv6(address: string): boolean {
  return address.includes(":");
}

const INTERVAL = String(LATENCY_INTERVAL_SECONDS);

// Replies of iputils, BusyBox ("seq=N"), FreeBSD and macOS ping, ping6 ("from ::1, icmp_seq=N hlim=64")
// and ESXi's vmkping: "64 bytes from 198.18.0.2: icmp_seq=1 ttl=64 time=0.049 ms", with " (DUP!)" on a duplicate.
const POSIX_REPLY = /^\d+ bytes from \S+?,? .*?\b(?:icmp_)?seq=(\d+)\b.*?\btime[=<](\d+(?:\.\d+)?) ?ms\b/;
// Requests without an answer that the platform names: iputils -O "no answer yet for icmp_seq=5" (after
// one interval: a late reply may still come), iputils "From 198.18.0.1 icmp_seq=6 Destination Host
// Unreachable" (any error of its own), macOS "Request timeout for icmp_seq 5".
const POSIX_NO_ANSWER = [
  /^no answer yet for icmp_seq=(\d+)\b/,
  /^From \S+ icmp_seq=(\d+) /,
  /^Request timeout for icmp_seq (\d+)\b/,
];

/**
 * One line of any POSIX ping: a reply, a request without an answer (so far), or null for the rest
 * (the header, the statistics, FreeBSD's error lines, which carry no sequence number).
 */
export function parsePosixPingLine(line: string): PingLine | null {
  const text = line.trim();
  const reply = POSIX_REPLY.exec(text);
  if (reply) return { seq: Number(reply[1]), rttMs: Number(reply[2]) };
  for (const pattern of POSIX_NO_ANSWER) {
    const match = pattern.exec(text);
    if (match) return { seq: Number(match[1]), rttMs: null };
  }
  return null;
}

// "Reply from 198.18.0.2: bytes=32 time=3ms TTL=128", "Reply from fd00::2: time<1ms" (IPv6 has no bytes or TTL).
const WINDOWS_REPLY = /^Reply from \S+: .*?\btime([=<])(\d+)ms\b/i;
// A request that got no echo: timed out, or an error for it (which Windows counts as "received").
const WINDOWS_NO_ANSWER =
  /^(?:Request timed out\.|.*\b(?:unreachable|General failure|TTL expired in transit|transmit failed)\b)/i;

/**
 * One line of Windows' ping (English): a reply, a request without an answer, or null. Windows prints
 * no sequence numbers: each of these lines is the next request, in order.
 */
export function parseWindowsPingLine(line: string): PingLine | null {
  const text = line.trim();
  const reply = WINDOWS_REPLY.exec(text);
  if (reply) return { seq: null, rttMs: reply[1] === "<" ? WINDOWS_BELOW_1MS : Number(reply[2]) };
  if (WINDOWS_NO_ANSWER.test(text)) return { seq: null, rttMs: null };
  return null;
}

/** Linux (iputils): `-O` names every request still unanswered when the next one goes; `-I` takes the source address. */
export const iputilsPing: PingSupport = {
  intervalSeconds: LATENCY_INTERVAL_SECONDS,
  command(input) {
    checkInput(input);
    return pidFirstCommand([
      "ping",
      "-n",
      "-O",
      "-i",
      INTERVAL,
      "-c",
      String(input.count),
      "-I",
      input.source,
      input.address,
    ]);
  },
  parseLine: parsePosixPingLine,
};

/**
 * ESXi's own ping is vmkping, whose -I takes a VMkernel NIC's name (vmk1), not an address: where it
 * exists, it runs without -I and leaves by the vmknic of the address's subnet, the link's. BusyBox ping
 * (the lab's ESXi stand-in) takes the source address. `for a do shift ... set --` drops the -I pair from
 * "$@" without ever reading the words as code.
 */
const VMKPING_PRELUDE = [
  "if command -v vmkping >/dev/null 2>&1; then",
  '  shift; s=""',
  '  for a do shift; if [ -n "$s" ]; then s=""; elif [ "$a" = "-I" ]; then s=1; else set -- "$@" "$a"; fi; done',
  '  set -- vmkping "$@"',
  "fi",
];

/** ESXi (BusyBox-style ping; vmkping on a real host): replies print `seq=N` (`icmp_seq=N`) from 0, and nothing for a loss. */
export const busyboxPing: PingSupport = {
  intervalSeconds: LATENCY_INTERVAL_SECONDS,
  command(input) {
    checkInput(input);
    // BusyBox finds the family by itself, vmkping needs -6; both take it.
    const family = isIpv6(input.address) ? ["-6"] : [];
    return pidFirstCommand(
      ["ping", ...family, "-c", String(input.count), "-i", INTERVAL, "-I", input.source, input.address],
      VMKPING_PRELUDE,
    );
  },
  parseLine: parsePosixPingLine,
};

/**
 * FreeBSD and macOS: `-S` takes the source address. IPv6 goes to `ping6`, which both have (macOS's ping
 * is IPv4 only; FreeBSD before 13 too, and since 13 ping6 is ping under that name).
 */
export const bsdPing: PingSupport = {
  intervalSeconds: LATENCY_INTERVAL_SECONDS,
  command(input) {
    checkInput(input);
    const program = isIpv6(input.address) ? "ping6" : "ping";
    return pidFirstCommand([
      program,
      "-n",
      "-i",
      INTERVAL,
      "-c",
      String(input.count),
      "-S",
      input.source,
      input.address,
    ]);
  },
  parseLine: parsePosixPingLine,
};

/**
 * Windows: one request a second at most (its ping has no interval), each waited for 1 s (`-w 1000`),
 * so a reply later than that is a loss here. No PID line: it ends when its channel closes. Given
 * windows.ts's `cmdCommand`: windows.ts holds this in its agent, so importing it from there would make
 * an import cycle.
 */
export function windowsPingSupport(cmdCommand: (argv: readonly string[]) => ExecCommand): PingSupport {
  return {
    intervalSeconds: 1,
    command(input) {
      checkInput(input);
      return cmdCommand(["ping", "-n", String(input.count), "-w", "1000", "-S", input.source, input.address]);
    },
    parseLine: parseWindowsPingLine,
  };
}
