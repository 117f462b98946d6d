// Negotiated below nominal: a NIC linked up slower than the link is meant to run (a 10G port
// at 1G, a 2.5G one at 100M): the cable, a transceiver or the switch port.
import type { Hint } from "@/lib/diagnosis/contract";
import { capitalized, endNic, fellShort, hint, listWords, nicOf, ROLES, whatTheRunGave } from "./shared";
import type { RunEvidence } from "./types";
import { formatLinkSpeed } from "@/lib/format";

export const NEGOTIATED_SPEED_TITLE = "A NIC negotiated below the link's speed";

export function negotiatedSpeedRule(run: RunEvidence): Hint | null {
  const slow = ROLES.map((role) => nicOf(run, role)).filter(
    (nic) => nic.speedMbps !== null && nic.speedMbps < run.linkSpeedMbps,
  );
  if (slow.length === 0) return null;
  const short = fellShort(run);
  const ends = slow.map(
    (nic) =>
      `${endNic(nic)} negotiated ${formatLinkSpeed(nic.speedMbps!)}${nic.duplex === "half" ? " at half duplex" : ""}`,
  );
  const gave = short ? whatTheRunGave(run) : null;
  const evidence = `${capitalized(listWords(ends))} on a ${formatLinkSpeed(run.linkSpeedMbps)} link${gave ? `; ${gave}` : ""}.`;
  const suggestion =
    `Check the cable (Cat6a or better for 10GBASE-T, a DAC or fibre rated for the speed), the transceivers and the switch port's speed setting ` +
    `(auto-negotiation on at both ends): ${listWords(slow.map((nic) => nic.name))} should link at ${formatLinkSpeed(run.linkSpeedMbps)}.`;
  return hint("negotiated-below-nominal", short ? "critical" : "warning", NEGOTIATED_SPEED_TITLE, evidence, suggestion);
}
