import type { EnvironmentSnapshot } from "@/lib/diagnosis/contract";
import type { IperfOptions, IperfParser, IperfResult, IperfVersion } from "@/lib/iperf";
import type { ExternalServer } from "./external-server";
import type { LatencyProbe } from "./latency-probe";
import type { RemoteProcess, RunEndpoint, ServerEndpoint } from "./remote";
import type { ListeningServer } from "./server-start";

// The phases of one run (lib/runs/execution.ts). Each step takes the value of the phase before
// it and gives the next one, which has everything the earlier ones had: what a phase holds is
// there from the moment it is reached, never filled in later.
//
//   resolve → Resolved → prepare → Prepared → listen → Listening → (client ready) → idle → Ready
//           → startClient → Streaming → stream → Finished

/** The client always runs on a host Wirespeed manages; the server's end may be an iperf3 server it does not. */
export type RunEndpoints = { client: RunEndpoint; server: ServerEndpoint };

/** iperf3 as found on a host: where it is and which version. */
export type Detected = { path: string; version: IperfVersion };

/**
 * iperf3 at the server's end: as found on a host Wirespeed runs it on, or nothing looked for on an
 * iperf3 server it does not manage (it cannot log in there).
 */
export type ServerIperf = ({ access: "ssh" } & Detected) | { access: "iperf3-server" };

/** The run's options and both ends. */
export type Resolved = { options: IperfOptions; endpoints: RunEndpoints };

/** iperf3 found on both hosts (on the client's only, against an unmanaged server), and each end's environment as read then. */
export type Prepared = Resolved & {
  iperf: { client: Detected; server: ServerIperf };
  environment: { client: EnvironmentSnapshot; server: EnvironmentSnapshot };
};

/** The client, opened gated: its host's shell is set up, its iperf3 starts when released. */
export type RunClient = {
  process: RemoteProcess;
  parser: IperfParser;
  /** how many intervals it gave: a client refused before the server listened gave none */
  intervals: number;
};

/**
 * The server listening on `port`, and the client opened for that port. The server is the one-off
 * iperf3 Wirespeed started (a managed ListeningServer), or an iperf3 server it does not manage, with
 * the client's tries of its ports (`port` is the one tried now).
 */
export type Listening = Prepared & { port: number; server: ListeningServer | ExternalServer; client: RunClient };

/** The client's host ready and, for a run that asked for latency, the idle pings done (`latency` null otherwise). */
export type Ready = Listening & { latency: LatencyProbe | null };

/** The client's iperf3 started at `startedAt`: its intervals are stored and published as they arrive. */
export type Streaming = Ready & { startedAt: Date };

/**
 * The client ended: what it measured and how it exited. `client` is the one that ran to the end (a
 * client refused by a server that was slow to listen starts again). Once the server's own report is
 * read, `result` has the figures it made exact.
 */
export type Finished = Streaming & { result: IperfResult; clientExitCode: number | null };

/** Each phase by name, in the order a run goes through them; `created` is a run none of whose steps succeeded yet. */
export type Phases = {
  created: null;
  resolved: Resolved;
  prepared: Prepared;
  listening: Listening;
  ready: Ready;
  streaming: Streaming;
  finished: Finished;
};
export type PhaseName = keyof Phases;
export const PHASE_ORDER: readonly PhaseName[] = [
  "created",
  "resolved",
  "prepared",
  "listening",
  "ready",
  "streaming",
  "finished",
];

/** The phase a run has reached, and its value. */
export type Reached = { [Name in PhaseName]: { name: Name; value: Phases[Name] } }[PhaseName];

/** The value of `name` or of any later phase (which has all it has), or null when the run has not got that far. */
export function reachedSince<Name extends Exclude<PhaseName, "created">>(
  reached: Reached,
  name: Name,
): Phases[Name] | null {
  return PHASE_ORDER.indexOf(reached.name) >= PHASE_ORDER.indexOf(name) ? (reached.value as Phases[Name]) : null;
}
