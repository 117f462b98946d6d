// What the engine needs from a host to run iperf3 there. lib/runs/remote-agents.ts
// implements it with lib/ssh and agents/; tests may pass their own.
import type { HostEnvironment, PingSupport } from "@/agents/types";
import type { IperfPlatform, IperfVersion } from "@/lib/iperf";
import type { HostTarget } from "@/lib/ssh/types";
import type { CounterReadings } from "./path-check";

/** An end Wirespeed logs in to (access "ssh") and runs iperf3 on. */
export type RunEndpoint = {
  access: "ssh";
  hostId: number;
  hostName: string;
  platform: IperfPlatform;
  target: HostTarget;
  /** the iperf3 binary as configured or last detected; null: the agent's default */
  iperf3Path: string | null;
  portRange: { min: number; max: number };
  /** the NIC's address, without prefix length: what iperf3 binds to */
  address: string;
  /** the NIC's name on its host, whose environment the run's snapshot reads */
  nicName: string;
  /** the user's opt-in to open the host's firewall (ESXi) for the test and restore it after */
  openFirewall: boolean;
};

/**
 * An iperf3 server Wirespeed does not manage (access "iperf3-server"): no login, so no iperf3 to find,
 * no environment to read, no firewall and no server process; its servers listen on `portRange`.
 */
export type ExternalServerEndpoint = {
  access: "iperf3-server";
  hostId: number;
  hostName: string;
  portRange: { min: number; max: number };
  /** the NIC's address, without prefix length: what the client connects to */
  address: string;
  nicName: string;
};

/** The server's end of a run: a host Wirespeed runs iperf3 on, or an iperf3 server it does not manage. */
export type ServerEndpoint = RunEndpoint | ExternalServerEndpoint;

export type ProcessCallbacks = {
  onStdoutLine: (line: string) => void;
  onStderrLine: (line: string) => void;
};

export type RemoteProcess = {
  /** the command as the host's shell sees it, for the user to reproduce by hand */
  commandLine: string;
  /** resolves with the process id once the process has reported it */
  pid: Promise<number | null>;
  /** resolves when the process has exited (or its channel closed) */
  done: Promise<{ exitCode: number | null }>;
  /** asks the process to stop (SIGINT first, so a client prints its partial summary) and waits for it */
  stop: () => Promise<void>;
  /** started `gated`: resolves once release() would start it at once (its host's shell is up); otherwise at once */
  ready: Promise<void>;
  /** starts a process started `gated` (no-op otherwise); several released together start within milliseconds */
  release: () => void;
  /**
   * Started with `counters`: its NIC's byte counters before it started and after it ended, once the
   * second is read (after `done`); a reading that failed is null. Absent where none were asked for.
   */
  counters?: Promise<CounterReadings>;
  /**
   * Started with `listenPort`: resolves once the host saw the program itself listen on that port
   * (StartCommandInput.listenPort); never where the platform cannot tell. Absent where none was asked for.
   */
  listening?: Promise<void>;
};

export type RunRemote = {
  /** The host's iperf3: where it is and which version. Throws an error with `kind` on failure. */
  detectIperf(endpoint: RunEndpoint, signal: AbortSignal): Promise<{ path: string; version: IperfVersion }>;
  /** Starts iperf3 (argv without the binary) on the host and streams its output. */
  startIperf(
    endpoint: RunEndpoint,
    role: "server" | "client",
    iperf3Path: string,
    argv: string[],
    callbacks: ProcessCallbacks,
    /**
     * pty: for iperf3 before 3.1.5, which has no --forceflush and would print everything at the end.
     * gated: nothing starts until release(); where the platform allows, the SSH session and the host's
     * shell are set up now, so that release() starts iperf3 itself at once.
     * counters: the endpoint's NIC's byte counters are read around the process (RemoteProcess.counters),
     * inside its own command where the platform's shell can, else with one short command before and after.
     * listenPort: a server's port, watched on the host where it can be (RemoteProcess.listening).
     */
    options?: { pty?: boolean; gated?: boolean; counters?: boolean; listenPort?: number },
  ): RemoteProcess;
  /**
   * Opens the host's firewall for a test where the platform has one and the user opted in;
   * returns the function that restores it (a no-op when nothing was changed).
   */
  openFirewall(endpoint: RunEndpoint): Promise<() => Promise<void>>;
  /**
   * The host's environment around the endpoint's NIC, read with one command. Throws only when the
   * host cannot be reached or the command fails outright; the engine records that as missing.
   */
  readEnvironment(endpoint: RunEndpoint, signal: AbortSignal): Promise<HostEnvironment>;
  /**
   * Pings `address` from the endpoint's address for up to `seconds` (latency under load), stopped
   * like iperf3; `ping` gives the platform's interval and line parser once its agent is known.
   */
  startPing(
    endpoint: RunEndpoint,
    address: string,
    seconds: number,
    callbacks: ProcessCallbacks,
  ): { process: RemoteProcess; ping: Promise<Pick<PingSupport, "intervalSeconds" | "parseLine">> };
  /** Stops iperf3 processes a previous instance of the app left behind, by pid, if they are still iperf3. */
  stopLeftover(endpoint: RunEndpoint, pids: number[]): Promise<void>;
};
