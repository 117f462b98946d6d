// Off the link: the NIC that sent the test's bytes counted only a small share of them
// (lib/runs/path-check.ts), so they left by another port. A route, or a second address in the
// same subnet on the management port, sends a test bound to the link's addresses the wrong way,
// and the result reads as a slow (or a fine) link that was never measured.
import type { Hint } from "@/lib/diagnosis/contract";
import { formatPercentWord } from "@/lib/format";
import type { Platform } from "@/lib/platforms";
import { hint, nicOf, otherRole } from "./shared";
import type { RunEvidence } from "./types";

export const OFF_LINK_TITLE = "The test took another route";

/** The command that shows which NIC a host sends to `address` by, in its platform's words. */
function routeCommand(platform: Platform | null, address: string): string {
  switch (platform) {
    case "windows":
      return `Find-NetRoute -RemoteIPAddress ${address}`;
    case "macos":
    case "freebsd":
      return `route -n get ${address}`;
    case "esxi":
      return `esxcli network ip route ipv4 list`;
    default:
      return `ip route get ${address}`;
  }
}

export function offLinkRule(run: RunEvidence): Hint | null {
  const check = run.pathCheck;
  if (check?.verdict !== "off-link" || check.sender === null || check.percent === null) return null;
  const sender = check.sender;
  const nic = check[sender]?.nic ?? run.nics[sender].name;
  const host = run.hosts[sender].name;
  const peer = run.hosts[otherRole(sender)].address ?? "the other end's address";
  const command = routeCommand(nicOf(run, sender).platform, peer);
  return hint(
    "off-link",
    "critical",
    OFF_LINK_TITLE,
    `Only ${formatPercentWord(check.percent)} of the bytes iperf3 sent went through ${nic} on ${host}: ` +
      `the test took another route (check \`${command}\` on ${host}).`,
    `A route, or a second address on another NIC (often the management port), sends the traffic to ${peer} out of ` +
      `another interface than ${nic}. Remove that route or address, or give the link's NICs a subnet of their own, ` +
      `then run the test again: this result does not count toward the link's baseline.`,
  );
}
