// What the hint rules read: a run or an experiment as the database knows it, built by
// lib/diagnosis/reads.ts. Pure types: the rules never reach the database themselves.
import type { Hint, LatencySummary, RunEnvironment } from "@/lib/diagnosis/contract";
import type { ExperimentKind } from "@/lib/experiments/contract";
import type { IperfOptions } from "@/lib/iperf/options";
import type { ClientSide, PathCheck } from "@/lib/runs/contract";

/** What the inventory knows of a NIC (from discovery or typed by the user). */
export type NicFacts = {
  name: string;
  speedMbps: number | null;
  mtu: number | null;
  pcieLinkSpeed: string | null;
  pcieLinkWidth: number | null;
  driver: string | null;
};

export type RunEvidence = {
  runId: number;
  /** succeeded | failed | …: rules about rates need a result */
  status: string;
  options: IperfOptions;
  clientSide: ClientSide;
  /** the link's nominal line rate */
  linkSpeedMbps: number;
  /** the run's direction (the data sender's, client unless -R): rate, bytes sent, retransmits */
  receivedBitsPerSecond: number | null;
  /** the second direction of a --bidir run (server to client) */
  reverseReceivedBitsPerSecond: number | null;
  sentBytes: number | null;
  retransmits: number | null;
  reverseSentBytes: number | null;
  reverseRetransmits: number | null;
  clientCpuPercent: number | null;
  serverCpuPercent: number | null;
  /** snapshots; null for runs from before snapshots */
  environment: RunEnvironment | null;
  nics: { client: NicFacts; server: NicFacts };
  latency: LatencySummary | null;
  /** one of several iperf3 processes at once (a channels experiment's channel) */
  isChannel: boolean;
  /** where the bytes went (lib/runs/path-check.ts); null for a run that was not checked */
  pathCheck: PathCheck | null;
  /** each end's host and the address its NIC has in the inventory (the address a route to it is asked for) */
  hosts: { client: { name: string; address: string | null }; server: { name: string; address: string | null } };
  /** the latest comparable run the other way over the link (same protocol, streams), for asymmetry */
  opposite: { runId: number; receivedBitsPerSecond: number | null } | null;
};

export type ExperimentEvidence = {
  experimentId: number;
  kind: ExperimentKind;
  /** the kind's result type (lib/experiments/contract.ts): narrow it by kind */
  result: unknown;
  /** the (first) link's line rate */
  linkSpeedMbps: number;
  /** its runs, for the rules that read runs */
  runs: RunEvidence[];
};

/** One rule over one run: its finding, or null. */
export type RunRule = (run: RunEvidence) => Hint | null;

/** One rule over an experiment's result. */
export type ExperimentRule = (experiment: ExperimentEvidence) => Hint | null;
