// Pure types of the platform agents: what the engine needs to know to run iperf3 on one kind of host.
// The dependency goes one way: agents/ imports lib/ssh's pure types, lib/ssh never imports agents/.
import type { EnvironmentSnapshot, PingLine } from "@/lib/diagnosis/contract";
import type { IperfVersion } from "@/lib/iperf";
import type { Platform } from "@/lib/platforms";
import type { CommandOutput, ExecCommand, ProcessControl, StopSignal } from "@/lib/ssh/types";

export type { CommandOutput, ExecCommand, Platform, StopSignal };

export type DetectResult = {
  platform: Platform;
  /** what the OS says it is (`uname -s`, `ver`) */
  os: string;
  /** the iperf3 that will run, or null when there is none */
  iperf3Path: string | null;
  version: IperfVersion | null;
  /** the `iperf3 -v` output as printed, for the user */
  versionText: string | null;
};

export type NicAddress = { address: string; prefixLength: number; family: "ipv4" | "ipv6" };

export type DiscoveredNic = {
  name: string;
  mac: string | null;
  mtu: number | null;
  /** negotiated link speed; null when the OS does not say (down, virtual, unknown) */
  speedMbps: number | null;
  duplex: "full" | "half" | null;
  isUp: boolean | null;
  /** global and site addresses; IPv6 link-local ones are left out (they cannot be bound without a zone) */
  addresses: NicAddress[];
  driver: string | null;
  /** PCIe link of the adapter, e.g. "8.0 GT/s PCIe" and 4 (Linux only) */
  pcieLinkSpeed: string | null;
  pcieLinkWidth: number | null;
  description: string | null;
};

export type StartCommandInput = {
  /** from detect, or the host's configured path */
  iperf3Path: string;
  /** from lib/iperf's buildServerArgv / buildClientArgv (without the binary) */
  args: readonly string[];
  /**
   * Where the agent `gatesStart`: the command prints `wirespeed-ready` once the host's shell is up,
   * then waits for one line on stdin before it starts the program. The SSH session (and the login
   * shell's own start-up) is then paid for before the moment that matters, and several programs
   * start within milliseconds of each other when their lines are written together.
   */
  gated?: boolean;
  /**
   * Where the agent's counter reader has a `script` (POSIX shells): the command also prints the NIC's
   * byte counters, once before the gate (or the start) and once after the program exits, each between
   * COUNTERS_BEFORE or COUNTERS_AFTER and COUNTERS_END lines, in the round trip the start already is.
   */
  counters?: { nicName: string; script: string };
  /**
   * The server's port: where the agent can see the kernel's listening sockets (Linux), the command
   * prints LISTENING_LINE once the program itself listens there (a socket of its own, not another
   * program's on that port), so that the client need not wait out a settle time. Elsewhere, nothing.
   */
  listenPort?: number;
};

/** Opening and restoring a host firewall around a test (ESXi). */
export type FirewallControl = {
  stateCommand(): ExecCommand;
  parseState(output: CommandOutput): { enabled: boolean };
  setCommand(enabled: boolean): ExecCommand;
};

/** What an agent's environment command reads, before the engine adds when and which iperf3. */
export type HostEnvironment = Omit<EnvironmentSnapshot, "readAt" | "iperf3Version">;

/**
 * Reading the environment of one end of a run: one command, one round trip, parsed per platform.
 * The NIC's name is data (an argument of the script, or matched in the parser), never code.
 */
export type EnvironmentReader = {
  command(nicName: string): ExecCommand;
  /** never throws: whatever cannot be read is null and named in `missing` */
  parse(output: CommandOutput, nicName: string): HostEnvironment;
};

/** A NIC's byte counters as its host keeps them (since boot, or since the driver last reset them). */
export type NicCounters = { txBytes: number; rxBytes: number };

/**
 * Reading a NIC's byte counters: one short command, or (`script`, POSIX shells) a snippet reading the NIC
 * named in `$n` that start commands embed (StartCommandInput.counters). The NIC's name is data.
 */
export type CounterReader = {
  command(nicName: string): ExecCommand;
  /** never throws: null when the output holds no counters of that NIC */
  parse(output: string, nicName: string): NicCounters | null;
  script?: string;
};

/** Pinging from one end of a link to the other, in this platform's syntax. */
export type PingSupport = {
  /** seconds between pings this platform sends (Windows cannot go below 1) */
  intervalSeconds: number;
  /**
   * `count` pings from the address `source` to `address`, one line per reply (or lost request where
   * the platform prints one); long-running, stopped like the iperf3 client (printsPid, then a signal).
   */
  command(input: { address: string; source: string; count: number }): ExecCommand;
  /** a reply or a lost request, or null for any other line (the header, the statistics) */
  parseLine(line: string): PingLine | null;
};

/**
 * One platform. Every member is pure: it builds commands (argv plus this platform's quoting) or
 * parses what they printed; lib/ssh runs them. A new platform is a new file of this shape
 * (see README.md). stopCommand, isRunningCommand and parseIsRunning are what lib/ssh's stopProcess uses.
 */
export type PlatformAgent = ProcessControl & {
  platform: Platform;
  /** what PLATFORM_PROBE (`uname -s || ver`) prints on this platform */
  probeAnswer: RegExp;
  /** where iperf3 is when the host does not say */
  defaultIperf3Path: string;
  /** argv → one command string that this platform's login shell turns back into exactly argv */
  quote(argv: readonly string[]): string;
  /** argv with this platform's quoting attached, ready for execStream */
  command(argv: readonly string[]): ExecCommand;
  /** run in order with execCapture; their outputs go to parseDetect in the same order, with the same path */
  detectCommands(iperf3Path?: string): ExecCommand[];
  parseDetect(outputs: readonly CommandOutput[], iperf3Path?: string): DetectResult;
  /** whether serverCommand/clientCommand print `wirespeed-pid <n>` as their first stdout line */
  printsPid: boolean;
  /** whether serverCommand/clientCommand honour `gated` (StartCommandInput) */
  gatesStart: boolean;
  /** a one-shot iperf3 server, long-running: keep its channel open until it exits */
  serverCommand(input: StartCommandInput): ExecCommand;
  clientCommand(input: StartCommandInput): ExecCommand;
  /**
   * Present where the platform's `ps` can name a PID's program: a PID recorded before a restart may
   * belong to another program by now, and is stopped only if this prints iperf3.
   */
  programNameCommand?(pid: number): ExecCommand;
  discoverNicsCommand(): ExecCommand;
  parseNics(output: string): DiscoveredNic[];
  /** present where the platform's firewall blocks iperf3 by default and can be opened per test */
  firewall?: FirewallControl;
  environment: EnvironmentReader;
  ping: PingSupport;
  /** the byte counters of a NIC, which prove that a test's bytes went through it */
  counters: CounterReader;
};
