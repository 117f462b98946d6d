import "server-only";
import { detectPlatform, getAgent, parsePidLine, PLATFORM_PROBE, type AgentPlatform, type PlatformAgent } from "@/agents";
import { installHint } from "@/lib/iperf";
import { execCapture, execStream, stopProcess } from "@/lib/ssh";
import { RunError } from "./errors";
import type { ProcessCallbacks, RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { valueWithin } from "./timers";

// RunRemote over lib/ssh and the platform agents: the engine's only way onto a host.

const DETECT_TIMEOUT_MS = 20_000;
const STOP_WAIT_MS = 15_000;

async function agentFor(endpoint: RunEndpoint, signal?: AbortSignal): Promise<PlatformAgent> {
  if (endpoint.platform !== "unknown") return getAgent(endpoint.platform as AgentPlatform);
  // Not detected yet: ask the host (uname -s, or ver on Windows).
  const probe = await execCapture(endpoint.target, PLATFORM_PROBE, { signal, timeoutMs: DETECT_TIMEOUT_MS });
  const platform = detectPlatform(`${probe.stdout}\n${probe.stderr}`);
  if (!platform) throw new RunError("unknown", `Could not tell the platform of ${endpoint.hostName}: it answered ${JSON.stringify(probe.stdout.slice(0, 80))}.`, "Set the host's platform by hand.");
  return getAgent(platform);
}

export const agentRunRemote: RunRemote = {
  async detectIperf(endpoint, signal) {
    const agent = await agentFor(endpoint, signal);
    const path = endpoint.iperf3Path ?? undefined;
    const outputs = [];
    for (const command of agent.detectCommands(path)) {
      outputs.push(await execCapture(endpoint.target, command, { signal, timeoutMs: DETECT_TIMEOUT_MS }));
    }
    const detected = agent.parseDetect(outputs, path);
    if (!detected.iperf3Path || !detected.version) {
      throw new RunError("not-found", `iperf3 was not found on ${endpoint.hostName}${path ? ` at ${path}` : ""}.`, installHint(agent.platform));
    }
    return { path: detected.iperf3Path, version: detected.version };
  },

  startIperf(endpoint, role, iperf3Path, argv, callbacks: ProcessCallbacks): RemoteProcess {
    const agentPromise = agentFor(endpoint);
    const channel = new AbortController();
    let resolvePid: (pid: number | null) => void = () => {};
    const pid = new Promise<number | null>((resolve) => (resolvePid = resolve));
    let commandLine = [iperf3Path, ...argv].join(" ");

    const done = agentPromise.then(async (agent) => {
      const input = { iperf3Path, args: argv };
      const command = role === "server" ? agent.serverCommand(input) : agent.clientCommand(input);
      let isPidSeen = !agent.printsPid;
      if (!agent.printsPid) resolvePid(null);
      try {
        const result = await execStream(endpoint.target, command, {
          signal: channel.signal,
          onStdoutLine: (line) => {
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
    // The line a user would type: the iperf3 command itself, quoted for that host's shell.
    void agentPromise.then((agent) => (commandLine = agent.quote([iperf3Path, ...argv])), () => undefined);

    const process: RemoteProcess = {
      get commandLine() {
        return commandLine;
      },
      pid,
      done,
      async stop() {
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
  },

  async stopLeftover(endpoint, pids) {
    const agent = await agentFor(endpoint);
    for (const pid of pids) {
      if (agent.platform !== "windows") {
        // A pid from before a restart may belong to another program by now: only iperf3 is stopped.
        const name = await execCapture(endpoint.target, agent.command(["ps", "-p", String(pid), "-o", "comm="]), { timeoutMs: DETECT_TIMEOUT_MS });
        if (!name.stdout.includes("iperf3")) continue;
      }
      await stopProcess(endpoint.target, agent, pid, { signals: ["TERM", "KILL"] });
    }
  },
};
