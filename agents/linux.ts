// Linux: POSIX sh, iperf3 on PATH, NICs from `ip -j addr` and /sys/class/net. macOS and FreeBSD build on it.
import { LISTENING_LINE } from "./process";
import {
  pidFirstCommand,
  posixClientCommand,
  posixCommand,
  posixCounterReader,
  posixDetectCommands,
  posixIsRunningCommand,
  posixParseDetect,
  posixParseIsRunning,
  posixProgramNameCommand,
  posixQuote,
  posixStartCommand,
  posixStopCommand,
  shScript,
} from "./posix";
import { linuxEnvironment } from "./environment-linux";
import { iputilsPing } from "./ping";
import type { DiscoveredNic, ExecCommand, NicAddress, NicCounters, PlatformAgent, StartCommandInput } from "./types";

// One round trip for every NIC: the addresses as JSON, then one key=value block per interface from /sys.
const DISCOVER_SCRIPT = `echo wirespeed-ip-json
ip -j addr show 2>/dev/null
echo
for d in /sys/class/net/*; do
  n=\${d##*/}
  [ "$n" = lo ] && continue
  echo "wirespeed-nic $n"
  for f in mtu speed duplex address operstate; do printf '%s=%s\\n' "$f" "$(cat "$d/$f" 2>/dev/null)"; done
  printf 'pcie_speed=%s\\n' "$(cat "$d/device/current_link_speed" 2>/dev/null)"
  printf 'pcie_width=%s\\n' "$(cat "$d/device/current_link_width" 2>/dev/null)"
  drv=$(readlink "$d/device/driver" 2>/dev/null)
  printf 'driver=%s\\n' "\${drv##*/}"
done
echo wirespeed-end`;

type IpAddrInfo = { family?: string; local?: string; prefixlen?: number; scope?: string };
type IpLink = { ifname?: string; mtu?: number; address?: string; operstate?: string; addr_info?: IpAddrInfo[] };

/** Addresses worth binding iperf3 to: IPv4, and IPv6 other than link-local (which needs a %zone). */
export function ipAddrInfoToAddresses(info: readonly IpAddrInfo[] | undefined): NicAddress[] {
  const out: NicAddress[] = [];
  for (const a of info ?? []) {
    if (typeof a.local !== "string" || typeof a.prefixlen !== "number") continue;
    if (a.family === "inet") out.push({ address: a.local, prefixLength: a.prefixlen, family: "ipv4" });
    else if (a.family === "inet6" && a.scope !== "link" && !/^fe[89ab]/i.test(a.local)) {
      out.push({ address: a.local, prefixLength: a.prefixlen, family: "ipv6" });
    }
  }
  return out;
}

const intOrNull = (text: string | undefined): number | null => {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) return null;
  return Number(text.trim());
};
const textOrNull = (text: string | undefined): string | null => (text && text.trim() !== "" ? text.trim() : null);

/** Parses the output of the Linux discover command (see DISCOVER_SCRIPT); `lo` is never reported. */
export function parseLinuxNics(output: string): DiscoveredNic[] {
  const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const jsonStart = lines.indexOf("wirespeed-ip-json");
  const blocks = new Map<string, Record<string, string>>();
  const order: string[] = [];
  let jsonText = "";
  let current: Record<string, string> | null = null;
  for (let i = jsonStart + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "wirespeed-end") break;
    if (line.startsWith("wirespeed-nic ")) {
      const name = line.slice("wirespeed-nic ".length).trim();
      current = {};
      blocks.set(name, current);
      order.push(name);
    } else if (current) {
      const eq = line.indexOf("=");
      if (eq > 0) current[line.slice(0, eq)] = line.slice(eq + 1);
    } else if (jsonStart !== -1) jsonText += `${line}\n`;
  }

  let ipLinks: IpLink[] = [];
  try {
    const parsed: unknown = JSON.parse(jsonText.trim() || "[]");
    if (Array.isArray(parsed)) ipLinks = parsed as IpLink[];
  } catch {
    // an iproute2 without -j: the /sys blocks still give every NIC, without addresses
  }
  const byName = new Map(ipLinks.filter((l) => typeof l.ifname === "string").map((l) => [l.ifname as string, l]));
  const names = [...order, ...[...byName.keys()].filter((n) => !blocks.has(n))].filter((n) => n !== "lo");

  return names.map((name) => {
    const sys = blocks.get(name) ?? {};
    const ipLink = byName.get(name);
    const speed = intOrNull(sys.speed);
    const duplex = sys.duplex?.trim();
    const operstate = textOrNull(sys.operstate) ?? ipLink?.operstate?.toLowerCase() ?? null;
    const width = intOrNull(sys.pcie_width);
    return {
      name,
      mac: textOrNull(sys.address) ?? ipLink?.address ?? null,
      mtu: intOrNull(sys.mtu) ?? ipLink?.mtu ?? null,
      // The kernel reports -1 (or nothing) when the speed is unknown.
      speedMbps: speed !== null && speed > 0 ? speed : null,
      duplex: duplex === "full" || duplex === "half" ? duplex : null,
      isUp: operstate === null ? null : operstate.toLowerCase() === "up",
      addresses: ipAddrInfoToAddresses(ipLink?.addr_info),
      driver: textOrNull(sys.driver),
      pcieLinkSpeed: textOrNull(sys.pcie_speed),
      pcieLinkWidth: width !== null && width > 0 ? width : null,
      description: null,
    };
  });
}

// The kernel's byte counters of the NIC in $n: two files read by the shell itself (no program to start,
// as the reading sits on the path of a run's start and end).
const LINUX_COUNTERS_SCRIPT = `d=/sys/class/net/$n/statistics
tx= rx=
{ read -r tx < "$d/tx_bytes"; read -r rx < "$d/rx_bytes"; } 2>/dev/null
printf 'tx=%s\\nrx=%s\\n' "$tx" "$rx"`;

/** The `tx=` and `rx=` lines of LINUX_COUNTERS_SCRIPT; null when the NIC has no statistics (no such NIC). */
export function parseLinuxCounters(output: string): NicCounters | null {
  const value = (key: string) => intOrNull(new RegExp(`^${key}=(.*)$`, "m").exec(output)?.[1]);
  const txBytes = value("tx");
  const rxBytes = value("rx");
  return txBytes !== null && rxBytes !== null && txBytes >= 0 && rxBytes >= 0 ? { txBytes, rxBytes } : null;
}

/**
 * Beside a server (its pid in $p): the kernel's TCP sockets in LISTEN (state 0A) on the port, read from
 * /proc/net/tcp and tcp6, and LISTENING_LINE once one of them is among the program's own descriptors,
 * so that another program on the port is never taken for it. Every 10 ms while the program runs, for
 * at most about 2 s: past that (or where a tool is missing) the engine's settle time decides, as
 * without it. The port is a checked number, written in as the kernel prints it (4 hex digits).
 */
function listeningWatch(port: number): string[] {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`not a port: ${port}`);
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return [
    "i=0",
    'while [ "$i" -lt 200 ] && kill -0 "$p"; do',
    `  for s in $(awk '$2 ~ /:${hex}$/ && $4 == "0A" { print $10 }' /proc/net/tcp /proc/net/tcp6); do`,
    `    if ls -l "/proc/$p/fd" | grep -q "socket:\\[$s\\]"; then echo ${LISTENING_LINE}; exit 0; fi`,
    "  done",
    "  sleep 0.01",
    "  i=$((i+1))",
    "done",
  ];
}

/** The server, as any POSIX start, with the watch of its listening socket beside it where its port is given. */
export function linuxServerCommand(input: StartCommandInput): ExecCommand {
  if (input.listenPort === undefined) return posixStartCommand(input);
  const { iperf3Path, args, gated, counters } = input;
  return pidFirstCommand([iperf3Path, ...args], [], gated, counters, listeningWatch(input.listenPort));
}

export const linuxAgent: PlatformAgent = {
  platform: "linux",
  probeAnswer: /^Linux\b/m,
  defaultIperf3Path: "iperf3",
  quote: posixQuote,
  command: posixCommand,
  detectCommands: (iperf3Path = "iperf3") => posixDetectCommands([iperf3Path]),
  parseDetect: (outputs) => posixParseDetect("linux", outputs),
  printsPid: true,
  gatesStart: true,
  serverCommand: linuxServerCommand,
  clientCommand: posixClientCommand,
  stopCommand: posixStopCommand,
  isRunningCommand: posixIsRunningCommand,
  parseIsRunning: posixParseIsRunning,
  programNameCommand: posixProgramNameCommand,
  discoverNicsCommand: () => shScript(DISCOVER_SCRIPT),
  parseNics: parseLinuxNics,
  environment: linuxEnvironment,
  ping: iputilsPing,
  counters: posixCounterReader(LINUX_COUNTERS_SCRIPT, parseLinuxCounters),
};
