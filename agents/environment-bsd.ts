// FreeBSD (TrueNAS CORE) and macOS: the environment of one end of a run, read with one POSIX sh script
// each (the NIC's name is its $1): sysctl, `ifconfig -a` (the BSD format, ifconfig.ts), and pciconf on
// FreeBSD or system_profiler on macOS for the card. Pure: the scripts are constants, parse reads them.
import { emptyEnvironment } from "@/lib/diagnosis/contract";
import {
  colonPairs,
  countOrNull,
  emptyNic,
  emptyPcie,
  equalsPairs,
  firstLine,
  gtsOrNull,
  pciAddress,
  siblingPorts,
  splitSections,
  textOrNull,
  unreadEnvironment,
  widthOrNull,
  type PortOnBus,
} from "./environment";
import { parseIfconfig } from "./ifconfig";
import { shScript } from "./posix";
import type { CommandOutput, EnvironmentReader, HostEnvironment } from "./types";

// `sysctl -n` of each name on its own line, so that one missing name (an older release) leaves the others.
const SYSCTLS = (names: readonly string[]) =>
  `for k in ${names.join(" ")}; do printf '%s=%s\\n' "$k" "$(sysctl -n "$k" 2>/dev/null)"; done`;

const FREEBSD_SYSCTLS = [
  "kern.vm_guest",
  "hw.model",
  "hw.ncpu",
  "net.inet.tcp.cc.algorithm",
  "kern.ipc.maxsockbuf",
  "net.inet.tcp.sendspace",
  "net.inet.tcp.recvspace",
  "net.inet.tcp.sendbuf_max",
  "net.inet.tcp.recvbuf_max",
];

// The driver's sysctl tree is dev.<driver>.<unit> (ix0: dev.ix.0), only for names made of a driver and a unit.
export const FREEBSD_ENVIRONMENT_SCRIPT = `n=$1
echo wirespeed-facts
printf 'truenas=%s\\n' "$(head -n 1 /etc/version 2>/dev/null)"
printf 'userland=%s\\n' "$(freebsd-version -u 2>/dev/null)"
printf 'kernel=%s\\n' "$(uname -r)"
${SYSCTLS(FREEBSD_SYSCTLS)}
case $n in
  *[!a-z0-9]* | '' | [0-9]*) ;;
  *[a-z][0-9]*)
    drv=\${n%%[0-9]*}
    unit=\${n#"$drv"}
    case $unit in *[!0-9]*) ;; *)
      printf 'driver=%s\\n' "$drv"
      for k in %desc iflib.driver_version fw_version; do printf 'dev.%s=%s\\n' "$k" "$(sysctl -n "dev.$drv.$unit.$k" 2>/dev/null)"; done
    esac
    ;;
esac
echo wirespeed-ifconfig
ifconfig -a 2>&1
echo wirespeed-pciconf
pciconf -l 2>&1
echo wirespeed-pciconf-caps
pciconf -lc "$n" 2>&1
echo wirespeed-end`;

const MACOS_SYSCTLS = [
  "kern.hv_vmm_present",
  "machdep.cpu.brand_string",
  "machdep.cpu.features",
  "hw.ncpu",
  "net.inet.tcp.use_newreno",
  "kern.ipc.maxsockbuf",
  "net.inet.tcp.sendspace",
  "net.inet.tcp.recvspace",
  "net.inet.tcp.autosndbufmax",
  "net.inet.tcp.autorcvbufmax",
];

export const MACOS_ENVIRONMENT_SCRIPT = `n=$1
echo wirespeed-facts
printf 'os=%s %s (%s)\\n' "$(sw_vers -productName 2>/dev/null)" "$(sw_vers -productVersion 2>/dev/null)" "$(sw_vers -buildVersion 2>/dev/null)"
printf 'kernel=%s\\n' "$(uname -r)"
${SYSCTLS(MACOS_SYSCTLS)}
echo wirespeed-ifconfig
ifconfig -a 2>&1
echo wirespeed-ethernet
system_profiler SPEthernetDataType 2>&1
echo wirespeed-end`;

/** The block of one interface in `ifconfig -a`: its header line and the indented lines under it. */
function ifconfigBlock(text: string, name: string): string | null {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`${name}: flags=`));
  if (start === -1) return null;
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l));
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

/** "options=8507bb<RXCSUM,TXCSUM,...,TSO4,...,LRO,...>": the enabled capabilities. */
function enabledOptions(block: string): Set<string> | null {
  const match = /^\s*options=[0-9a-f]+<([^>]*)>/im.exec(block);
  return match ? new Set(match[1]!.split(",").map((o) => o.trim().toUpperCase())) : null;
}

/** What both BSDs share: the NIC from `ifconfig -a`, its TSO and LRO from the enabled options. */
function readBsdNic(env: HostEnvironment, ifconfigText: string, nicName: string): boolean {
  const block = ifconfigBlock(ifconfigText, nicName);
  if (block === null) {
    env.missing.push(`NIC: this host has no interface named ${JSON.stringify(nicName)}`);
    return false;
  }
  const parsed = parseIfconfig(block)[0];
  const nic = emptyNic(nicName);
  env.nic = nic;
  nic.mtu = parsed?.mtu ?? null;
  nic.speedMbps = parsed?.speedMbps ?? null;
  nic.duplex = parsed?.duplex ?? null;
  if (nic.speedMbps === null) env.missing.push(`NIC speed: ifconfig shows no active media for ${nicName}`);
  const options = enabledOptions(block);
  if (options) {
    nic.offloads.tso = options.has("TSO4");
    nic.offloads.lro = options.has("LRO");
  } else {
    env.missing.push(`TSO, LRO: ifconfig shows no options for ${nicName}`);
  }
  env.missing.push("GSO, GRO: not BSD interface options");
  return true;
}

/** `pciconf -l`: "ix0@pci0:3:0:0:\tclass=0x020000 ..." → the device name and its address, bus in decimal. */
function pciconfDevices(text: string): { name: string; address: string }[] {
  const devices: { name: string; address: string }[] = [];
  for (const line of text.split("\n")) {
    const match = /^([A-Za-z0-9_]+)@pci(\d+):(\d+):(\d+):(\d+):/.exec(line.trim());
    if (match)
      devices.push({
        name: match[1]!,
        address: pciAddress(Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5])),
      });
  }
  return devices;
}

// kern.vm_guest's words in systemd-detect-virt's.
const VM_GUESTS: Record<string, string> = { none: "none", hv: "microsoft", vbox: "oracle", generic: "vm-other" };

/** Parses the output of FREEBSD_ENVIRONMENT_SCRIPT for the interface `nicName`; never throws. */
export function parseFreebsdEnvironment(output: CommandOutput, nicName: string): HostEnvironment {
  const sections = splitSections(output.stdout);
  if (!sections.has("facts")) return unreadEnvironment("freebsd", output);
  const facts = equalsPairs(sections.get("facts"));
  const env = emptyEnvironment("freebsd");
  const missing = env.missing;

  // TrueNAS CORE names itself in /etc/version ("TrueNAS-13.0-U6.1 (...)"); FreeBSD by its userland.
  const truenas = textOrNull(facts.get("truenas"));
  const userland = textOrNull(facts.get("userland"));
  env.os = truenas ?? (userland ? `FreeBSD ${userland}` : null);
  if (env.os === null) missing.push("OS: neither /etc/version nor freebsd-version answered");
  env.kernel = textOrNull(facts.get("kernel"));

  const guest = facts.get("kern.vm_guest") || null;
  env.virtualization = guest === null ? null : (VM_GUESTS[guest] ?? guest);
  if (guest === null) missing.push("virtualization: kern.vm_guest not readable");
  env.cpu.model = textOrNull(facts.get("hw.model"));
  env.cpu.cores = countOrNull(facts.get("hw.ncpu"));
  missing.push("CPU governor: none on FreeBSD (powerd, if it runs, sets the frequency)");

  readBsdTcp(env, facts, "net.inet.tcp.recvbuf_max", "net.inet.tcp.sendbuf_max");
  env.tcp.congestionControl = textOrNull(facts.get("net.inet.tcp.cc.algorithm"));
  if (env.tcp.congestionControl === null)
    missing.push("TCP congestion control: net.inet.tcp.cc.algorithm not readable");

  if (!readBsdNic(env, sections.get("ifconfig") ?? "", nicName)) return env;
  const nic = env.nic!;
  nic.driver = textOrNull(facts.get("driver"));
  // iflib drivers (ix, igb, ixl...) carry their version in dev.<driver>.<unit>.iflib.driver_version; others in %desc.
  const desc = textOrNull(facts.get("dev.%desc"));
  nic.driverVersion =
    textOrNull(facts.get("dev.iflib.driver_version")) ?? textOrNull(/\bVersion - (\S+)/.exec(desc ?? "")?.[1]);
  nic.firmware = textOrNull(facts.get("dev.fw_version"));
  if (nic.driver === null) missing.push(`driver: ${nicName} is not named after its driver`);
  if (nic.driverVersion === null) missing.push(`driver version: not in the sysctls of ${nicName}`);
  if (nic.firmware === null) missing.push(`firmware: ${nicName} has no fw_version sysctl`);
  missing.push("ring sizes: not read on FreeBSD");

  const devices = pciconfDevices(sections.get("pciconf") ?? "");
  const own = devices.find((d) => d.name === nicName);
  const caps = sections.get("pciconf-caps") ?? "";
  // "link x4(x8) speed 5.0(8.0) ASPM ...": now (what the card can do), of the device the answer names.
  const link = firstLine(caps).startsWith(`${nicName}@`)
    ? /\blink x(\d+)\(x(\d+)\) speed ([\d.]+)\(([\d.]+)\)/.exec(caps)
    : null;
  if (own) {
    nic.pcie = link
      ? {
          address: own.address,
          speedGTs: gtsOrNull(link[3]),
          width: widthOrNull(link[1]),
          maxSpeedGTs: gtsOrNull(link[4]),
          maxWidth: widthOrNull(link[2]),
        }
      : emptyPcie(own.address);
    if (!link)
      missing.push(`PCIe link: pciconf -lc ${nicName} shows no PCI Express link (${firstLine(caps) || "no output"})`);
    const speeds = new Map(parseIfconfig(sections.get("ifconfig") ?? "").map((n) => [n.name, n.speedMbps]));
    const ports: PortOnBus[] = devices.map((d) => ({
      name: d.name,
      address: d.address,
      speedMbps: speeds.get(d.name) ?? null,
    }));
    nic.siblingPorts = siblingPorts(nicName, own.address, ports);
  } else {
    missing.push(
      `PCIe link: pciconf lists no device named ${nicName} (${firstLine(sections.get("pciconf")) || "no output"})`,
    );
  }
  return env;
}

/** Socket buffers of both BSDs: kern.ipc.maxsockbuf caps every buffer; auto-tuning grows from *space up to its own maximum. */
function readBsdTcp(env: HostEnvironment, facts: Map<string, string>, recvMax: string, sendMax: string) {
  const maxsockbuf = countOrNull(facts.get("kern.ipc.maxsockbuf"));
  env.tcp.rmemMax = maxsockbuf;
  env.tcp.wmemMax = maxsockbuf;
  const recvspace = countOrNull(facts.get("net.inet.tcp.recvspace"));
  const sendspace = countOrNull(facts.get("net.inet.tcp.sendspace"));
  const recvbufMax = countOrNull(facts.get(recvMax));
  const sendbufMax = countOrNull(facts.get(sendMax));
  // Linux's min, default, max: a BSD buffer starts at *space and never shrinks below it.
  env.tcp.tcpRmem = recvspace !== null && recvbufMax !== null ? [recvspace, recvspace, recvbufMax] : null;
  env.tcp.tcpWmem = sendspace !== null && sendbufMax !== null ? [sendspace, sendspace, sendbufMax] : null;
  if (maxsockbuf === null) env.missing.push("socket buffer limit: kern.ipc.maxsockbuf not readable");
  if (env.tcp.tcpRmem === null || env.tcp.tcpWmem === null)
    env.missing.push(`TCP buffer auto-tuning: ${recvMax}, ${sendMax} or *space not readable`);
}

/** system_profiler SPEthernetDataType: the block whose "BSD name" is the NIC, as "key: value" pairs. */
function ethernetCard(text: string, nicName: string): Map<string, string> | null {
  const blocks = text.split(/\n\s*\n/);
  for (const block of blocks) {
    const pairs = colonPairs(block);
    const bsdName = [...pairs.entries()].find(([key]) => /^bsd name$/i.test(key))?.[1];
    if (bsdName === nicName) return pairs;
  }
  return null;
}

/** Parses the output of MACOS_ENVIRONMENT_SCRIPT for the interface `nicName`; never throws. */
export function parseMacosEnvironment(output: CommandOutput, nicName: string): HostEnvironment {
  const sections = splitSections(output.stdout);
  if (!sections.has("facts")) return unreadEnvironment("macos", output);
  const facts = equalsPairs(sections.get("facts"));
  const env = emptyEnvironment("macos");
  const missing = env.missing;

  // "macOS 14.4.1 (23E224)"
  const os = facts.get("os") ?? "";
  env.os = /\d/.test(os) ? os.replace(/\s*\(\)$/, "") : null;
  if (env.os === null) missing.push("OS: sw_vers did not answer");
  env.kernel = textOrNull(facts.get("kernel"));

  // kern.hv_vmm_present is 1 in a VM (macOS 11 and later); Intel CPUs also list VMM in their features.
  const vmm = countOrNull(facts.get("kern.hv_vmm_present"));
  const features = facts.get("machdep.cpu.features") ?? "";
  if (vmm !== null) env.virtualization = vmm === 1 ? "vm-other" : "none";
  else if (features !== "") env.virtualization = /\bVMM\b/.test(features) ? "vm-other" : "none";
  else missing.push("virtualization: neither kern.hv_vmm_present nor machdep.cpu.features readable");
  env.cpu.model = textOrNull(facts.get("machdep.cpu.brand_string"));
  env.cpu.cores = countOrNull(facts.get("hw.ncpu"));
  missing.push("CPU governor: none on macOS (the system sets the frequency)");

  // CUBIC unless net.inet.tcp.use_newreno is set; macOS has no other choice of algorithm.
  const newreno = countOrNull(facts.get("net.inet.tcp.use_newreno"));
  env.tcp.congestionControl = newreno === null ? null : newreno === 0 ? "cubic" : "newreno";
  if (newreno === null) missing.push("TCP congestion control: net.inet.tcp.use_newreno not readable");
  readBsdTcp(env, facts, "net.inet.tcp.autorcvbufmax", "net.inet.tcp.autosndbufmax");

  if (!readBsdNic(env, sections.get("ifconfig") ?? "", nicName)) return env;
  const nic = env.nic!;
  missing.push("ring sizes: not read on macOS");
  const card = ethernetCard(sections.get("ethernet") ?? "", nicName);
  if (!card) {
    missing.push(`driver, firmware, PCIe link: system_profiler lists no Ethernet card for ${nicName}`);
    return env;
  }
  nic.driver = textOrNull(card.get("Kext name")?.replace(/\.kext$/, "") ?? card.get("Driver"));
  nic.driverVersion = textOrNull(card.get("Version"));
  if (nic.driver === null) missing.push("driver: system_profiler names no kext");
  missing.push("firmware: not reported by macOS");
  const width = widthOrNull(card.get("Link Width"));
  const speed = gtsOrNull(card.get("Link Speed"));
  if (width !== null || speed !== null) {
    nic.pcie = { ...emptyPcie(null), width, speedGTs: speed };
    missing.push("PCIe maximum: not reported by macOS");
    if (speed === null) missing.push("PCIe link speed: not reported by macOS");
  } else {
    missing.push(`PCIe link: system_profiler gives none for ${nicName}`);
  }
  return env;
}

export const freebsdEnvironment: EnvironmentReader = {
  command: (nicName) => shScript(FREEBSD_ENVIRONMENT_SCRIPT, [nicName]),
  parse: parseFreebsdEnvironment,
};

export const macosEnvironment: EnvironmentReader = {
  command: (nicName) => shScript(MACOS_ENVIRONMENT_SCRIPT, [nicName]),
  parse: parseMacosEnvironment,
};
