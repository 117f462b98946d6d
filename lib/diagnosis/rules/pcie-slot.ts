// PCIe slot too narrow or slow: the NIC's card runs its PCIe link below what the card can do,
// or below what its ports carry together (seeds/004: a dual-port 10G card in a PCIe 2.0 x4
// slot gives about 16 Gbit/s for 20 Gbit/s of ports).
import type { Hint, HintSeverity } from "@/lib/diagnosis/contract";
import { pcieGeneration, usablePcieGbps } from "@/lib/diagnosis/format";
import { numberWord } from "@/lib/experiments/kinds/figures";
import {
  capitalized,
  countWord,
  endNic,
  fellShort,
  hint,
  lineRateOf,
  moreSevere,
  nicOf,
  ROLES,
  whatTheRunGave,
  type EndNic,
  type Role,
} from "./shared";
import type { RunEvidence } from "./types";
import { formatBitRate, formatLinkSpeed } from "@/lib/format";

export const PCIE_SLOT_TITLE = "PCIe slot too narrow or slow";

// Lane speeds of the PCIe generations, GT/s: the links a card and slot may have.
const LANE_SPEEDS = [2.5, 5, 8, 16, 32, 64];
const WIDTHS = [1, 2, 4, 8, 16];

/** Gbit/s after encoding of a link whose figures are known (both are checked before). */
function usableGbps(speedGTs: number, width: number): number {
  return usablePcieGbps(speedGTs, width) ?? 0;
}

/** 5, 4 → "PCIe 2.0 x4"; a speed of no generation keeps its figure: "6 GT/s x4". */
export function pcieLinkWords(speedGTs: number, width: number): string {
  const generation = pcieGeneration(speedGTs);
  return generation ? `PCIe ${generation} x${width}` : `${speedGTs} GT/s x${width}`;
}

/** The narrowest link at `fromGTs` or faster that carries `bitsPerSecond`, e.g. "PCIe 3.0 x4". */
function smallestLinkFor(bitsPerSecond: number, fromGTs: number): string | null {
  for (const speed of LANE_SPEEDS.filter((speed) => speed >= fromGTs)) {
    const width = WIDTHS.find((lanes) => usableGbps(speed, lanes) * 1e9 >= bitsPerSecond);
    if (width !== undefined) return pcieLinkWords(speed, width);
  }
  return null;
}

type EndFinding = { severity: HintSeverity; evidence: string; suggestion: string };

function findingAt(run: RunEvidence, role: Role): EndFinding | null {
  const nic = nicOf(run, role);
  const speedGTs = nic.pcie?.speedGTs ?? null;
  const width = nic.pcie?.width ?? null;
  if (speedGTs === null || width === null || !(speedGTs > 0 && width > 0)) return null;
  const lineRate = lineRateOf(run);
  const usable = usableGbps(speedGTs, width) * 1e9;
  const cardSpeed = Math.max(nic.pcie?.maxSpeedGTs ?? speedGTs, speedGTs);
  const cardWidth = Math.max(nic.pcie?.maxWidth ?? width, width);
  const belowCard = cardSpeed > speedGTs || cardWidth > width;
  const ports = portsOf(nic, run.linkSpeedMbps);
  const belowPorts = usable < ports.bitsPerSecond;
  if (!belowCard && !belowPorts) return null;

  const belowLink = lineRate !== null && usable < lineRate;
  const severity: HintSeverity = belowLink
    ? fellShort(run)
      ? "critical"
      : "warning"
    : belowPorts
      ? "warning"
      : "info";
  const now = pcieLinkWords(speedGTs, width);
  const lessThanLink = belowLink ? `, less than the link's ${formatBitRate(lineRate)}` : "";
  const parts = [
    `${capitalized(endNic(nic))} sits in a ${now} link, which gives about ${formatBitRate(usable)}${lessThanLink}`,
  ];
  if (belowCard)
    parts.push(
      `the card can do ${pcieLinkWords(cardSpeed, cardWidth)} (about ${formatBitRate(usableGbps(cardSpeed, cardWidth) * 1e9)})`,
    );
  // a card of one port at the link's speed: "less than the link's" says it all
  const portsSaid = belowPorts && !(ports.count === 1 && belowLink && ports.bitsPerSecond === lineRate);
  if (portsSaid) parts.push(`${ports.words} ${formatBitRate(ports.bitsPerSecond)}`);
  if (belowLink && fellShort(run)) parts.push(whatTheRunGave(run)!);
  const evidence = `${parts.join("; ")}.`;

  let suggestion: string;
  if (belowCard) {
    suggestion =
      `Move the card of ${endNic(nic)} to a slot that gives it ${pcieLinkWords(cardSpeed, cardWidth)}: ` +
      "many desktop boards wire their second x16 slot as x4 or run it through the chipset, " +
      "and some share lanes with M.2 slots; the board's manual says which slot has the full width.";
  } else {
    const enough = smallestLinkFor(ports.bitsPerSecond, cardSpeed);
    const carry =
      ports.count === 1
        ? `cannot carry its port's ${formatBitRate(ports.bitsPerSecond)}`
        : `cannot carry its ${numberWord(ports.count)} ports at once: expect about ${formatBitRate(usable)} across them together`;
    const fix = enough ? `; a card and slot with ${enough} or better carry ${formatBitRate(ports.bitsPerSecond)}` : "";
    suggestion = `The card's own ${now} link ${carry}${fix}.`;
  }
  return { severity, evidence, suggestion };
}

/** The line rates of the NIC's port and its card's other ports, and how to say them. */
function portsOf(nic: EndNic, linkSpeedMbps: number): { bitsPerSecond: number; count: number; words: string } {
  const own = { name: nic.name, speedMbps: nic.speedMbps ?? linkSpeedMbps };
  const ports = [
    own,
    ...nic.siblingPorts.filter(
      (port): port is { name: string; speedMbps: number } => port.speedMbps !== null && port.speedMbps > 0,
    ),
  ];
  const totalMbps = ports.reduce((total, port) => total + port.speedMbps, 0);
  if (ports.length === 1) return { bitsPerSecond: totalMbps * 1e6, count: 1, words: "its port carries" };
  const each = ports.every((port) => port.speedMbps === own.speedMbps)
    ? `${formatLinkSpeed(own.speedMbps)} each`
    : ports.map((port) => `${port.name} ${formatLinkSpeed(port.speedMbps)}`).join(", ");
  return {
    bitsPerSecond: totalMbps * 1e6,
    count: ports.length,
    words: `its ${countWord(ports.length, "port")} (${each}) carry`,
  };
}

export function pcieSlotRule(run: RunEvidence): Hint | null {
  const findings = ROLES.map((role) => findingAt(run, role)).filter(
    (finding): finding is EndFinding => finding !== null,
  );
  if (findings.length === 0) return null;
  const severity = findings.map((finding) => finding.severity).reduce(moreSevere);
  return hint(
    "pcie-slot",
    severity,
    PCIE_SLOT_TITLE,
    findings.map((finding) => finding.evidence).join(" "),
    findings.map((finding) => finding.suggestion).join(" "),
  );
}
