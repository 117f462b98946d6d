// FreeBSD: the Linux agent (POSIX sh) with BSD `ifconfig -a` for NICs (pkg installs iperf3 on PATH).
import { freebsdEnvironment } from "./environment-bsd";
import { bsdPing } from "./ping";
import { parseIfconfig } from "./ifconfig";
import { linuxAgent } from "./linux";
import { posixCommand, posixCounterReader, posixDetectCommands, posixParseDetect, posixStartCommand } from "./posix";
import type { NicCounters, PlatformAgent } from "./types";

/**
 * `netstat -I IF -b -n`: the interface's rows, the first (`<Link#n>`) with its totals. Read by the header's
 * column names counted from the end of the row, since a NIC without a MAC leaves the Address column empty.
 * FreeBSD and macOS print the same columns (FreeBSD adds Idrop).
 */
export function parseNetstatCounters(output: string): NicCounters | null {
  const lines = output.split("\n").map((line) => line.replace(/\r$/, "").trim().split(/\s+/));
  const header = lines.find((words) => words[0] === "Name" && words.includes("Ibytes") && words.includes("Obytes"));
  const row = lines.find((words) => words[2]?.startsWith("<Link#"));
  if (!header || !row) return null;
  const column = (name: string) => {
    const text = row[row.length - (header.length - header.indexOf(name))];
    return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
  };
  const txBytes = column("Obytes");
  const rxBytes = column("Ibytes");
  return txBytes !== null && rxBytes !== null ? { txBytes, rxBytes } : null;
}

/** The BSDs' byte counters: one `netstat` row of the NIC's link level. */
export const bsdCounters = posixCounterReader(`netstat -I "$n" -b -n`, parseNetstatCounters);

export const freebsdAgent: PlatformAgent = {
  ...linuxAgent,
  platform: "freebsd",
  // No /proc/net/tcp to watch the server listen: its settle time decides.
  serverCommand: posixStartCommand,
  probeAnswer: /^FreeBSD\b/m,
  detectCommands: (iperf3Path?: string) =>
    posixDetectCommands(iperf3Path === undefined ? ["iperf3", "/usr/local/bin/iperf3"] : [iperf3Path]),
  parseDetect: (outputs) => posixParseDetect("freebsd", outputs),
  discoverNicsCommand: () => posixCommand(["ifconfig", "-a"]),
  parseNics: parseIfconfig,
  environment: freebsdEnvironment,
  ping: bsdPing,
  counters: bsdCounters,
};
