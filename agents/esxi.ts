// ESXi: BusyBox ash (POSIX quoting), iperf3 under the vSAN directory, NICs and firewall through esxcli.
import {
  posixCommand,
  posixCounterReader,
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
  NicCounters,
  PlatformAgent,
  StartCommandInput,
} from "./types";
import { esxiEnvironmentReader, PICK_AWK, UPLINK_AWK } from "./environment-esxi";
import { busyboxPing } from "./ping";
import { netmaskToPrefix } from "./ifconfig";
import { splitSections } from "./environment";
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

function esxiServerCommand({ iperf3Path, args, gated, counters }: StartCommandInput): ExecCommand {
  return pidFirstCommand([iperf3Path, ...args], COPY_PRELUDE, gated, counters);
}

// A vmk has no counters of its own that esxcli shows: those of the uplink its traffic leaves by, found
// as the environment reader finds it (port set, then that vSwitch's first uplink). A vmnic is its own.
const ESXI_COUNTERS_SCRIPT = `u=$n
case $n in
  vmnic*) ;;
  *)
    vs=$(esxcli network ip interface list 2>&1 | N="$n" K=Portset awk '${PICK_AWK}')
    u=
    [ -n "$vs" ] && u=$(esxcli network vswitch standard list 2>&1 | V="$vs" awk '${UPLINK_AWK}')
    ;;
esac
printf 'uplink=%s\\n' "$u"
[ -z "$u" ] || esxcli network nic stats get -n "$u"`;

/** `esxcli network nic stats get`: "Bytes sent" and "Bytes received" of the uplink named on the `uplink=` line. */
export function parseEsxiCounters(output: string): NicCounters | null {
  const value = (key: string) => {
    const text = new RegExp(`^\\s*${key}:\\s*(\\d+)\\s*$`, "m").exec(output)?.[1];
    return text === undefined ? null : Number(text);
  };
  const txBytes = value("Bytes sent");
  const rxBytes = value("Bytes received");
  return txBytes !== null && rxBytes !== null ? { txBytes, rxBytes } : null;
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

// The esxcli calls of discovery, one round trip; markers separate their outputs. The switches and port
// groups lead a VMkernel interface to the physical uplink whose speed it has.
const DISCOVER_SCRIPT = [
  "echo wirespeed-nic-list",
  "esxcli network nic list",
  "echo wirespeed-ipv4",
  "esxcli network ip interface ipv4 get",
  "echo wirespeed-interfaces",
  "esxcli network ip interface list",
  "echo wirespeed-vswitches",
  "esxcli network vswitch standard list",
  "echo wirespeed-portgroups",
  "esxcli network vswitch standard portgroup list",
  "echo wirespeed-dvs",
  "esxcli network vswitch dvs vmware list",
  "echo wirespeed-end",
].join("\n");

const int = (text: string | undefined): number | null => (text && /^\d+$/.test(text) ? Number(text) : null);

/** A value esxcli fills in, or null for the "N/A" (or nothing) it prints where a field does not apply. */
const given = (text: string | undefined): string | null => (text && text !== "N/A" ? text : null);

/** Each switch's uplinks, in its `Uplinks: vmnic1, vmnic0` order, by the switch's name. */
function switchUplinks(output: string): Map<string, string[]> {
  const uplinks = new Map<string, string[]>();
  for (const block of parseEsxcliBlocks(output)) {
    if (!block.Name) continue;
    const names = (block.Uplinks ?? "").split(",");
    uplinks.set(
      block.Name,
      names.map((name) => name.trim()).filter((name) => name !== ""),
    );
  }
  return uplinks;
}

/** What discovery read of the host's switches: enough to follow a VMkernel interface to its uplink. */
type Switches = {
  /** port group → its standard vSwitch (`vswitch standard portgroup list`) */
  portgroups: Map<string, string>;
  /** standard vSwitch → uplinks (`vswitch standard list`) */
  standard: Map<string, string[]>;
  /** distributed switch → this host's uplinks on it (`vswitch dvs vmware list`) */
  distributed: Map<string, string[]>;
};

/**
 * Where a VMkernel interface's traffic leaves the host: its port group's standard vSwitch, or its
 * distributed switch where `ip interface list` names a VDS instead of a port group, and that switch's
 * first uplink whose link is up. `uplink` is null where a step of the chain is missing or every uplink is
 * down; `via` says how far the chain went, for the NIC's description.
 */
function vmkUplink(
  info: Record<string, string> | undefined,
  switches: Switches,
  vmnics: Map<string, DiscoveredNic>,
): { via: string; uplink: DiscoveredNic | null } {
  const portgroup = given(info?.Portgroup);
  const vds = given(info?.["VDS Name"]);
  let via = "VMkernel interface";
  let uplinks: string[] | undefined;
  if (portgroup) {
    const vswitch = switches.portgroups.get(portgroup);
    via = `VMkernel on port group ${portgroup}${vswitch ? ` (${vswitch})` : ""}`;
    uplinks = vswitch ? switches.standard.get(vswitch) : undefined;
  } else if (vds) {
    const port = given(info?.["VDS Port"]);
    via = `VMkernel on distributed switch ${vds}${port ? ` (port ${port})` : ""}`;
    uplinks = switches.distributed.get(vds);
  }
  const uplink = uplinks?.map((name) => vmnics.get(name)).find((nic) => nic?.isUp === true) ?? null;
  return { via, uplink };
}

/**
 * Physical uplinks (vmnicN: speed, duplex, MTU, driver, no address) and VMkernel interfaces (vmkN: the
 * addresses iperf3 binds to, MTU and MAC from `interface list`). A vmk has no speed of its own: it takes
 * the speed, duplex and driver of the active uplink of its switch, and its description names that uplink;
 * where the chain cannot be followed, its speed stays null for the user to type.
 */
export function parseEsxiNics(output: string): DiscoveredNic[] {
  const parts = splitSections(output);
  const vmnics = new Map<string, DiscoveredNic>();
  for (const row of parseEsxcliTable(parts.get("nic-list") ?? "")) {
    if (!row.Name) continue;
    const speed = int(row.Speed);
    const duplex = row.Duplex?.toLowerCase();
    vmnics.set(row.Name, {
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
  const nics = [...vmnics.values()];
  const switches: Switches = {
    portgroups: new Map(
      parseEsxcliTable(parts.get("portgroups") ?? "")
        .filter((row) => row.Name && row["Virtual Switch"])
        .map((row) => [row.Name!, row["Virtual Switch"]!]),
    ),
    standard: switchUplinks(parts.get("vswitches") ?? ""),
    distributed: switchUplinks(parts.get("dvs") ?? ""),
  };
  const interfaces = new Map(parseEsxcliBlocks(parts.get("interfaces") ?? "").map((r) => [r.Name, r]));
  for (const row of parseEsxcliTable(parts.get("ipv4") ?? "")) {
    if (!row.Name) continue;
    const info = interfaces.get(row.Name);
    const address = row["IPv4 Address"];
    const prefix = row["IPv4 Netmask"] ? netmaskToPrefix(row["IPv4 Netmask"]) : null;
    const { via, uplink } = vmkUplink(info, switches, vmnics);
    nics.push({
      name: row.Name,
      mac: info?.["MAC Address"]?.toLowerCase() || null,
      mtu: int(info?.MTU),
      speedMbps: uplink?.speedMbps ?? null,
      duplex: uplink?.duplex ?? null,
      isUp: info?.Enabled ? info.Enabled === "true" : null,
      addresses: address && address !== "0.0.0.0" ? [{ address, prefixLength: prefix ?? 32, family: "ipv4" }] : [],
      driver: uplink?.driver ?? null,
      // esxcli reports no PCIe link, for the uplink either.
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: uplink ? `${via}, uplink ${uplink.name}${uplink.description ? `: ${uplink.description}` : ""}` : via,
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
  counters: posixCounterReader(ESXI_COUNTERS_SCRIPT, parseEsxiCounters),
};
