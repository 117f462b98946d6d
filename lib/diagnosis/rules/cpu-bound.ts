// CPU bound: an end's iperf3 used (nearly) a whole core, so the host, not the link, set the rate.
import type { Hint, HintSeverity } from "@/lib/diagnosis/contract";
import { CPU_BOUND_PERCENT, fellShort, flowsOf, hint, listWords, ROLES, whatTheRunGave, type Role } from "./shared";
import type { RunEvidence } from "./types";
import { formatPercentWord } from "@/lib/format";

export const CPU_BOUND_TITLE = "CPU bound";

function cpuOf(run: RunEvidence, role: Role): number | null {
  return role === "client" ? run.clientCpuPercent : run.serverCpuPercent;
}

export function cpuBoundRule(run: RunEvidence): Hint | null {
  const busy = ROLES.filter((role) => (cpuOf(run, role) ?? 0) >= CPU_BOUND_PERCENT);
  if (busy.length === 0) return null;
  const short = fellShort(run);
  // Busy but at the line rate: nothing lost yet, and no headroom either.
  const severity: HintSeverity = short ? "critical" : "info";
  const [first, second] = ROLES.filter((role) => cpuOf(run, role) !== null);
  const figures =
    `The ${first}'s iperf3 used ${formatPercentWord(cpuOf(run, first!)!)} CPU` +
    (second ? `, the ${second}'s ${formatPercentWord(cpuOf(run, second)!)}` : "");
  const gave = whatTheRunGave(run);
  const evidence =
    `${figures} (${CPU_BOUND_PERCENT}% or more is a full core)` +
    (gave ? `; ${gave}${short ? "" : ": the link was full, but the host has no headroom"}` : "") +
    ".";

  const senders = new Set(flowsOf(run).map((flow) => flow.sender));
  const ways: string[] = [];
  if (run.options.parallel === 1 && !run.isChannel) ways.push("more streams (-P 4)");
  if (!run.options.affinity)
    ways.push("channels pinned to cores of their own (a channels experiment with affinity, -A)");
  if (!run.options.zerocopy && run.options.protocol === "tcp" && busy.some((role) => senders.has(role)))
    ways.push("zero-copy sending (-Z)");
  ways.push(`a faster host at ${listWords(busy.map((role) => `the ${role}`))}`);
  const suggestion = `Spread or lighten the work: ${ways.slice(0, -1).join(", ")}${ways.length > 1 ? ", or " : ""}${ways.at(-1)}.`;
  return hint("cpu-bound", severity, CPU_BOUND_TITLE, evidence, suggestion);
}
