// Bufferbloat: the round trip grows under load because a queue on the path holds too much
// (grade C or worse: the median rose by 30 ms or more).
import type { BufferbloatGrade, Hint, HintSeverity } from "@/lib/diagnosis/contract";
import { endNic, formatMs, hint, nicOf } from "./shared";
import type { RunEvidence } from "./types";

export const BUFFERBLOAT_TITLE = "Latency grows under load";

const SEVERITIES: Partial<Record<BufferbloatGrade, HintSeverity>> = { C: "warning", D: "critical", F: "critical" };

export function bufferbloatRule(run: RunEvidence): Hint | null {
  const latency = run.latency;
  const severity = latency?.grade ? SEVERITIES[latency.grade] : undefined;
  if (!latency || !severity || latency.idleMedianMs === null || latency.loadedMedianMs === null) return null;
  const p95 = latency.loadedP95Ms !== null ? ` (p95 ${formatMs(latency.loadedP95Ms)})` : "";
  const evidence =
    `The median round trip went from ${formatMs(latency.idleMedianMs)} idle to ${formatMs(latency.loadedMedianMs)} under load${p95}: ` +
    `${formatMs(latency.loadedMedianMs - latency.idleMedianMs)} more, grade ${latency.grade}.`;
  // The queue that fills is where the traffic leaves fastest for a slower hop: first the sender's own NIC.
  const sender = nicOf(run, run.options.reverse ? "server" : "client");
  const command = sender.platform === "linux" ? ` (tc qdisc replace dev ${sender.name} root fq_codel)` : "";
  const suggestion =
    `Find the queue that fills and keep it short: an active queue manager such as fq_codel or cake on ${endNic(sender)}${command}, ` +
    "on the router or switch port where the path narrows, or a shaper set a little below the slowest hop with a short buffer.";
  return hint("bufferbloat", severity, BUFFERBLOAT_TITLE, evidence, suggestion);
}
