// A run's environment in words: PCIe links, buffer sizes, offloads, and the rows of a snapshot that
// the run page shows and a compare diffs (lib/diagnosis/changes.ts). Pure: no I/O, safe in the browser.
import { formatSize } from "@/lib/experiments/kinds/figures";
import { formatLinkSpeed } from "@/lib/format";
import type { EnvironmentSnapshot, NicEnvironment, NicOffloads, PcieLink } from "./contract";

/** What a value that could not be read shows as. */
export const UNKNOWN = "unknown";

/** One displayable field of a snapshot: a stable key, its label, its value as text ("unknown" when not read). */
export type EnvironmentRow = { key: string; label: string; value: string };

// GT/s per lane of each PCIe generation.
const PCIE_GENERATIONS: ReadonlyArray<readonly [number, string]> = [
  [2.5, "1.0"],
  [5, "2.0"],
  [8, "3.0"],
  [16, "4.0"],
  [32, "5.0"],
  [64, "6.0"],
];

/** 2.5 → "1.0", 5 → "2.0", 8 → "3.0", 16 → "4.0", 32 → "5.0", 64 → "6.0"; null for any other rate. */
export function pcieGeneration(speedGTs: number | null): string | null {
  if (speedGTs === null) return null;
  return PCIE_GENERATIONS.find(([rate]) => Math.abs(rate - speedGTs) < 0.05)?.[1] ?? null;
}

/**
 * What a PCIe link carries in Gbit/s after its line encoding: 8b/10b at 2.5 and 5 GT/s, 128b/130b from
 * 8 GT/s. PCIe 2.0 x4 is 16 Gbit/s, short of one 25G port; 3.0 x8 is 63. Null without both figures.
 */
export function usablePcieGbps(speedGTs: number | null, width: number | null): number | null {
  if (speedGTs === null || width === null || !(speedGTs > 0) || !(width > 0)) return null;
  const encoding = speedGTs < 8 ? 8 / 10 : 128 / 130;
  return speedGTs * encoding * width;
}

// "2.0 x4" with the generation's name, "12 GT/s x4" without one; "PCIe " before a generation when asked.
function linkText(speedGTs: number | null, width: number | null, isPrefixed: boolean): string {
  const generation = pcieGeneration(speedGTs);
  const speed =
    generation !== null ? `${isPrefixed ? "PCIe " : ""}${generation}` : speedGTs !== null ? `${speedGTs} GT/s` : null;
  return [speed, width !== null ? `x${width}` : null].filter((part) => part !== null).join(" ");
}

function pcieText(pcie: PcieLink | null, isPrefixed: boolean): string {
  if (!pcie) return UNKNOWN;
  const current = linkText(pcie.speedGTs, pcie.width, isPrefixed) || UNKNOWN;
  const isShort =
    (pcie.maxSpeedGTs !== null && pcie.maxSpeedGTs !== pcie.speedGTs) ||
    (pcie.maxWidth !== null && pcie.maxWidth !== pcie.width);
  if (!isShort) return current;
  return `${current} (card: ${linkText(pcie.maxSpeedGTs ?? pcie.speedGTs, pcie.maxWidth ?? pcie.width, false)})`;
}

/**
 * The NIC's PCIe link and, when the card can do more, what it can: "PCIe 2.0 x4 (card: 3.0 x8)",
 * "PCIe 3.0 x8" when it runs at its best, "12 GT/s x8" for a rate that is no generation's.
 */
export function formatPcie(pcie: PcieLink | null): string {
  return pcieText(pcie, true);
}

/** 212992 → "208 KiB", 6291456 → "6 MiB", 1000 → "1000 bytes"; null → "unknown". */
export function formatBuffer(bytes: number | null): string {
  return bytes === null ? UNKNOWN : formatSize(bytes);
}

/** Linux's tcp_rmem/tcp_wmem (min, default, max): "4 KiB / 128 KiB / 6 MiB". */
export function formatBufferTriple(triple: readonly [number, number, number] | null): string {
  return triple === null ? UNKNOWN : triple.map(formatBuffer).join(" / ");
}

const OFFLOADS = ["tso", "gso", "gro", "lro"] as const satisfies ReadonlyArray<keyof NicOffloads>;

const onOff = (value: boolean | null) => (value === null ? UNKNOWN : value ? "on" : "off");

/** "TSO on, GSO on, GRO on, LRO off", leaving out what is not known; "unknown" when none is. */
export function formatOffloads(offloads: NicOffloads): string {
  const known = OFFLOADS.filter((name) => offloads[name] !== null).map(
    (name) => `${name.toUpperCase()} ${onOff(offloads[name])}`,
  );
  return known.length > 0 ? known.join(", ") : UNKNOWN;
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === "" ? UNKNOWN : String(value);

// "512 (max 4096)": the ring in use and the most the NIC takes.
function ringText(size: number | null, max: number | null): string {
  if (size === null) return UNKNOWN;
  return max === null ? String(size) : `${size} (max ${max})`;
}

function driverText(nic: NicEnvironment | null): string {
  if (!nic?.driver) return UNKNOWN;
  return nic.driverVersion ? `${nic.driver} ${nic.driverVersion}` : nic.driver;
}

function siblingsText(nic: NicEnvironment | null): string {
  if (!nic) return UNKNOWN;
  if (nic.siblingPorts.length === 0) return "none";
  return nic.siblingPorts
    .map((port) => (port.speedMbps === null ? port.name : `${port.name} (${formatLinkSpeed(port.speedMbps)})`))
    .join(", ");
}

/**
 * Every displayable field of a snapshot, in the order a page lists them: the host, its CPU, the
 * link's NIC and its card, then TCP. The keys never change; each label reads as the start of a
 * sentence ("Driver ixgbe 5.19"), and a value that was not read is "unknown".
 */
export function environmentRows(snapshot: EnvironmentSnapshot): EnvironmentRow[] {
  const { nic, cpu, tcp } = snapshot;
  const rows: Array<[string, string, string]> = [
    ["os", "OS", text(snapshot.os)],
    ["kernel", "Kernel", text(snapshot.kernel)],
    ["iperf3", "iperf3", text(snapshot.iperf3Version)],
    [
      "virtualization",
      "Virtualization",
      snapshot.virtualization === "none" ? "bare metal" : text(snapshot.virtualization),
    ],
    ["cpu.model", "CPU", text(cpu.model)],
    ["cpu.cores", "CPU cores", text(cpu.cores)],
    ["cpu.governor", "CPU governor", text(cpu.governor)],
    ["nic.name", "NIC", text(nic?.name)],
    ["nic.driver", "Driver", driverText(nic)],
    ["nic.firmware", "Firmware", text(nic?.firmware)],
    ["nic.speed", "Link speed", formatLinkSpeed(nic?.speedMbps ?? null)],
    ["nic.duplex", "Duplex", text(nic?.duplex)],
    ["nic.mtu", "MTU", text(nic?.mtu)],
    ["nic.pcie", "PCIe", pcieText(nic?.pcie ?? null, false)],
    ["nic.siblings", "Other ports of the card", siblingsText(nic)],
    ...OFFLOADS.map((name): [string, string, string] => [
      `nic.offload.${name}`,
      name.toUpperCase(),
      onOff(nic?.offloads[name] ?? null),
    ]),
    ["nic.ring.rx", "RX ring", ringText(nic?.rings?.rx ?? null, nic?.rings?.rxMax ?? null)],
    ["nic.ring.tx", "TX ring", ringText(nic?.rings?.tx ?? null, nic?.rings?.txMax ?? null)],
    ["tcp.congestion", "Congestion control", text(tcp.congestionControl)],
    ["tcp.rmemMax", "Max receive buffer", formatBuffer(tcp.rmemMax)],
    ["tcp.wmemMax", "Max send buffer", formatBuffer(tcp.wmemMax)],
    ["tcp.rmem", "TCP receive buffers (min / default / max)", formatBufferTriple(tcp.tcpRmem)],
    ["tcp.wmem", "TCP send buffers (min / default / max)", formatBufferTriple(tcp.tcpWmem)],
  ];
  return rows.map(([key, label, value]) => ({ key, label, value }));
}
