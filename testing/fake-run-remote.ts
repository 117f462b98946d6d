// A scripted stand-in for the hosts of a run, for unit tests of the run engine and the
// experiment runner: FakeRunRemote plays iperf3's recorded output (lib/iperf/fixtures/real)
// instead of starting iperf3 over SSH. Real iperf3 over real SSH is what the lab tests use.
import fs from "node:fs";
import path from "node:path";
import { iputilsPing } from "@/agents/ping";
import { parseIperfVersion, type IperfVersion } from "@/lib/iperf";
import type { HostEnvironment } from "@/agents/types";
import { emptyEnvironment } from "@/lib/diagnosis/contract";
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

  startIperf(
    endpoint: RunEndpoint,
    role: "server" | "client",
    _path: string,
    argv: string[],
    callbacks: ProcessCallbacks,
    options: { gated?: boolean } = {},
  ): RemoteProcess {
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

  /** what each host's environment command answers; tests replace it (throwing: a host that cannot be read) */
  environment: (endpoint: RunEndpoint) => Promise<HostEnvironment> = async (endpoint) => ({
    ...emptyEnvironment("linux"),
    kernel: "6.1.0-fake",
    nic: {
      name: endpoint.nicName,
      driver: "fake",
      driverVersion: null,
      firmware: null,
      speedMbps: 1000,
      duplex: "full",
      mtu: 1500,
      pcie: null,
      siblingPorts: [],
      offloads: { tso: true, gso: true, gro: true, lro: false },
      rings: null,
    },
  });
  readonly environmentReads: string[] = [];

  async readEnvironment(endpoint: RunEndpoint) {
    this.environmentReads.push(`${endpoint.hostName}:${endpoint.nicName}`);
    return this.environment(endpoint);
  }

  /** Pings answer in iputils' format, one every `pingIntervalMs`, with `pingRttMs()` as their time, until stopped. */
  pingIntervalMs = 200;
  pingRttMs: (seq: number) => number | null = () => 0.1;
  readonly pings: Array<{ host: string; address: string; seconds: number }> = [];

  startPing(endpoint: RunEndpoint, address: string, seconds: number, callbacks: ProcessCallbacks) {
    this.pings.push({ host: endpoint.hostName, address, seconds });
    let seq = 0;
    const timer = setInterval(() => {
      seq += 1;
      const rtt = this.pingRttMs(seq);
      callbacks.onStdoutLine(
        rtt === null
          ? `no answer yet for icmp_seq=${seq}`
          : `64 bytes from ${address}: icmp_seq=${seq} ttl=64 time=${rtt} ms`,
      );
    }, this.pingIntervalMs);
    let finish: (outcome: { exitCode: number | null }) => void = () => {};
    const done = new Promise<{ exitCode: number | null }>((resolve) => (finish = resolve));
    const stop = async () => {
      clearInterval(timer);
      finish({ exitCode: 0 });
    };
    const process: RemoteProcess = {
      commandLine: `ping ${address}`,
      pid: Promise.resolve(null),
      done,
      ready: Promise.resolve(),
      release: () => {},
      stop,
    };
    return { process, ping: Promise.resolve(iputilsPing) };
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
