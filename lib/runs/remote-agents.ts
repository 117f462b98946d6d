import "server-only";
import {
  CounterBlocks,
  LISTENING_LINE,
  parsePidLine,
  type ExecCommand,
  type NicCounters,
  type PlatformAgent,
  type StartCommandInput,
} from "@/agents";
import { requireIperf, resolveAgent } from "@/lib/hosts/remote";
import { execCapture, execStream, stopProcess } from "@/lib/ssh";
import type { CounterReadings } from "./path-check";
import type { ProcessCallbacks, RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { valueWithin } from "./timers";

// RunRemote over lib/ssh and the platform agents: the engine's only way onto a host.

const STOP_WAIT_MS = 15_000;
const PS_TIMEOUT_MS = 20_000;
// One command reads the environment; a host slower than this is recorded as not read, the run goes on.
const ENVIRONMENT_TIMEOUT_MS = 15_000;
// A NIC's counters read alone (where the start command cannot hold them): a host slower than this leaves them unread.
const COUNTERS_TIMEOUT_MS = 10_000;

const agentFor = (endpoint: RunEndpoint, signal?: AbortSignal) =>
  resolveAgent(endpoint.target, endpoint.platform, signal);

// Runs at once on one host share its opened firewall: the first opens it, the last one restores it.
const openFirewalls = new Map<number, { users: number; wasEnabled: boolean }>();

export const agentRunRemote: RunRemote = {
  async detectIperf(endpoint, signal) {
    return requireIperf(endpoint.target, await agentFor(endpoint, signal), endpoint.iperf3Path, signal);
  },

  startIperf(endpoint, role, iperf3Path, argv, callbacks: ProcessCallbacks, options = {}): RemoteProcess {
    return startProcess(
      endpoint,
      (agent, gated, counters) => {
        const input = { iperf3Path, args: argv, gated, counters, listenPort: options.listenPort };
        return role === "server" ? agent.serverCommand(input) : agent.clientCommand(input);
      },
      // The line a user would type: the iperf3 command itself, quoted for that host's shell.
      (agent) => agent.quote([iperf3Path, ...argv]),
      [iperf3Path, ...argv].join(" "),
      callbacks,
      options,
    );
  },

  async readEnvironment(endpoint, signal) {
    const agent = await agentFor(endpoint, signal);
    const command = agent.environment.command(endpoint.nicName);
    const output = await execCapture(endpoint.target, command, { timeoutMs: ENVIRONMENT_TIMEOUT_MS, signal });
    return agent.environment.parse(output, endpoint.nicName);
  },

  startPing(endpoint, address, seconds, callbacks) {
    const build = (agent: PlatformAgent) =>
      agent.ping.command({ address, source: endpoint.address, count: Math.ceil(seconds / agent.ping.intervalSeconds) });
    const process = startProcess(endpoint, build, () => `ping ${address}`, `ping ${address}`, callbacks, {});
    return { process, ping: agentFor(endpoint).then((agent) => agent.ping) };
  },

  async openFirewall(endpoint) {
    const agent = await agentFor(endpoint);
    const firewall = agent.firewall;
    if (!firewall || !endpoint.openFirewall) return async () => {};
    const open = openFirewalls.get(endpoint.hostId);
    if (open) {
      open.users += 1;
    } else {
      const state = firewall.parseState(
        await execCapture(endpoint.target, firewall.stateCommand(), { timeoutMs: PS_TIMEOUT_MS }),
      );
      openFirewalls.set(endpoint.hostId, { users: 1, wasEnabled: state.enabled });
      if (state.enabled) await execCapture(endpoint.target, firewall.setCommand(false), { timeoutMs: PS_TIMEOUT_MS });
    }
    return async () => {
      const entry = openFirewalls.get(endpoint.hostId);
      if (!entry) return;
      entry.users -= 1;
      if (entry.users > 0) return;
      openFirewalls.delete(endpoint.hostId);
      if (entry.wasEnabled) await execCapture(endpoint.target, firewall.setCommand(true), { timeoutMs: PS_TIMEOUT_MS });
    };
  },

  async stopLeftover(endpoint, pids) {
    const agent = await agentFor(endpoint);
    for (const pid of pids) {
      // A pid from before a restart may belong to another program by now: only iperf3 is stopped
      // (where the platform cannot name a pid's program, the pid is trusted).
      if (agent.programNameCommand) {
        const name = await execCapture(endpoint.target, agent.programNameCommand(pid), { timeoutMs: PS_TIMEOUT_MS });
        if (!name.stdout.includes("iperf3")) continue;
      }
      await stopProcess(endpoint.target, agent, pid, { signals: ["TERM", "KILL"] });
    }
  },
};

/**
 * Starts a long-running command on a host and streams its lines: `build` gives the platform's
 * command (told whether the host's shell holds it at a gate until release()), `quotedLine` the
 * line a user would type there. The process reports its PID where the platform prints one, and
 * dies with its channel.
 */
function startProcess(
  endpoint: RunEndpoint,
  build: (agent: PlatformAgent, gated: boolean, counters?: StartCommandInput["counters"]) => ExecCommand,
  quotedLine: (agent: PlatformAgent) => string,
  plainLine: string,
  callbacks: ProcessCallbacks,
  options: { pty?: boolean; gated?: boolean; counters?: boolean; listenPort?: number },
): RemoteProcess {
  const agentPromise = agentFor(endpoint);
  const channel = new AbortController();
  let resolvePid: (pid: number | null) => void = () => {};
  const pid = new Promise<number | null>((resolve) => (resolvePid = resolve));
  let commandLine = plainLine;
  // The gate: `released` once release() is called; `writeStdin` once the channel takes input.
  let isReleased = !options.gated;
  let isCancelled = false;
  let writeStdin: ((text: string) => void) | null = null;
  let openGate = () => {};
  const gateOpened = new Promise<void>((resolve) => (openGate = resolve));
  let markReady = () => {};
  const readyLine = new Promise<void>((resolve) => (markReady = resolve));
  let markListening = () => {};
  const listening = new Promise<void>((resolve) => (markListening = resolve));
  // A NIC without a name has no counters to read: its run's path check is unknown.
  const nicName = endpoint.nicName.trim();
  const blocks = options.counters && nicName !== "" ? new CounterBlocks() : null;
  let readCounters: () => Promise<CounterReadings | null> = async () => null;

  const done = agentPromise.then(async (agent) => {
    const reader = agent.counters;
    // The counters in the start command itself where the shell can print them; else one short command before and after.
    const isInline = blocks !== null && reader.script !== undefined;
    const readAlone = () =>
      execCapture(endpoint.target, reader.command(nicName), { timeoutMs: COUNTERS_TIMEOUT_MS })
        .then((output) => reader.parse(output.stdout, nicName))
        .catch(() => null);
    const parsed = (text: string | null): NicCounters | null => (text === null ? null : reader.parse(text, nicName));
    const before = blocks && !isInline ? await readAlone() : null;
    if (blocks)
      readCounters = async () =>
        isInline
          ? { nic: nicName, before: parsed(blocks.before), after: parsed(blocks.after) }
          : { nic: nicName, before, after: await readAlone() };
    // A host whose shell cannot wait for the go (Windows, or a pty) starts the command only when released.
    const isGatedRemotely = !!options.gated && agent.gatesStart && !options.pty;
    if (options.gated && !isGatedRemotely) {
      markReady();
      await gateOpened;
      if (isCancelled) return { exitCode: null };
    }
    const inline = isInline ? { nicName, script: reader.script! } : undefined;
    const command = { ...build(agent, isGatedRemotely, inline), pty: options.pty };
    let isPidSeen = !agent.printsPid;
    let isReadySeen = !isGatedRemotely;
    if (!agent.printsPid) resolvePid(null);
    try {
      const result = await execStream(endpoint.target, command, {
        signal: channel.signal,
        onStdin: (write) => {
          writeStdin = write;
          if (isReleased && isGatedRemotely) write("go\n");
        },
        onStdoutLine: (line) => {
          if (isInline && blocks?.push(line)) return;
          if (options.listenPort !== undefined && line === LISTENING_LINE) {
            markListening();
            return;
          }
          if (!isReadySeen && line === "wirespeed-ready") {
            isReadySeen = true;
            markReady();
            return;
          }
          if (!isPidSeen) {
            const found = parsePidLine(line);
            if (found !== null) {
              isPidSeen = true;
              resolvePid(found);
              return;
            }
          }
          callbacks.onStdoutLine(line);
        },
        onStderrLine: callbacks.onStderrLine,
      });
      return { exitCode: result.exitCode };
    } finally {
      resolvePid(null);
    }
  });
  // An argument the shell cannot quote fails the start itself (in the agent's command); here it only keeps the plain line.
  void agentPromise.then(
    (agent) => {
      try {
        commandLine = quotedLine(agent);
      } catch {
        // keep the unquoted line for display
      }
    },
    () => undefined,
  );

  // Read once the process has ended, whatever its end: a reading that failed is null, never a failed run.
  const counters = blocks
    ? done
        .catch(() => undefined)
        .then(() => readCounters())
        .catch(() => null)
        .then((readings) => readings ?? { nic: nicName, before: null, after: null })
    : undefined;

  // Ready when the gate is up, or as soon as it is clear that it never will be (the command ended).
  const ready = options.gated ? Promise.race([readyLine, done.then(() => undefined)]) : Promise.resolve();
  // A run that fails before it waits for this one must not leave its rejection unhandled.
  ready.catch(() => undefined);
  let hasExited = false;
  void done.then(
    () => (hasExited = true),
    () => (hasExited = true),
  );
  const process: RemoteProcess = {
    get commandLine() {
      return commandLine;
    },
    pid,
    done,
    ready,
    ...(counters ? { counters } : {}),
    ...(options.listenPort !== undefined ? { listening } : {}),
    release() {
      if (isReleased) return;
      isReleased = true;
      writeStdin?.("go\n");
      openGate();
    },
    async stop() {
      // A process that has exited needs no kill over SSH (a round trip between the steps of an experiment).
      if (hasExited) return;
      if (!isReleased) {
        // Never started: closing its channel (or not opening one) is all there is to do.
        isCancelled = true;
        openGate();
        channel.abort();
        await valueWithin(done, STOP_WAIT_MS, null);
        return;
      }
      const agent = await agentPromise.catch(() => null);
      const known = await valueWithin(pid, 2000, null);
      if (agent && known) {
        await stopProcess(endpoint.target, agent, known).catch(() => undefined);
      }
      // The channel goes too, so a process that never reported its PID ends with it.
      channel.abort();
      await valueWithin(done, STOP_WAIT_MS, null);
    },
  };
  return process;
}
