// Retransmits: more than 1% of the TCP segments sent were sent again. Segments are counted
// from the bytes sent and the MSS: the run's -M, else the smaller MTU of the two ends less the
// IPv4, TCP and timestamp headers (1500 when neither end's MTU is known).
import type { Hint } from "@/lib/diagnosis/contract";
import {
  capitalized,
  endNic,
  fellShort,
  flowsOf,
  flowWord,
  formatBytesWord,
  hint,
  listWords,
  nicOf,
  ROLES,
  TCP_IP_OVERHEAD,
  whatTheRunGave,
  type EndNic,
  type Flow,
} from "./shared";
import type { RunEvidence } from "./types";
import { formatPercentWord } from "@/lib/format";

export const RETRANSMITS_TITLE = "Retransmits above 1%";
export const RETRANSMITS_PERCENT = 1;
const DEFAULT_MTU = 1500;

const COUNT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** The MSS the run's segments had: -M, else the path's MTU (the smaller end's) less the headers. */
export function mssOf(run: RunEvidence): number {
  if (run.options.mss !== undefined) return run.options.mss;
  const mtus = ROLES.map((role) => nicOf(run, role).mtu).filter((mtu): mtu is number => mtu !== null);
  return (mtus.length > 0 ? Math.min(...mtus) : DEFAULT_MTU) - TCP_IP_OVERHEAD;
}

type Finding = { flow: Flow; segments: number; percent: number };

function ringAdvice(receiver: EndNic): string {
  const rings = receiver.rings;
  if (rings?.rx === null || rings?.rx === undefined || rings.rxMax === null || rings.rx >= rings.rxMax) {
    return `raise the receive ring of ${endNic(receiver)} to its maximum`;
  }
  const command = receiver.platform === "linux" ? ` (ethtool -G ${receiver.name} rx ${rings.rxMax})` : "";
  return `raise the receive ring of ${endNic(receiver)} from ${rings.rx} to ${rings.rxMax}${command}`;
}

export function retransmitsRule(run: RunEvidence): Hint | null {
  if (run.options.protocol !== "tcp" || run.status !== "succeeded") return null;
  const mss = mssOf(run);
  const findings = flowsOf(run)
    .filter((flow) => flow.retransmits !== null && flow.sentBytes !== null && flow.sentBytes > 0)
    .map((flow): Finding => {
      const segments = flow.sentBytes! / mss;
      return { flow, segments, percent: (flow.retransmits! / segments) * 100 };
    })
    .filter((finding) => finding.percent > RETRANSMITS_PERCENT);
  if (findings.length === 0) return null;
  const short = fellShort(run);
  const figures = findings.map(({ flow, segments, percent }) => {
    const where = run.options.bidir ? `${flowWord(run, flow)}: ` : "";
    return (
      `${where}${COUNT.format(flow.retransmits!)} retransmits ` +
      `of about ${COUNT.format(Number(segments.toPrecision(3)))} segments sent ` +
      `(${formatPercentWord(percent)}; ${formatBytesWord(flow.sentBytes!)} at an MSS of ${mss} bytes)`
    );
  });
  const halfDuplex = ROLES.map((role) => nicOf(run, role)).filter((nic) => nic.duplex === "half");
  const notes = [
    ...(halfDuplex.length > 0
      ? [`${listWords(halfDuplex.map(endNic))} ${halfDuplex.length === 1 ? "runs" : "run"} at half duplex`]
      : []),
    ...(short ? [whatTheRunGave(run)!] : []),
  ];
  const evidence = `${capitalized(figures.join("; "))}${notes.length > 0 ? `; ${notes.join("; ")}` : ""}.`;
  const receivers = [...new Set(findings.map((finding) => finding.flow.receiver))].map((role) => nicOf(run, role));
  const suggestion =
    "Check the cable and the transceivers, and that both ports run full duplex; then the receiver, which drops what it cannot take in time " +
    `(its missed and no-buffer counters): ${listWords(receivers.map(ringAdvice))}, and its socket buffers.`;
  return hint("retransmits", short ? "critical" : "warning", RETRANSMITS_TITLE, evidence, suggestion);
}
