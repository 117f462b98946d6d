// Standard frames on a fast link: 1500-byte frames at 10 Gbit/s and more cost the hosts a
// packet per 1448 bytes of data; jumbo frames gave ×2.5 at 40G in seeds/002.
import type { Hint } from "@/lib/diagnosis/contract";
import { endNic, hint, listWords, nicOf, ROLES, setMtuCommand, TCP_IP_OVERHEAD } from "./shared";
import type { RunEvidence } from "./types";
import { formatLinkSpeed } from "@/lib/format";

export const STANDARD_FRAMES_TITLE = "Standard frames on a fast link";
/** Links from this speed on gain from jumbo frames. */
export const JUMBO_FROM_MBPS = 10_000;
export const STANDARD_MTU = 1500;
export const JUMBO_MTU = 9000;

export function standardFramesRule(run: RunEvidence): Hint | null {
  if (run.linkSpeedMbps < JUMBO_FROM_MBPS) return null;
  const known = ROLES.map((role) => nicOf(run, role)).filter((nic) => nic.mtu !== null);
  // one end on jumbo frames and the other not is an MTU mismatch, its own finding
  if (known.length === 0 || known.some((nic) => nic.mtu! > STANDARD_MTU)) return null;
  const mtus = known.map((nic) => nic.mtu!);
  const where =
    known.length === 1
      ? `MTU ${mtus[0]} on ${endNic(known[0]!)} (the other end's is not known)`
      : mtus[0] === mtus[1]
        ? `MTU ${mtus[0]} on both ends (${listWords(known.map(endNic))})`
        : `MTU ${mtus[0]} on ${endNic(known[0]!)} and ${mtus[1]} on ${endNic(known[1]!)}`;
  const evidence =
    `${where} of a ${formatLinkSpeed(run.linkSpeedMbps)} link: a frame carries at most ${Math.min(...mtus) - TCP_IP_OVERHEAD} bytes of TCP data, ` +
    `against ${JUMBO_MTU - TCP_IP_OVERHEAD} in a ${JUMBO_MTU}-byte one, so the hosts handle about six times the packets.`;
  const commands = ROLES.map((role) => nicOf(run, role)).flatMap((nic) => {
    const command = setMtuCommand(nic, JUMBO_MTU);
    return command ? [`on the ${nic.role}, ${command}`] : [];
  });
  const suggestion =
    `Try jumbo frames: MTU ${JUMBO_MTU} on both ends and every switch port between them${commands.length > 0 ? ` (${commands.join("; ")})` : ""}. ` +
    "At 40 Gbit/s they have given ×2.5.";
  return hint("standard-frames", "info", STANDARD_FRAMES_TITLE, evidence, suggestion);
}
