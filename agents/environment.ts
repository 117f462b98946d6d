// Pure helpers of the environment readers (environment-linux.ts, -esxi.ts, -windows.ts, -bsd.ts): one
// command's output cut into sections, numbers and PCIe speeds as the platforms print them, and the other
// ports of the same card. Every reader starts from lib/diagnosis's emptyEnvironment and never throws.
import {
  emptyEnvironment,
  type NicEnvironment,
  type NicOffloads,
  type NicRings,
  type PcieLink,
} from "@/lib/diagnosis/contract";
import type { CommandOutput, HostEnvironment, Platform } from "./types";

/** The lines a reader's script prints between the outputs of its commands: `wirespeed-<name>`. */
const SECTION_LINE = /^wirespeed-([a-z0-9-]+)$/;

/**
 * The sections of a reader's output by name: each starts at its `wirespeed-<name>` line and runs to the
 * next one; `wirespeed-end` closes the last. Text before the first marker is dropped (a login banner).
 */
export function splitSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const marker = SECTION_LINE.exec(line);
    if (marker) {
      current = marker[1] === "end" ? null : marker[1]!;
      if (current !== null) sections.set(current, "");
    } else if (current !== null) {
      sections.set(current, `${sections.get(current)}${line}\n`);
    }
  }
  return sections;
}

/** `key=value` lines (the first `=` splits); the first of a repeated key wins. */
export function equalsPairs(text: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.replace(/\r$/, "");
    const eq = line.indexOf("=");
    if (eq > 0 && !pairs.has(line.slice(0, eq))) pairs.set(line.slice(0, eq), line.slice(eq + 1).trim());
  }
  return pairs;
}

/** `Key: value` lines, indented or not (esxcli, ethtool -i); the first of a repeated key wins. */
export function colonPairs(text: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.replace(/\r$/, "");
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    if (key !== "" && !pairs.has(key)) pairs.set(key, line.slice(colon + 1).trim());
  }
  return pairs;
}

/** A whole number as printed ("9000", " 512 "), or null for anything else ("", "-1", "n/a", "Unknown"). */
export function countOrNull(text: string | null | undefined): number | null {
  const trimmed = text?.trim() ?? "";
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/** Text that says something, or null for blanks and the platforms' ways of saying nothing. */
export function textOrNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? "";
  return trimmed === "" || /^(n\/a|none|unknown|null|-)$/i.test(trimmed) ? null : trimmed;
}

/** Three whole numbers (Linux's tcp_rmem: "4096\t131072\t6291456"), or null. */
export function tripleOrNull(text: string | null | undefined): [number, number, number] | null {
  const words = (text ?? "").trim().split(/\s+/);
  if (words.length !== 3 || !words.every((w) => /^\d+$/.test(w))) return null;
  return [Number(words[0]), Number(words[1]), Number(words[2])];
}

/**
 * A PCIe link speed in GT/s per lane: "8.0 GT/s PCIe", "5.0 GT/s", "2.5 GT/s PCIe", older kernels'
 * "5 GT/s", pciconf's "5.0"; "Unknown" and anything else null.
 */
export function gtsOrNull(text: string | null | undefined): number | null {
  const match = /^(\d+(?:\.\d+)?)(?:\s*GT\/s\b.*)?$/i.exec(text?.trim() ?? "");
  if (!match) return null;
  const value = Number(match[1]);
  return value > 0 ? value : null;
}

/** PCIe's encoded link speed (the Link Status register, Windows' PciExpress*LinkSpeedEncoded): 1 = 2.5 GT/s … 6 = 64 GT/s. */
export function gtsFromEncoded(code: number | null | undefined): number | null {
  const speeds: Record<number, number> = { 1: 2.5, 2: 5, 3: 8, 4: 16, 5: 32, 6: 64 };
  return typeof code === "number" ? (speeds[code] ?? null) : null;
}

/** A width in lanes: "4", "x4", 8; zero and anything else null. */
export function widthOrNull(text: string | number | null | undefined): number | null {
  const value =
    typeof text === "number"
      ? text
      : countOrNull(
          String(text ?? "")
            .trim()
            .replace(/^x/i, ""),
        );
  return value !== null && Number.isInteger(value) && value > 0 ? value : null;
}

/** A PCI address as Linux writes it, "0000:03:00.0", from its numbers. */
export function pciAddress(domain: number, bus: number, device: number, fn: number): string {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  return `${hex(domain, 4)}:${hex(bus, 2)}:${hex(device, 2)}.${fn}`;
}

const PCI_ADDRESS = /^([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2})\.([0-7])$/i;

export function isPciAddress(text: string | null | undefined): boolean {
  return PCI_ADDRESS.test(text ?? "");
}

/** A host's network port: its name, its PCI function (if any) and its negotiated speed. */
export type PortOnBus = { name: string; address: string | null; speedMbps: number | null };

/**
 * The other ports of the card that `address` belongs to: the same domain, bus and device, another
 * function (0000:03:00.0 and 0000:03:00.1), in name order. Their traffic crosses the same slot.
 */
export function siblingPorts(
  name: string,
  address: string | null,
  ports: readonly PortOnBus[],
): { name: string; speedMbps: number | null }[] {
  const own = PCI_ADDRESS.exec(address ?? "");
  if (!own) return [];
  return ports
    .filter((port) => {
      const other = PCI_ADDRESS.exec(port.address ?? "");
      return (
        port.name !== name && other !== null && other[1]!.toLowerCase() === own[1]!.toLowerCase() && other[2] !== own[2]
      );
    })
    .map((port) => ({ name: port.name, speedMbps: port.speedMbps }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const UNKNOWN_OFFLOADS: NicOffloads = { tso: null, gso: null, gro: null, lro: null };

/** A NIC of which nothing is known yet but its name. */
export function emptyNic(name: string): NicEnvironment {
  return {
    name,
    driver: null,
    driverVersion: null,
    firmware: null,
    speedMbps: null,
    duplex: null,
    mtu: null,
    pcie: null,
    siblingPorts: [],
    offloads: { ...UNKNOWN_OFFLOADS },
    rings: null,
  };
}

/** A PCIe link of which only the address is known. */
export function emptyPcie(address: string | null): PcieLink {
  return { address, speedGTs: null, width: null, maxSpeedGTs: null, maxWidth: null };
}

/** Rings, or null when not one of the four sizes was read. */
export function ringsOrNull(rings: NicRings): NicRings | null {
  return Object.values(rings).every((v) => v === null) ? null : rings;
}

/** "full"/"half" in any case ("Full", "full-duplex"), else null. */
export function duplexOrNull(text: string | null | undefined): "full" | "half" | null {
  const lower = text?.trim().toLowerCase() ?? "";
  if (lower.startsWith("full")) return "full";
  if (lower.startsWith("half")) return "half";
  return null;
}

/** The first line of what a command printed, for the `why` of a missing field. */
export function firstLine(text: string | null | undefined): string {
  return (
    (text ?? "")
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}

/**
 * The snapshot of a host whose command printed none of its sections (no shell, a refused login,
 * a command that died): everything null, and why in `missing`.
 */
export function unreadEnvironment(platform: Platform, output: CommandOutput): HostEnvironment {
  const said = firstLine(output.stderr) || firstLine(output.stdout);
  const status = output.exitCode === null ? "no exit status" : `exit ${output.exitCode}`;
  return emptyEnvironment(platform, [
    `everything: the command printed none of its sections (${status}${said ? `: ${said.slice(0, 200)}` : ""})`,
  ]);
}

/**
 * Hypervisors by what the machine's firmware calls its maker and model (DMI on Linux, Win32_ComputerSystem
 * on Windows, esxcli on ESXi), in systemd-detect-virt's words; null for a machine that looks physical.
 */
export function hypervisorFromModel(
  vendor: string | null | undefined,
  product: string | null | undefined,
): string | null {
  const text = `${vendor ?? ""} ${product ?? ""}`.toLowerCase();
  if (/vmware/.test(text)) return "vmware";
  if (/microsoft corporation/.test(text) && /virtual machine/.test(text)) return "microsoft";
  if (/\bqemu\b|\bkvm\b|standard pc \(/.test(text)) return "kvm";
  if (/innotek|virtualbox/.test(text)) return "oracle";
  if (/\bxen\b/.test(text)) return "xen";
  if (/parallels/.test(text)) return "parallels";
  if (/\bbhyve\b/.test(text)) return "bhyve";
  return null;
}
