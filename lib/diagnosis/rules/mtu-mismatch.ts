// MTU mismatch: the two ends of the link use different MTUs. TCP settles on the smaller, but
// anything that relies on the larger (UDP, a path MTU discovery that ICMP filters break) loses.
import type { Hint } from "@/lib/diagnosis/contract";
import { capitalized, endNic, hint, nicOf, setMtuCommand } from "./shared";
import type { RunEvidence } from "./types";

export const MTU_MISMATCH_TITLE = "The ends' MTUs differ";

export function mtuMismatchRule(run: RunEvidence): Hint | null {
  const client = nicOf(run, "client");
  const server = nicOf(run, "server");
  if (client.mtu === null || server.mtu === null || client.mtu === server.mtu) return null;
  const [smaller, larger] = client.mtu < server.mtu ? [client, server] : [server, client];
  const evidence = `${capitalized(endNic(client))} has MTU ${client.mtu}, ${endNic(server)} MTU ${server.mtu}.`;
  const raise = setMtuCommand(smaller, larger.mtu!);
  const lower = setMtuCommand(larger, smaller.mtu!);
  const suggestion =
    `Set both ends, and every switch port between them, to the same MTU: raise ${endNic(smaller)} to ${larger.mtu}${raise ? ` (${raise})` : ""}, ` +
    `or lower ${endNic(larger)} to ${smaller.mtu}${lower ? ` (${lower})` : ""}.`;
  return hint("mtu-mismatch", "warning", MTU_MISMATCH_TITLE, evidence, suggestion);
}
