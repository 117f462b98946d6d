// ESXi: BusyBox ash (POSIX quoting), iperf3 under the vSAN directory, NICs and firewall through esxcli.
import {
  posixCommand,
  posixDetectCommands,
  posixIsRunningCommand,
  posixParseDetect,
  posixParseIsRunning,
  posixQuote,
  posixStartCommand,
  posixStopCommand,
  pidFirstCommand,
  shScript,
} from "./posix";
import type {
  CommandOutput,
  DiscoveredNic,
  ExecCommand,
  FirewallControl,
  PlatformAgent,
  StartCommandInput,
} from "./types";
import { esxiEnvironmentReader } from "./environment-esxi";
import { busyboxPing } from "./ping";
import { netmaskToPrefix } from "./ifconfig";
import { ESXI_IPERF3_PATH } from "@/lib/platforms";

export { ESXI_IPERF3_PATH };

// The bundled iperf3 refuses to listen ("Operation not permitted") unless it runs from a copy; the copy
// lives on a RAM disk and is gone after a reboot, so it is made on demand, then run like every start.
const COPY_PRELUDE = [
  'c="$1.copy"',
  'if [ ! -x "$c" ]; then cp "$1" "$c" || exit 126; fi',
  "shift",
  'set -- "$c" "$@"',
];

function esxiServerCommand({ iperf3Path, args, gated }: StartCommandInput): ExecCommand {
  return pidFirstCommand([iperf3Path, ...args], COPY_PRELUDE, gated);
}

/**
 * Splits esxcli's table output into rows keyed by header. The dashes line under the header gives each
 * column's start; a column runs to the next one's start, and the last one to the end of the line.
 */
export function parseEsxcliTable(output: string): Record<string, string>[] {
  const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const dashIndex = lines.findIndex((l) => /^-+(\s+-+)*\s*$/.test(l) && l.trim() !== "");
  if (dashIndex < 1) return [];
  const header = lines[dashIndex - 1]!;
  const starts: number[] = [];
  const dashLine = lines[dashIndex]!;
  for (let i = 0; i < dashLine.length; i++)
    if (dashLine[i] === "-" && (i === 0 || dashLine[i - 1] === " ")) starts.push(i);
  const cut = (line: string, k: number) =>
    line.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : undefined).trim();
  const names = starts.map((_, k) => cut(header, k));
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(dashIndex + 1)) {
    if (line.trim() === "") continue;
    rows.push(Object.fromEntries(names.map((name, k) => [name, cut(line, k)])));
  }
  return rows;
}

/** esxcli's "key: value" blocks (`esxcli network ip interface list`): one record per unindented name line. */
export function parseEsxcliBlocks(output: string): Record<string, string>[] {
  const records: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const raw of output.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    if (!/^\s/.test(line)) {
      current = {};
      records.push(current);
      continue;
    }
    const colon = line.indexOf(":");
    if (current && colon > 0) current[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return records;
}

// Three esxcli calls, one round trip; markers separate their outputs.
const DISCOVER_SCRIPT = [
  "echo wirespeed-nic-list",
  "esxcli network nic list",
  "echo wirespeed-ipv4",
  "esxcli network ip interface ipv4 get",
  "echo wirespeed-interfaces",
  "esxcli network ip interface list",
  "echo wirespeed-end",
].join("\n");

function sections(output: string, markers: readonly string[]): Record<string, string> {
  const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const out: Record<string, string> = {};
  let current: string | null = null;
  for (const line of lines) {
    if (markers.includes(line) || line === "wirespeed-end") {
      current = line === "wirespeed-end" ? null : line;
      if (current) out[current] = "";
    } else if (current) out[current] += `${line}\n`;
  }
  return out;
}

const int = (text: string | undefined): number | null => (text && /^\d+$/.test(text) ? Number(text) : null);

/**
 * Physical uplinks (vmnicN: speed, duplex, MTU, driver, no address) and VMkernel interfaces
 * (vmkN: the addresses iperf3 binds to, MTU and MAC from `interface list`).
 */
export function parseEsxiNics(output: string): DiscoveredNic[] {
  const parts = sections(output, ["wirespeed-nic-list", "wirespeed-ipv4", "wirespeed-interfaces"]);
  const nics: DiscoveredNic[] = [];
  for (const row of parseEsxcliTable(parts["wirespeed-nic-list"] ?? "")) {
    if (!row.Name) continue;
    const speed = int(row.Speed);
    const duplex = row.Duplex?.toLowerCase();
    nics.push({
      name: row.Name,
      mac: row["MAC Address"]?.toLowerCase() || null,
      mtu: int(row.MTU),
      // A link that is down reports 0 Mb/s.
      speedMbps: speed !== null && speed > 0 ? speed : null,
      duplex: row["Link Status"] === "Up" && (duplex === "full" || duplex === "half") ? duplex : null,
      isUp: row["Link Status"] ? row["Link Status"] === "Up" : null,
      addresses: [],
      driver: row.Driver || null,
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: row.Description || null,
    });
  }
  const interfaces = new Map(parseEsxcliBlocks(parts["wirespeed-interfaces"] ?? "").map((r) => [r.Name, r]));
  for (const row of parseEsxcliTable(parts["wirespeed-ipv4"] ?? "")) {
    if (!row.Name) continue;
    const info = interfaces.get(row.Name);
    const address = row["IPv4 Address"];
    const prefix = row["IPv4 Netmask"] ? netmaskToPrefix(row["IPv4 Netmask"]) : null;
    nics.push({
      name: row.Name,
      mac: info?.["MAC Address"]?.toLowerCase() || null,
      mtu: int(info?.MTU),
      speedMbps: null,
      duplex: null,
      isUp: info?.Enabled ? info.Enabled === "true" : null,
      addresses: address && address !== "0.0.0.0" ? [{ address, prefixLength: prefix ?? 32, family: "ipv4" }] : [],
      driver: null,
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: info?.Portgroup ? `VMkernel on port group ${info.Portgroup}` : "VMkernel interface",
    });
  }
  return nics;
}

/** `esxcli network firewall get` → whether the firewall is on. */
export function parseEsxiFirewallState(output: CommandOutput): { enabled: boolean } {
  const match = /^\s*Enabled:\s*(true|false)\s*$/im.exec(output.stdout);
  if (!match) {
    throw new Error(
      `unexpected \`esxcli network firewall get\` output: ${(output.stdout || output.stderr).trim().slice(0, 200)}`,
    );
  }
  return { enabled: match[1]!.toLowerCase() === "true" };
}

/** Read the state before a test, open it, and set it back to what was read afterwards, even when the test failed. */
export const esxiFirewall: FirewallControl = {
  stateCommand: () => posixCommand(["esxcli", "network", "firewall", "get"]),
  parseState: parseEsxiFirewallState,
  setCommand: (enabled) =>
    posixCommand(["esxcli", "network", "firewall", "set", "--enabled", enabled ? "true" : "false"]),
};

export const esxiAgent: PlatformAgent = {
  platform: "esxi",
  probeAnswer: /^VMkernel\b/m,
  defaultIperf3Path: ESXI_IPERF3_PATH,
  quote: posixQuote,
  command: posixCommand,
  // The vSAN directory is not on PATH: the bundled binary is the default.
  detectCommands: (iperf3Path = ESXI_IPERF3_PATH) => posixDetectCommands([iperf3Path]),
  parseDetect: (outputs) => posixParseDetect("esxi", outputs),
  printsPid: true,
  gatesStart: true,
  serverCommand: esxiServerCommand,
  // The client may run from the original: only listening is refused.
  clientCommand: posixStartCommand,
  stopCommand: posixStopCommand,
  isRunningCommand: posixIsRunningCommand,
  parseIsRunning: posixParseIsRunning,
  // BusyBox ps has no `-p`: no programNameCommand, a recorded PID is trusted.
  discoverNicsCommand: () => shScript(DISCOVER_SCRIPT),
  parseNics: parseEsxiNics,
  firewall: esxiFirewall,
  environment: esxiEnvironmentReader({ table: parseEsxcliTable, blocks: parseEsxcliBlocks }),
  ping: busyboxPing,
};
