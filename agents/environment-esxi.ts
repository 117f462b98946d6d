// ESXi: the environment of one end of a run, read with one BusyBox ash script of esxcli calls (the NIC's
// name is its $1). The address of a link is a VMkernel interface (vmkN); the hardware behind it is the
// first uplink of its standard vSwitch, so the script follows vmk → port set → uplink vmnic and reads
// that one. Pure: the script is a constant, parse reads its output.
import { emptyEnvironment } from "@/lib/diagnosis/contract";
import {
  colonPairs,
  countOrNull,
  duplexOrNull,
  emptyNic,
  emptyPcie,
  equalsPairs,
  firstLine,
  hypervisorFromModel,
  isPciAddress,
  ringsOrNull,
  siblingPorts,
  splitSections,
  textOrNull,
  unreadEnvironment,
} from "./environment";
import type { parseEsxcliBlocks, parseEsxcliTable } from "./esxi";
import { shScript } from "./posix";
import type { CommandOutput, EnvironmentReader, HostEnvironment } from "./types";

// `pick KEY`: the value of "KEY: ..." in the block of interface $n of `ip interface list`. Names reach awk
// through the environment (ENVIRON), never through its program text or -v (which reads escapes).
export const PICK_AWK =
  `/^[^ \\t]/ { cur = $1; next } cur == ENVIRON["N"] { line = $0; sub(/^[ \\t]+/, "", line); ` +
  `if (index(line, ENVIRON["K"] ": ") == 1) { print substr(line, length(ENVIRON["K"]) + 3); exit } }`;
// The first uplink of vSwitch $vs in `vswitch standard list`, named to awk the same way.
export const UPLINK_AWK =
  `/^[^ \\t]/ { cur = $1; next } cur == ENVIRON["V"] && $1 == "Uplinks:" ` +
  `{ sub(/^[ \\t]*Uplinks:[ \\t]*/, ""); split($0, a, ","); print a[1]; exit }`;

export const ESXI_ENVIRONMENT_SCRIPT = `n=$1
echo wirespeed-vmware
vmware -vl 2>&1
echo wirespeed-kernel
uname -r 2>&1
echo wirespeed-platform
esxcli hardware platform get 2>&1
echo wirespeed-cpu
esxcli hardware cpu global get 2>&1
echo wirespeed-cpu-brand
esxcli hardware cpu list 2>&1 | grep -m 1 'Brand:'
ifs=$(esxcli network ip interface list 2>&1)
echo wirespeed-interfaces
printf '%s\\n' "$ifs"
echo wirespeed-nic-list
esxcli network nic list 2>&1
pick() { printf '%s\\n' "$ifs" | N="$n" K="$1" awk '${PICK_AWK}'; }
u=
stack=defaultTcpipStack
case $n in
  vmnic*) u=$n ;;
  *)
    vs=$(pick Portset)
    s=$(pick "Netstack Instance")
    [ -n "$s" ] && stack=$s
    vsl=$(esxcli network vswitch standard list 2>&1)
    echo wirespeed-vswitches
    printf '%s\\n' "$vsl"
    if [ -n "$vs" ]; then
      u=$(printf '%s\\n' "$vsl" | V="$vs" awk '${UPLINK_AWK}')
    fi
    ;;
esac
echo wirespeed-uplink
printf 'uplink=%s\\nnetstack=%s\\n' "$u" "$stack"
if [ -n "$u" ]; then
  echo wirespeed-nic-get
  esxcli network nic get -n "$u" 2>&1
  echo wirespeed-ring-current
  esxcli network nic ring current get -n "$u" 2>&1
  echo wirespeed-ring-preset
  esxcli network nic ring preset get -n "$u" 2>&1
  echo wirespeed-tso
  esxcli network nic tso get -n "$u" 2>&1
fi
echo wirespeed-netstack
esxcli network ip netstack get -N "$stack" 2>&1
echo wirespeed-lro
esxcli system settings advanced list -o /Net/TcpipDefLROEnabled 2>&1
echo wirespeed-end`;

// esxcli prints "Error: ..." (or the shell "not found") instead of an answer it cannot give.
function esxcliProblem(text: string | undefined): string | null {
  const line = firstLine(text);
  return line === "" || /^error\b|not found|not supported|unknown command/i.test(line) ? line || "no output" : null;
}

/** esxi.ts's readers of esxcli's tables and blocks. */
export type EsxcliParsers = { table: typeof parseEsxcliTable; blocks: typeof parseEsxcliBlocks };

/** Parses the output of ESXI_ENVIRONMENT_SCRIPT for the interface `nicName` (vmkN or vmnicN); never throws. */
export function parseEsxiEnvironment(output: CommandOutput, nicName: string, esxcli: EsxcliParsers): HostEnvironment {
  const sections = splitSections(output.stdout);
  if (!sections.has("vmware") && !sections.has("interfaces")) return unreadEnvironment("esxi", output);
  const env = emptyEnvironment("esxi");
  const missing = env.missing;

  // `vmware -vl`: "VMware ESXi 8.0.2 build-22380479", then "VMware ESXi 8.0 Update 2".
  const version = firstLine(sections.get("vmware"));
  env.os = /^VMware/i.test(version) ? version : null;
  if (env.os === null) missing.push(`OS: vmware -vl answered ${JSON.stringify(version || "nothing")}`);
  env.kernel = textOrNull(firstLine(sections.get("kernel")));

  const platform = colonPairs(sections.get("platform"));
  if (platform.has("Product Name") || platform.has("Vendor Name")) {
    // ESXi inside a VM (nested) runs on "VMware Virtual Platform" (or "VMware7,1"), made by "VMware, Inc.".
    env.virtualization = hypervisorFromModel(platform.get("Vendor Name"), platform.get("Product Name")) ?? "none";
  } else {
    missing.push(
      `virtualization: esxcli hardware platform get answered ${JSON.stringify(firstLine(sections.get("platform")) || "nothing")}`,
    );
  }

  const cpu = colonPairs(sections.get("cpu"));
  env.cpu.cores = countOrNull(cpu.get("CPU Threads")) ?? countOrNull(cpu.get("CPU Cores"));
  env.cpu.model = textOrNull(colonPairs(sections.get("cpu-brand")).get("Brand"));
  if (env.cpu.cores === null) missing.push("CPU cores: esxcli hardware cpu global get did not say");
  if (env.cpu.model === null) missing.push("CPU model: esxcli hardware cpu list did not say");
  missing.push("CPU governor: not read on ESXi (its power policy)");

  const netstack = colonPairs(sections.get("netstack"));
  const algorithm = [...netstack.entries()].find(([key]) => /congestion control/i.test(key))?.[1];
  env.tcp.congestionControl = textOrNull(algorithm);
  if (env.tcp.congestionControl === null)
    missing.push(
      `TCP congestion control: ${esxcliProblem(sections.get("netstack")) ?? "not in esxcli network ip netstack get"}`,
    );
  missing.push("socket buffer limits: not exposed by esxcli");

  const interfaces = esxcli.blocks(sections.get("interfaces") ?? "");
  const vmk = interfaces.find((block) => block.Name === nicName);
  const nicRows = esxcli.table(sections.get("nic-list") ?? "");
  const uplink = textOrNull(equalsPairs(sections.get("uplink")).get("uplink"));
  const row = nicRows.find((r) => r.Name === uplink);
  if (!vmk && !row) {
    missing.push(`NIC: this host has no VMkernel interface or uplink named ${JSON.stringify(nicName)}`);
    return env;
  }

  const nic = emptyNic(nicName);
  env.nic = nic;
  nic.mtu = countOrNull(vmk?.MTU) ?? countOrNull(row?.MTU);
  if (!row) {
    // Distributed switches (VDS) and NSX hold their uplinks elsewhere; a vSwitch may have none.
    const why =
      vmk?.["VDS Name"] && vmk["VDS Name"] !== "N/A"
        ? `${nicName} is on distributed switch ${vmk["VDS Name"]}, whose uplinks are not read`
        : `${nicName}'s port set ${vmk?.Portset || "(none)"} has no uplink`;
    missing.push(`uplink (driver, firmware, speed, PCIe, offloads, ring sizes): ${why}`);
    return env;
  }

  // A link that is down shows 0 Mb/s.
  const speed = countOrNull(row.Speed);
  nic.speedMbps = speed !== null && speed > 0 ? speed : null;
  nic.duplex = row["Link Status"] === "Up" ? duplexOrNull(row.Duplex) : null;
  if (nic.speedMbps === null)
    missing.push(`NIC speed: uplink ${row.Name} is ${row["Link Status"] === "Up" ? "up without a speed" : "down"}`);
  const address = isPciAddress(row["PCI Device"]) ? row["PCI Device"]! : null;
  nic.pcie = emptyPcie(address);
  missing.push("PCIe link: not reported on ESXi");
  nic.siblingPorts = siblingPorts(
    row.Name!,
    address,
    nicRows.map((r) => {
      const s = countOrNull(r.Speed);
      return { name: r.Name ?? "", address: r["PCI Device"] ?? null, speedMbps: s !== null && s > 0 ? s : null };
    }),
  );

  const info = colonPairs(sections.get("nic-get"));
  nic.driver = textOrNull(info.get("Driver")) ?? textOrNull(row.Driver);
  nic.driverVersion = textOrNull(info.get("Version"));
  nic.firmware = textOrNull(info.get("Firmware Version"));
  const infoProblem = esxcliProblem(sections.get("nic-get"));
  if (nic.driverVersion === null)
    missing.push(`driver version: ${infoProblem ?? `esxcli network nic get -n ${row.Name} did not say`}`);
  if (nic.firmware === null) missing.push(`firmware: ${infoProblem ?? `${nic.driver ?? "the driver"} reports none`}`);

  const tso = esxcli
    .table(sections.get("tso") ?? "")
    .find((r) => r.NIC === row.Name)
    ?.Value?.toLowerCase();
  nic.offloads.tso = tso === "on" ? true : tso === "off" ? false : null;
  // LRO of the VMkernel's own TCP/IP stack, which receives the traffic of a vmk.
  const lro = countOrNull(colonPairs(sections.get("lro")).get("Int Value"));
  nic.offloads.lro = lro === null ? null : lro !== 0;
  if (nic.offloads.tso === null)
    missing.push(`TSO: ${esxcliProblem(sections.get("tso")) ?? "not listed by esxcli network nic tso get"}`);
  if (nic.offloads.lro === null)
    missing.push(`LRO: ${esxcliProblem(sections.get("lro")) ?? "/Net/TcpipDefLROEnabled not listed"}`);
  missing.push("GSO, GRO: not ESXi settings");

  const current = colonPairs(sections.get("ring-current"));
  const preset = colonPairs(sections.get("ring-preset"));
  nic.rings = ringsOrNull({
    rx: countOrNull(current.get("RX")),
    tx: countOrNull(current.get("TX")),
    rxMax: countOrNull(preset.get("Max RX")),
    txMax: countOrNull(preset.get("Max TX")),
  });
  if (nic.rings === null)
    missing.push(
      `ring sizes: ${esxcliProblem(sections.get("ring-current")) ?? `${nic.driver ?? "the driver"} does not report them`}`,
    );
  return env;
}

/**
 * The ESXi reader, given esxi.ts's esxcli parsers: esxi.ts holds this reader in its agent, so importing
 * them from there would make an import cycle.
 */
export function esxiEnvironmentReader(esxcli: EsxcliParsers): EnvironmentReader {
  return {
    command: (nicName) => shScript(ESXI_ENVIRONMENT_SCRIPT, [nicName]),
    parse: (output, nicName) => parseEsxiEnvironment(output, nicName, esxcli),
  };
}
