// Windows: the environment of one end of a run, read with one constant PowerShell command that dumps
// the OS, CPU, power plan, TCP settings and every adapter as one JSON document; the parser picks the
// run's NIC by name, so the name never reaches the host. Pure: the script is a constant.
import { emptyEnvironment } from "@/lib/diagnosis/contract";
import {
  countOrNull,
  emptyNic,
  emptyPcie,
  firstLine,
  gtsFromEncoded,
  hypervisorFromModel,
  pciAddress,
  ringsOrNull,
  siblingPorts,
  textOrNull,
  unreadEnvironment,
  widthOrNull,
} from "./environment";
import type { EnvironmentReader, ExecCommand, HostEnvironment, CommandOutput } from "./types";

/**
 * One JSON document. It holds no `$`, backquote or double quote: cmdQuote refuses the first two (a
 * PowerShell default shell would read them as code) and the line stays readable. Each part is in its
 * own try, so a cmdlet missing on an older Windows leaves that part empty, not the document.
 * Enums (CongestionProvider) would be numbers in Windows PowerShell 5.1's JSON: ConvertTo-Csv writes
 * their names.
 */
export const WINDOWS_ENVIRONMENT_SCRIPT = [
  "[pscustomobject]@{",
  "os = @(try { Get-CimInstance Win32_OperatingSystem -ErrorAction Ignore | Select-Object Caption,Version } catch {});",
  "system = @(try { Get-CimInstance Win32_ComputerSystem -ErrorAction Ignore | Select-Object Manufacturer,Model } catch {});",
  "cpu = @(try { Get-CimInstance Win32_Processor -ErrorAction Ignore | Select-Object Name,NumberOfLogicalProcessors } catch {});",
  "powerPlan = @(try { powercfg /getactivescheme } catch {});",
  "tcp = @(try { Get-NetTCPSetting -ErrorAction Ignore | Select-Object SettingName,CongestionProvider,AutoTuningLevelLocal " +
    "| ConvertTo-Csv -NoTypeInformation } catch {});",
  "adapters = @(try { Get-NetAdapter -ErrorAction Ignore " +
    "| Select-Object Name,DriverName,DriverVersionString,LinkSpeed,ReceiveLinkSpeed,MtuSize,FullDuplex,Status } catch {});",
  "hardware = @(try { Get-NetAdapterHardwareInfo -ErrorAction Ignore " +
    "| Select-Object Name,SegmentNumber,BusNumber,DeviceNumber,FunctionNumber," +
    "PciExpressCurrentLinkSpeedEncoded,PciExpressCurrentLinkWidth,PciExpressMaxLinkSpeedEncoded,PciExpressMaxLinkWidth } catch {});",
  "lso = @(try { Get-NetAdapterLso -ErrorAction Ignore | Select-Object Name,IPv4Enabled } catch {});",
  "rsc = @(try { Get-NetAdapterRsc -ErrorAction Ignore | Select-Object Name,IPv4Enabled } catch {});",
  "rings = @(try { Get-NetAdapterAdvancedProperty -RegistryKeyword '*ReceiveBuffers','*TransmitBuffers' -ErrorAction Ignore " +
    "| Select-Object Name,RegistryKeyword,RegistryValue,NumericParameterMaxValue } catch {})",
  "} | ConvertTo-Json -Depth 4 -Compress",
].join(" ");

export const WINDOWS_ENVIRONMENT_ARGV = [
  "powershell",
  "-NoProfile",
  "-NonInteractive",
  "-Command",
  WINDOWS_ENVIRONMENT_SCRIPT,
] as const;

type Adapter = {
  Name?: string;
  DriverName?: string;
  DriverVersionString?: string;
  LinkSpeed?: string;
  ReceiveLinkSpeed?: number;
  MtuSize?: number;
  FullDuplex?: boolean;
  Status?: string;
};
type Hardware = {
  Name?: string;
  SegmentNumber?: number;
  BusNumber?: number;
  DeviceNumber?: number;
  FunctionNumber?: number;
  PciExpressCurrentLinkSpeedEncoded?: number;
  PciExpressCurrentLinkWidth?: number;
  PciExpressMaxLinkSpeedEncoded?: number;
  PciExpressMaxLinkWidth?: number;
};
type Toggle = { Name?: string; IPv4Enabled?: boolean };
type AdvancedProperty = {
  Name?: string;
  RegistryKeyword?: string;
  RegistryValue?: unknown;
  NumericParameterMaxValue?: number;
};
type Document = Record<
  "os" | "system" | "cpu" | "powerPlan" | "tcp" | "adapters" | "hardware" | "lso" | "rsc" | "rings",
  unknown
>;

// Windows PowerShell 5.1 sometimes wraps an array as { value: [...], Count: n }; a lone object stays an object.
function list<T>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (value && typeof value === "object") {
    const wrapped = (value as { value?: unknown }).value;
    return Array.isArray(wrapped) ? (wrapped as T[]) : [value as T];
  }
  return [];
}

/** One CSV line as ConvertTo-Csv writes it: fields in double quotes ("" inside one), or empty. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  const pattern = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
  for (const match of line.matchAll(pattern)) fields.push((match[1] ?? match[2] ?? "").replace(/""/g, '"'));
  return fields;
}

/** The rows of ConvertTo-Csv's lines, keyed by its header. */
function csvRows(lines: unknown): Record<string, string>[] {
  const text = list<unknown>(lines).filter((l): l is string => typeof l === "string");
  if (text.length < 2) return [];
  const header = csvFields(text[0]!);
  return text.slice(1).map((line) => {
    const fields = csvFields(line);
    return Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ""]));
  });
}

const sameName = (a: string | undefined, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/** What windows.ts lends the reader: its command quoting and its reading of a link speed. */
export type WindowsHelpers = {
  command: (argv: readonly string[]) => ExecCommand;
  linkSpeedMbps: (linkSpeed: string | undefined, bitsPerSecond: number | undefined) => number | null;
};

/** Parses the output of WINDOWS_ENVIRONMENT_SCRIPT and picks the adapter `nicName`; never throws. */
export function parseWindowsEnvironment(
  output: CommandOutput,
  nicName: string,
  linkSpeedMbps: WindowsHelpers["linkSpeedMbps"],
): HostEnvironment {
  const json = output.stdout.split("\n").find((line) => line.trim().startsWith("{"));
  let doc: Partial<Document>;
  try {
    const parsed: unknown = JSON.parse(json ?? "");
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return unreadEnvironment("windows", output);
    doc = parsed as Partial<Document>;
  } catch {
    return unreadEnvironment("windows", output);
  }
  const env = emptyEnvironment("windows");
  const missing = env.missing;

  const os = list<{ Caption?: string; Version?: string }>(doc.os)[0];
  env.os = textOrNull(os?.Caption);
  env.kernel = textOrNull(os?.Version);
  if (!os) missing.push("OS: Win32_OperatingSystem was not readable");

  const system = list<{ Manufacturer?: string; Model?: string }>(doc.system)[0];
  // A physical host with Hyper-V or VBS on reports a hypervisor too; its maker and model tell a guest apart.
  if (system) env.virtualization = hypervisorFromModel(system.Manufacturer, system.Model) ?? "none";
  else missing.push("virtualization: Win32_ComputerSystem was not readable");

  const cpus = list<{ Name?: string; NumberOfLogicalProcessors?: number }>(doc.cpu);
  env.cpu.model = textOrNull(cpus[0]?.Name);
  const logical = cpus.map((c) => c.NumberOfLogicalProcessors).filter((n): n is number => typeof n === "number");
  env.cpu.cores = logical.length > 0 ? logical.reduce((a, b) => a + b, 0) : null;
  if (cpus.length === 0) missing.push("CPU: Win32_Processor was not readable");
  // "Power Scheme GUID: 381b4222-f694-41f0-9685-ff5bb260df2e  (Balanced)": the plan's name, in the host's language.
  const plan = list<unknown>(doc.powerPlan)
    .filter((l): l is string => typeof l === "string")
    .join(" ");
  env.cpu.governor = /\(([^)]+)\)\s*$/.exec(plan.trim())?.[1] ?? null;
  if (env.cpu.governor === null)
    missing.push(`CPU governor (power plan): powercfg answered ${JSON.stringify(firstLine(plan) || "nothing")}`);

  // The "Internet" template is what connections use unless a transport filter says otherwise.
  const settings = csvRows(doc.tcp);
  const setting =
    settings.find((s) => s.SettingName === "Internet") ??
    settings.find((s) => textOrNull(s.CongestionProvider) !== null);
  env.tcp.congestionControl = textOrNull(setting?.CongestionProvider)?.toLowerCase() ?? null;
  if (env.tcp.congestionControl === null) missing.push("TCP congestion control: Get-NetTCPSetting was not readable");
  const tuning = textOrNull(setting?.AutoTuningLevelLocal);
  missing.push(
    `socket buffer limits: none to set on Windows (receive window auto-tuning${tuning ? `: ${tuning}` : ""})`,
  );

  const adapters = list<Adapter>(doc.adapters);
  const adapter = adapters.find((a) => a.Name === nicName) ?? adapters.find((a) => sameName(a.Name, nicName));
  if (!adapter) {
    missing.push(`NIC: this host has no adapter named ${JSON.stringify(nicName)}`);
    return env;
  }
  const name = adapter.Name!;
  const nic = emptyNic(nicName);
  env.nic = nic;
  const isUp = adapter.Status === "Up";
  nic.mtu = typeof adapter.MtuSize === "number" ? adapter.MtuSize : null;
  nic.speedMbps = isUp ? linkSpeedMbps(adapter.LinkSpeed, adapter.ReceiveLinkSpeed) : null;
  nic.duplex = isUp && typeof adapter.FullDuplex === "boolean" ? (adapter.FullDuplex ? "full" : "half") : null;
  if (!isUp) missing.push(`NIC speed: ${name} is ${adapter.Status ?? "not up"}`);
  nic.driver = textOrNull(adapter.DriverName?.split("\\").pop());
  nic.driverVersion = textOrNull(adapter.DriverVersionString);
  missing.push("firmware: not reported by Windows");

  const hardware = list<Hardware>(doc.hardware);
  const addressOf = (h: Hardware) =>
    [h.SegmentNumber, h.BusNumber, h.DeviceNumber, h.FunctionNumber].every((n) => typeof n === "number")
      ? pciAddress(h.SegmentNumber!, h.BusNumber!, h.DeviceNumber!, h.FunctionNumber!)
      : null;
  const own = hardware.find((h) => sameName(h.Name, name));
  if (own) {
    const address = addressOf(own);
    nic.pcie = {
      ...emptyPcie(address),
      speedGTs: gtsFromEncoded(own.PciExpressCurrentLinkSpeedEncoded),
      width: widthOrNull(own.PciExpressCurrentLinkWidth),
      maxSpeedGTs: gtsFromEncoded(own.PciExpressMaxLinkSpeedEncoded),
      maxWidth: widthOrNull(own.PciExpressMaxLinkWidth),
    };
    if (nic.pcie.speedGTs === null || nic.pcie.width === null)
      missing.push("PCIe link: Get-NetAdapterHardwareInfo gives no PCI Express link");
    nic.siblingPorts = siblingPorts(
      name,
      address,
      hardware.map((h) => {
        const other = adapters.find((a) => sameName(a.Name, h.Name ?? ""));
        return {
          name: h.Name ?? "",
          address: addressOf(h),
          speedMbps: other && other.Status === "Up" ? linkSpeedMbps(other.LinkSpeed, other.ReceiveLinkSpeed) : null,
        };
      }),
    );
  } else {
    missing.push(`PCIe link: ${name} has no PCI hardware (a virtual adapter)`);
  }

  const lso = list<Toggle>(doc.lso).find((t) => sameName(t.Name, name));
  const rsc = list<Toggle>(doc.rsc).find((t) => sameName(t.Name, name));
  nic.offloads.tso = typeof lso?.IPv4Enabled === "boolean" ? lso.IPv4Enabled : null;
  // Receive segment coalescing is Windows' LRO.
  nic.offloads.lro = typeof rsc?.IPv4Enabled === "boolean" ? rsc.IPv4Enabled : null;
  if (nic.offloads.tso === null) missing.push(`TSO: ${name} has no large send offload setting`);
  if (nic.offloads.lro === null) missing.push(`LRO: ${name} has no receive segment coalescing setting`);
  missing.push("GSO, GRO: not Windows settings");

  const advanced = list<AdvancedProperty>(doc.rings).filter((p) => sameName(p.Name, name));
  const ring = (keyword: string) => {
    const property = advanced.find((p) => p.RegistryKeyword === keyword);
    const value = list<unknown>(property?.RegistryValue)[0];
    return {
      size: countOrNull(typeof value === "string" || typeof value === "number" ? String(value) : null),
      max: typeof property?.NumericParameterMaxValue === "number" ? property.NumericParameterMaxValue : null,
    };
  };
  const receive = ring("*ReceiveBuffers");
  const transmit = ring("*TransmitBuffers");
  nic.rings = ringsOrNull({ rx: receive.size, tx: transmit.size, rxMax: receive.max, txMax: transmit.max });
  if (nic.rings === null) missing.push(`ring sizes: ${name} has no *ReceiveBuffers or *TransmitBuffers property`);
  return env;
}

/**
 * The Windows reader, given windows.ts's helpers: windows.ts holds this reader in its agent, so
 * importing them from there would make an import cycle. The command is the same for every NIC.
 */
export function windowsEnvironmentReader(helpers: WindowsHelpers): EnvironmentReader {
  return {
    command: () => helpers.command(WINDOWS_ENVIRONMENT_ARGV),
    parse: (output, nicName) => parseWindowsEnvironment(output, nicName, helpers.linkSpeedMbps),
  };
}
