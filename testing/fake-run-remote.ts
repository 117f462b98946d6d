// A scripted stand-in for the hosts of a run, for unit tests of the run engine and the
// experiment runner: FakeRunRemote plays iperf3's recorded output (lib/iperf/fixtures/real)
// instead of starting iperf3 over SSH. Real iperf3 over real SSH is what the lab tests use.
import fs from "node:fs";
import path from "node:path";
import { parseIperfVersion, type IperfVersion } from "@/lib/iperf";
import type { ProcessCallbacks, RemoteProcess, RunEndpoint, RunRemote } from "@/lib/runs/remote";

const FIXTURES = path.resolve(__dirname, "../lib/iperf/fixtures/real");
export const fixtureLines = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8").split("\n");
export const TCP_1 = fixtureLines("tcp-1.client.stdout.txt");

export type FakeProcess = {
  role: "server" | "client";
  host: string;
  argv: string[];
  startedAt: number;
  isRunning: boolean;
  emit: (...lines: string[]) => void;
  emitError: (...lines: string[]) => void;
  exit: (code?: number) => void;
  /** what the process does when asked to stop (default: exit at once) */
  onStop: () => void;
};

export type Behaviour = (process: FakeProcess, port: number) => void;

export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A stand-in for the hosts: each started iperf3 follows `server`/`client`, which tests replace. */
export class FakeRunRemote implements RunRemote {
  readonly processes: FakeProcess[] = [];
  readonly leftovers: Array<{ host: string; pids: number[] }> = [];
  version: IperfVersion = parseIperfVersion("iperf 3.12")!;
  detect: (signal: AbortSignal) => Promise<void> = async () => {};
  server: Behaviour = (process, port) => setTimeout(() => process.emit(`Server listening on ${port} (test #1)`), 5);
  client: Behaviour = (process) => {
    setTimeout(() => {
      process.emit(...TCP_1);
      process.exit(0);
      // The one-off server ends with its client.
      for (const server of this.processes) if (server.role === "server" && server.isRunning) server.exit(0);
    }, 5);
  };

  async detectIperf(_endpoint: RunEndpoint, signal: AbortSignal) {
    await this.detect(signal);
    return { path: "/usr/bin/iperf3", version: this.version };
  }

  startIperf(endpoint: RunEndpoint, role: "server" | "client", _path: string, argv: string[], callbacks: ProcessCallbacks, options: { gated?: boolean } = {}): RemoteProcess {
    let finish: (outcome: { exitCode: number | null }) => void = () => {};
    const done = new Promise<{ exitCode: number | null }>((resolve) => (finish = resolve));
    const process: FakeProcess = {
      role,
      host: endpoint.hostName,
      argv,
      startedAt: performance.now(),
      isRunning: true,
      emit: (...lines) => lines.forEach((line) => process.isRunning && callbacks.onStdoutLine(line)),
      emitError: (...lines) => lines.forEach((line) => process.isRunning && callbacks.onStderrLine(line)),
      exit: (code = 0) => {
        process.isRunning = false;
        finish({ exitCode: code });
      },
      onStop: () => process.exit(130),
    };
    // A gated process starts (and counts as started) when released, as on a host whose shell waits for the go.
    let isReleased = false;
    const start = () => {
      if (isReleased) return;
      isReleased = true;
      process.startedAt = performance.now();
      this.processes.push(process);
      const port = Number(argv[argv.indexOf("-p") + 1]);
      (role === "server" ? this.server : this.client)(process, port);
    };
    if (!options.gated) start();
    return {
      commandLine: `iperf3 ${argv.join(" ")}`,
      pid: Promise.resolve(1000 + this.processes.length),
      done,
      ready: Promise.resolve(),
      release: start,
      stop: async () => {
        if (!isReleased) process.exit(130);
        if (process.isRunning) process.onStop();
        await done;
      },
    };
  }

  async openFirewall() {
    return async () => {};
  }

  async stopLeftover(endpoint: RunEndpoint, pids: number[]) {
    this.leftovers.push({ host: endpoint.hostName, pids });
  }

  started(role: "server" | "client"): FakeProcess[] {
    return this.processes.filter((process) => process.role === role);
  }
}

