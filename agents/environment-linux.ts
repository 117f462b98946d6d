// Linux: the environment of one end of a run, read with one POSIX sh script (the NIC's name is its $1):
// /etc/os-release, uname, systemd-detect-virt, /proc/cpuinfo and cpufreq, /proc/sys/net, /sys/class/net,
// and ethtool -i/-k/-g where ethtool is installed. Pure: the script is a constant, parse reads its output.
import { emptyEnvironment } from "@/lib/diagnosis/contract";
import {
  colonPairs,
  countOrNull,
  duplexOrNull,
  emptyNic,
  emptyPcie,
  equalsPairs,
  firstLine,
  gtsOrNull,
  hypervisorFromModel,
  isPciAddress,
  ringsOrNull,
  siblingPorts,
  splitSections,
  textOrNull,
  tripleOrNull,
  unreadEnvironment,
  widthOrNull,
  type PortOnBus,
} from "./environment";
import { shScript } from "./posix";
import type { CommandOutput, EnvironmentReader, HostEnvironment } from "./types";

// ethtool and sysctl live in /sbin on many distributions, which is not on a user's PATH. Names that are
// not an interface of /sys/class/net ("", ".", "..", anything with "/") read nothing of the NIC.
// `readlink -f` of a missing path still prints one, so `device` is tested first.
export const LINUX_ENVIRONMENT_SCRIPT = `PATH="$PATH:/usr/sbin:/sbin"
n=$1
echo wirespeed-facts
printf 'os=%s\\n' "$(cat /etc/os-release /usr/lib/os-release 2>/dev/null | sed -n 's/^PRETTY_NAME=//p' | head -n 1)"
printf 'kernel=%s\\n' "$(uname -r)"
if command -v systemd-detect-virt >/dev/null 2>&1; then printf 'virt=%s\\n' "$(systemd-detect-virt 2>/dev/null)"; fi
grep -qw hypervisor /proc/cpuinfo 2>/dev/null && echo cpu_hypervisor=yes
printf 'dmi_vendor=%s\\n' "$(cat /sys/class/dmi/id/sys_vendor 2>/dev/null)"
printf 'dmi_product=%s\\n' "$(cat /sys/class/dmi/id/product_name 2>/dev/null)"
printf 'cpu_model=%s\\n' "$(sed -n -e 's/^model name[[:space:]]*: *//p' -e 's/^Model[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
printf 'cpu_cores=%s\\n' "$(getconf _NPROCESSORS_ONLN 2>/dev/null || grep -c '^processor' /proc/cpuinfo)"
printf 'cpu_governor=%s\\n' "$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null)"
for k in core/rmem_max core/wmem_max ipv4/tcp_rmem ipv4/tcp_wmem ipv4/tcp_congestion_control; do
  printf '%s=%s\\n' "$k" "$(cat "/proc/sys/net/$k" 2>/dev/null)"
done
d=/sys/class/net/$n
case $n in ''|.|..|*/*) d= ;; esac
if [ -n "$d" ] && [ -d "$d" ]; then
  echo nic=yes
  for f in mtu speed duplex; do printf 'nic_%s=%s\\n' "$f" "$(cat "$d/$f" 2>/dev/null)"; done
  if [ -e "$d/device" ]; then
    dev=$(readlink -f "$d/device")
    printf 'nic_device=%s\\n' "\${dev##*/}"
    drv=$(readlink "$d/device/driver" 2>/dev/null)
    drv=\${drv##*/}
    printf 'nic_driver=%s\\n' "$drv"
    if [ -n "$drv" ]; then printf 'nic_module_version=%s\\n' "$(cat "/sys/module/$drv/version" 2>/dev/null)"; fi
    for f in current_link_speed current_link_width max_link_speed max_link_width; do printf 'pcie_%s=%s\\n' "$f" "$(cat "$dev/$f" 2>/dev/null)"; done
  fi
  echo wirespeed-ports
  for x in /sys/class/net/*; do
    [ -e "$x/device" ] || continue
    a=$(readlink -f "$x/device")
    printf '%s %s %s\\n' "\${x##*/}" "\${a##*/}" "$(cat "$x/speed" 2>/dev/null)"
  done
  if command -v ethtool >/dev/null 2>&1; then
    echo wirespeed-ethtool-i
    ethtool -i "$n" 2>&1
    echo wirespeed-ethtool-k
    ethtool -k "$n" 2>&1
    echo wirespeed-ethtool-g
    ethtool -g "$n" 2>&1
  else
    echo wirespeed-no-ethtool
  fi
fi
echo wirespeed-end`;

/** ethtool -k's four offloads ("tcp-segmentation-offload: on", "large-receive-offload: off [fixed]"). */
function parseOffloads(text: string) {
  const state = (feature: string): boolean | null => {
    const match = new RegExp(`^${feature}:\\s*(on|off)\\b`, "m").exec(text);
    return match ? match[1] === "on" : null;
  };
  return {
    tso: state("tcp-segmentation-offload"),
    gso: state("generic-segmentation-offload"),
    gro: state("generic-receive-offload"),
    lro: state("large-receive-offload"),
  };
}

/** ethtool -g: "Pre-set maximums:" then "Current hardware settings:", each with "RX:" and "TX:" lines. */
function parseRings(text: string) {
  const rings = {
    rx: null as number | null,
    tx: null as number | null,
    rxMax: null as number | null,
    txMax: null as number | null,
  };
  let block: "max" | "current" | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (/^pre-set maximums:/i.test(line)) block = "max";
    else if (/^current hardware settings:/i.test(line)) block = "current";
    const match = /^(RX|TX):\s*(\S+)/.exec(line);
    if (!match || block === null) continue;
    const value = countOrNull(match[2]);
    if (match[1] === "RX") rings[block === "max" ? "rxMax" : "rx"] = value;
    else rings[block === "max" ? "txMax" : "tx"] = value;
  }
  return ringsOrNull(rings);
}

// An ethtool section that is only a complaint ("netlink error: Operation not supported", "Cannot get
// device ring settings: No such device") says why its fields are missing.
function ethtoolProblem(text: string | undefined): string | null {
  const line = firstLine(text);
  return /error|cannot|not supported|no such device/i.test(line) ? line : null;
}

/** Parses the output of LINUX_ENVIRONMENT_SCRIPT for the NIC `nicName`; never throws. */
export function parseLinuxEnvironment(output: CommandOutput, nicName: string): HostEnvironment {
  const sections = splitSections(output.stdout);
  if (!sections.has("facts")) return unreadEnvironment("linux", output);
  const facts = equalsPairs(sections.get("facts"));
  const env = emptyEnvironment("linux");
  const missing = env.missing;

  env.os = textOrNull(facts.get("os")?.replace(/^"(.*)"$/, "$1"));
  if (env.os === null) missing.push("OS: /etc/os-release has no PRETTY_NAME");
  env.kernel = textOrNull(facts.get("kernel"));

  // systemd-detect-virt prints "none" on bare metal.
  const virt = facts.get("virt");
  if (virt !== undefined && virt !== "") env.virtualization = virt;
  else if (facts.get("cpu_hypervisor") === "yes") {
    // Without systemd-detect-virt, the CPU's hypervisor flag says "a VM" and DMI which one.
    env.virtualization = hypervisorFromModel(facts.get("dmi_vendor"), facts.get("dmi_product")) ?? "vm-other";
  } else {
    missing.push(
      virt === undefined
        ? "virtualization: systemd-detect-virt is not installed"
        : "virtualization: systemd-detect-virt printed nothing",
    );
  }

  env.cpu.model = textOrNull(facts.get("cpu_model"));
  env.cpu.cores = countOrNull(facts.get("cpu_cores"));
  env.cpu.governor = textOrNull(facts.get("cpu_governor"));
  if (env.cpu.model === null) missing.push("CPU model: not in /proc/cpuinfo");
  if (env.cpu.governor === null)
    missing.push("CPU governor: no cpufreq in /sys (a VM, a container or a fixed-frequency CPU)");

  const tcp = env.tcp;
  tcp.congestionControl = textOrNull(facts.get("ipv4/tcp_congestion_control"));
  tcp.rmemMax = countOrNull(facts.get("core/rmem_max"));
  tcp.wmemMax = countOrNull(facts.get("core/wmem_max"));
  tcp.tcpRmem = tripleOrNull(facts.get("ipv4/tcp_rmem"));
  tcp.tcpWmem = tripleOrNull(facts.get("ipv4/tcp_wmem"));
  const unreadSysctls = [
    ["net.ipv4.tcp_congestion_control", tcp.congestionControl],
    ["net.core.rmem_max", tcp.rmemMax],
    ["net.core.wmem_max", tcp.wmemMax],
    ["net.ipv4.tcp_rmem", tcp.tcpRmem],
    ["net.ipv4.tcp_wmem", tcp.tcpWmem],
  ].filter(([, value]) => value === null);
  // net.core.* exist only in the first network namespace: a container or a lab host has none.
  if (unreadSysctls.length > 0)
    missing.push(
      `${unreadSysctls.map(([name]) => name).join(", ")}: not readable in /proc/sys/net (another network namespace?)`,
    );

  if (facts.get("nic") !== "yes") {
    missing.push(`NIC: this host has no interface named ${JSON.stringify(nicName)}`);
    return env;
  }
  const nic = emptyNic(nicName);
  env.nic = nic;
  nic.mtu = countOrNull(facts.get("nic_mtu"));
  // The kernel says -1 (or nothing) for a speed it does not know, and "unknown" for such a duplex.
  nic.speedMbps = countOrNull(facts.get("nic_speed"));
  nic.duplex = duplexOrNull(facts.get("nic_duplex"));
  if (nic.speedMbps === null) missing.push("NIC speed: the kernel does not know it (link down, or a virtual NIC)");

  const device = textOrNull(facts.get("nic_device"));
  const ports: PortOnBus[] = (sections.get("ports") ?? "")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words.length >= 2 && words[0] !== "")
    .map(([name, address, speed]) => ({
      name: name!,
      address: isPciAddress(address) ? address! : null,
      speedMbps: countOrNull(speed),
    }));
  if (device !== null && isPciAddress(device)) {
    nic.pcie = {
      ...emptyPcie(device),
      speedGTs: gtsOrNull(facts.get("pcie_current_link_speed")),
      width: widthOrNull(facts.get("pcie_current_link_width")),
      maxSpeedGTs: gtsOrNull(facts.get("pcie_max_link_speed")),
      maxWidth: widthOrNull(facts.get("pcie_max_link_width")),
    };
    if (nic.pcie.speedGTs === null || nic.pcie.width === null)
      missing.push("PCIe link: not reported in /sys for this device");
    nic.siblingPorts = siblingPorts(nicName, device, ports);
  } else {
    missing.push(
      device === null
        ? `PCIe link: ${nicName} has no device in /sys (a virtual interface)`
        : `PCIe link: ${nicName} is not a PCI function (${device})`,
    );
  }

  const sysDriver = textOrNull(facts.get("nic_driver"));
  const moduleVersion = textOrNull(facts.get("nic_module_version"));
  if (sections.has("no-ethtool")) {
    nic.driver = sysDriver;
    nic.driverVersion = moduleVersion;
    if (nic.driver === null) missing.push(`driver: ethtool is not installed and ${nicName} has no driver in /sys`);
    if (nic.driverVersion === null)
      missing.push("driver version: ethtool is not installed and the module has no version in /sys");
    missing.push(
      "firmware: ethtool is not installed",
      "offloads: ethtool is not installed",
      "ring sizes: ethtool is not installed",
    );
    return env;
  }

  const info = colonPairs(sections.get("ethtool-i"));
  nic.driver = textOrNull(info.get("driver")) ?? sysDriver;
  nic.driverVersion = textOrNull(info.get("version")) ?? moduleVersion;
  nic.firmware = textOrNull(info.get("firmware-version"));
  const infoProblem = ethtoolProblem(sections.get("ethtool-i"));
  if (nic.driver === null) missing.push(`driver: ${infoProblem ?? "ethtool -i names none"}`);
  if (nic.firmware === null) missing.push(`firmware: ${infoProblem ?? `${nic.driver ?? "the driver"} reports none`}`);

  nic.offloads = parseOffloads(sections.get("ethtool-k") ?? "");
  const unreadOffloads = Object.entries(nic.offloads).filter(([, on]) => on === null);
  if (unreadOffloads.length > 0) {
    const why = ethtoolProblem(sections.get("ethtool-k")) ?? "not listed by ethtool -k";
    missing.push(`${unreadOffloads.map(([name]) => name.toUpperCase()).join(", ")}: ${why}`);
  }

  nic.rings = parseRings(sections.get("ethtool-g") ?? "");
  if (nic.rings === null)
    missing.push(
      `ring sizes: ${ethtoolProblem(sections.get("ethtool-g")) ?? `${nic.driver ?? "the driver"} does not report them`}`,
    );
  return env;
}

export const linuxEnvironment: EnvironmentReader = {
  command: (nicName) => shScript(LINUX_ENVIRONMENT_SCRIPT, [nicName]),
  parse: parseLinuxEnvironment,
};
