import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hostTarget } from "@/lib/hosts/target";
import {
  buildClientArgv,
  chooseLiveMode,
  chooseServerOutput,
  classifyIperfError,
  createIperfParser,
  FLAG_SINCE,
  isVersionAtLeast,
  type IperfCpu,
  type IperfOptions,
  type IperfParser,
  type IperfPlatform,
  type IperfResult,
  type IperfVersion,
} from "@/lib/iperf";
import type { HostEnvironment } from "@/agents/types";
import { emptyEnvironment, type EnvironmentSnapshot } from "@/lib/diagnosis/contract";
import type { RunEventBus } from "./bus";
import { parseStoredOptions, type RunStatus } from "./contract";
import { RunError, runFailureOf, type RunFailure } from "./errors";
import type { PortLeases } from "./ports";
import type { RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { LatencyProbe, latencyColumns } from "./latency-probe";
import { cpuColumns, summaryColumns } from "./columns";
import { exactSummaries, isCompleteServerReport } from "./exact-summary";
import { SampleWriter } from "./samples";
import { runJson } from "./serialize";
import { serverArgvFor, startServer, type ListeningServer } from "./server-start";
import { listenOnFreePort, type PortAttempt, type ServerPort } from "./server-port";
import { withTimeout } from "./timers";
import { timeLimitMs, type ExecutionLimits } from "./limits";

export { DEFAULT_LIMITS, type ExecutionLimits } from "./limits";
export { MAX_PORT_ATTEMPTS } from "./server-port";
export { serverArgvFor } from "./server-start";

// One run carried out, step by step: resolve its endpoints, prepare both hosts, lease a
// port and start the server, start the client, stream and store its intervals, finish.
// Each step is a method, so that several runs can take the steps together (the engine's
// `executeTogether`: every server first, then every client at once). Whatever happens,
// `close()` stops what was started, and `finish()` keeps the samples so far, both raw
// outputs and the exact commands with the run.

const MAX_RAW_OUTPUT_CHARS = 4 * 1024 * 1024;
// A client refused by a -J server that was not listening yet starts again after this, doubling up to a second.
const CLIENT_RETRY_FIRST_MS = 100;
const CLIENT_RETRY_MAX_MS = 1000;

/**
 * What the runs of one experiment learn of their hosts once and share, so that its steps do not
 * ask again: iperf3 as found on each host (by host id), and each NIC's environment (by host and NIC).
 */
export type HostCache = {
  iperf: Map<number, Promise<{ path: string; version: IperfVersion }>>;
  environment: Map<string, Promise<HostEnvironment>>;
};
export function newHostCache(): HostCache {
  return { iperf: new Map(), environment: new Map() };
}

/** What a run's steps need from the engine that runs them. */
export type ExecutionDeps = {
  remote: RunRemote;
  ports: PortLeases;
  bus: RunEventBus;
  limits: ExecutionLimits;
  hostCache?: HostCache;
};

// A host whose environment takes longer than this is recorded as not read: the run does not wait for it.
const ENVIRONMENT_WAIT_MS = 15_000;

/** Raw output kept with the run, capped so that a runaway process cannot fill the database. */
class OutputLog {
  private text = "";
  private isTruncated = false;
  add(line: string): void {
    if (this.isTruncated) return;
    if (this.text.length + line.length + 1 > MAX_RAW_OUTPUT_CHARS) {
      this.isTruncated = true;
      this.text += "[output truncated by Wirespeed]\n";
      return;
    }
    this.text += `${line}\n`;
  }
  toString(): string {
    return this.text;
  }
}

function nicAddress(addresses: unknown): string | null {
  const first = Array.isArray(addresses) ? addresses.find((value) => typeof value === "string") : undefined;
  return typeof first === "string" ? first.replace(/\/\d+$/, "") : null;
}

export type RunEndpoints = { client: RunEndpoint; server: RunEndpoint };

/** Both ends of a stored run: the client on its `clientSide` of the link, the server on the other. */
export async function loadRunEndpoints(runId: number): Promise<RunEndpoints> {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      clientSide: true,
      link: {
        select: {
          aNic: { select: { addresses: true, name: true, host: { omit: { secret: false } } } },
          bNic: { select: { addresses: true, name: true, host: { omit: { secret: false } } } },
        },
      },
    },
  });
  const [clientNic, serverNic] =
    run.clientSide === "b" ? [run.link.bNic, run.link.aNic] : [run.link.aNic, run.link.bNic];
  const endpoint = (nic: typeof clientNic): RunEndpoint => {
    const host = nic.host;
    const address = nicAddress(nic.addresses);
    if (!address)
      throw new RunError(
        "parameter",
        `NIC ${nic.name} of ${host.name} has no address: add one, or discover the host's NICs.`,
      );
    return {
      hostId: host.id,
      hostName: host.name,
      platform: host.platform as IperfPlatform,
      target: hostTarget(host),
      iperf3Path: host.iperf3Path,
      portRange: { min: host.iperfPortMin, max: host.iperfPortMax },
      address,
      nicName: nic.name,
      openFirewall: host.openFirewall,
    };
  };
  return { client: endpoint(clientNic), server: endpoint(serverNic) };
}

type Detected = { path: string; version: IperfVersion };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RunExecution {
  private readonly writer: SampleWriter;
  private readonly serverLog = new OutputLog();
  private readonly clientLog = new OutputLog();
  private readonly processes: RemoteProcess[] = [];
  private readonly restoreFirewalls: Array<() => Promise<void>> = [];
  private readonly commands: {
    serverCommand?: string;
    clientCommand?: string;
    serverIperfVersion?: string;
    clientIperfVersion?: string;
  } = {};
  private platform: IperfPlatform = "unknown";
  private options: IperfOptions | null = null;
  private endpoints: RunEndpoints | null = null;
  private iperf: { client: Detected; server: Detected } | null = null;
  /** the server's ports, each given back once the run closes (a busy one at once) */
  private readonly leases: ServerPort[] = [];
  private port = 0;
  private server: RemoteProcess | null = null;
  /** the listening server, and whether it only seems to listen (a -J server, see server-start.ts) */
  private serverState: ListeningServer | null = null;
  private client: { process: RemoteProcess; parser: IperfParser; intervals: number } | null = null;
  private result: IperfResult | null = null;
  private clientExitCode: number | null = null;
  private environment: { client: EnvironmentSnapshot; server: EnvironmentSnapshot } | null = null;
  private latency: LatencyProbe | null = null;
  /** The first thing that went wrong; the steps after it are skipped. */
  failure: unknown = null;

  constructor(
    readonly runId: number,
    private readonly deps: ExecutionDeps,
    private readonly signal: AbortSignal,
  ) {
    this.writer = new SampleWriter(runId);
  }

  get hasFailed(): boolean {
    return this.failure !== null || this.signal.aborted;
  }

  /** Runs one step unless an earlier one failed or the run was cancelled; a step's error is kept, not thrown. */
  async step(
    name: "resolve" | "prepare" | "startServer" | "clientReady" | "idle" | "startClient" | "stream",
    body?: () => Promise<void>,
  ): Promise<void> {
    if (this.hasFailed) return;
    try {
      await (body ?? this[name].bind(this))();
    } catch (error) {
      this.failure ??= error;
    }
  }

  /** Step 1: the run's options and both ends. */
  async resolve(): Promise<void> {
    await this.setStatus("preparing");
    const run = await db.run.findUniqueOrThrow({ where: { id: this.runId }, select: { options: true } });
    this.options = parseStoredOptions(run.options);
    this.endpoints = await loadRunEndpoints(this.runId);
    this.platform = this.endpoints.client.platform;
  }

  /** Step 2: iperf3 found on both hosts (and recorded), opted-in firewalls opened. */
  async prepare(): Promise<void> {
    const { client, server } = this.requireEndpoints();
    const cache = this.deps.hostCache?.iperf;
    const isCached = cache !== undefined && cache.has(client.hostId) && cache.has(server.hostId);
    // Both ends' environment is read while iperf3 is found: it costs the run no extra round trip.
    const environments = Promise.all([this.readEnvironment(client), this.readEnvironment(server)]);
    const detect = (endpoint: RunEndpoint) => {
      if (!cache) return this.deps.remote.detectIperf(endpoint, this.signal);
      const found = cache.get(endpoint.hostId) ?? this.deps.remote.detectIperf(endpoint, this.signal);
      // A failed detection is not kept: the next step tries again.
      cache.set(endpoint.hostId, found);
      found.catch(() => cache.delete(endpoint.hostId));
      return found;
    };
    const [detected, [clientEnvironment, serverEnvironment]] = await Promise.all([
      Promise.allSettled([detect(client), detect(server)]),
      environments,
    ]);
    // The snapshots are kept even when iperf3 is missing on a host: what the host looked like explains a failure too.
    const versionOf = (outcome: (typeof detected)[number]) =>
      outcome.status === "fulfilled" ? outcome.value.version.raw : null;
    const readAt = new Date().toISOString();
    this.environment = {
      client: { ...clientEnvironment, readAt, iperf3Version: versionOf(detected[0]) },
      server: { ...serverEnvironment, readAt, iperf3Version: versionOf(detected[1]) },
    };
    await db.run.update({
      where: { id: this.runId },
      data: { environment: this.environment as unknown as Prisma.InputJsonValue },
    });
    for (const outcome of detected) if (outcome.status === "rejected") throw outcome.reason;
    const [clientIperf, serverIperf] = detected.map(
      (outcome) => (outcome as PromiseFulfilledResult<Detected>).value,
    ) as [Detected, Detected];
    this.iperf = { client: clientIperf, server: serverIperf };
    if (!isCached) {
      await Promise.all(
        (
          [
            [client, clientIperf],
            [server, serverIperf],
          ] as const
        ).map(([endpoint, iperf]) =>
          db.host.update({
            where: { id: endpoint.hostId },
            data: { iperf3Path: iperf.path, iperf3Version: iperf.version.raw, lastSeenAt: new Date() },
          }),
        ),
      );
    }
    this.commands.clientIperfVersion = clientIperf.version.raw;
    this.commands.serverIperfVersion = serverIperf.version.raw;
    // Opted-in firewalls (ESXi) open for the test; `close()` restores them whatever happens.
    for (const endpoint of [server, client]) this.restoreFirewalls.push(await this.deps.remote.openFirewall(endpoint));
  }

  /**
   * One end's environment, or what stopped it from being read: a snapshot never fails the run.
   * The runs of one experiment read each host's NIC once.
   */
  private readEnvironment(endpoint: RunEndpoint): Promise<HostEnvironment> {
    const key = `${endpoint.hostId}:${endpoint.nicName}`;
    const cached = this.deps.hostCache?.environment.get(key);
    if (cached) return cached;
    const unread = (why: string) =>
      emptyEnvironment(endpoint.platform === "unknown" ? "linux" : endpoint.platform, [`everything: ${why}`]);
    const read = withTimeout(
      this.deps.remote.readEnvironment(endpoint, this.signal),
      ENVIRONMENT_WAIT_MS,
      () => new Error(`no answer within ${ENVIRONMENT_WAIT_MS / 1000} s`),
    ).catch((error: unknown) => unread(error instanceof Error ? error.message.split("\n")[0]! : String(error)));
    this.deps.hostCache?.environment.set(key, read);
    return read;
  }

  /** Step 3: the server on a free port, listening. A port found busy on the host is skipped. */
  async startServer(): Promise<void> {
    const { server } = this.requireEndpoints();
    const options = this.requireOptions();
    const serverIperf = this.requireIperf().server;
    const output = chooseServerOutput(chooseLiveMode(this.requireIperf().client.version));
    // Before --forceflush (3.1.5) only a pty gets "Server listening" out before the test ends; a -J server has nothing to say before.
    const pty = output === "text" && !isVersionAtLeast(serverIperf.version, FLAG_SINCE["--forceflush"]);
    const { listening } = await listenOnFreePort({
      ports: this.deps.ports,
      server,
      fixed: options.port,
      signal: this.signal,
      hold: (lease) => this.leases.push(lease),
      listen: async (port): Promise<PortAttempt<ListeningServer>> => {
        this.port = port;
        // The client's SSH session opens while the server starts; its iperf3 waits for startClient().
        await this.discardClient();
        this.openClient();
        const started = await startServer({
          remote: this.deps.remote,
          server,
          iperf3Path: serverIperf.path,
          argv: serverArgvFor(options, serverIperf.version, server, port, output),
          pty,
          limits: this.deps.limits,
          onLine: (line) => this.serverLog.add(line),
          onStart: (process) => void this.recordPid("serverPid", process),
        });
        this.commands.serverCommand = started.process.commandLine;
        if (!started.hasExited) return { listening: started.server };
        const error = classifyIperfError(
          started.errorText || "the iperf3 server exited before listening",
          server.platform,
        );
        const failure = new RunError(error.kind, error.message, error.hint);
        if (error.kind !== "listener-failed" || !/in use/i.test(error.message)) throw failure;
        return { busy: failure };
      },
    });
    this.server = listening.process;
    this.processes.push(listening.process);
    this.serverState = listening;
  }

  /** The client, gated: its host's shell is set up now, its iperf3 starts in startClient(). */
  private openClient(): void {
    const { client, server } = this.requireEndpoints();
    const clientIperf = this.requireIperf().client;
    const serverIperf = this.requireIperf().server;
    const { argv, liveMode } = buildClientArgv({
      options: { ...this.requireOptions(), port: this.port },
      version: clientIperf.version,
      serverAddress: server.address,
      bindAddress: client.address,
      hostName: client.hostName,
      // -A: refused with a clear message where a platform cannot pin a core, before anything starts
      platform: client.platform,
      server: { platform: server.platform, hostName: server.hostName, version: serverIperf.version },
    });
    const parser = createIperfParser({ platform: client.platform });
    // How many intervals this client gave: a refused one gave none (isRefusedBeforeListening).
    const counted = { intervals: 0 };
    const onLine = (line: string) => {
      this.clientLog.add(line);
      for (const event of parser.push(line)) {
        if (event.type !== "interval") continue;
        counted.intervals += 1;
        this.deps.bus.publish(this.runId, "sample", this.writer.add(event.interval));
      }
    };
    const process = this.deps.remote.startIperf(
      client,
      "client",
      clientIperf.path,
      argv,
      { onStdoutLine: onLine, onStderrLine: onLine },
      { pty: liveMode === "pty", gated: true },
    );
    this.processes.push(process);
    this.client = Object.assign(counted, { process, parser });
    this.commands.clientCommand = process.commandLine;
  }

  /** A client opened for a port that turned out to be busy on the server's host: it never started. */
  private async discardClient(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.processes.splice(this.processes.indexOf(client.process), 1);
    await client.process.stop();
  }

  /** Step 4: the client's host is ready to start iperf3 the moment it is told. */
  async clientReady(): Promise<void> {
    const client = this.client;
    if (!client) throw new RunError("unknown", "The test was not started.");
    const { hostName } = this.requireEndpoints().client;
    await withTimeout(
      client.process.ready,
      this.deps.limits.serverStartMs,
      () =>
        new RunError(
          "timeout",
          `The iperf3 client on ${hostName} was not ready to start within ${this.deps.limits.serverStartMs / 1000} s.`,
        ),
    );
  }

  /**
   * Step 5, with `latency` only: the client's host pings the server's address, idle, for
   * LATENCY_IDLE_SECONDS; the pings go on under load until the traffic ends. A ping that cannot
   * run costs the run its latency figures, never its result.
   */
  async idle(): Promise<void> {
    const options = this.requireOptions();
    if (!options.latency) return;
    const { client, server } = this.requireEndpoints();
    this.latency = new LatencyProbe(this.runId, this.deps.remote);
    await this.latency.start(client, server.address, options, this.signal).catch((error: unknown) => {
      console.error(
        `[wirespeed] run ${this.runId}: ping did not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    });
  }

  /** Step 6: the client starts; its intervals are parsed, stored and published as they arrive. */
  async startClient(): Promise<void> {
    const client = this.client;
    if (!client) throw new RunError("unknown", "The test was not started.");
    client.process.release();
    await this.setStatus("running", { ...this.commands, port: this.port, startedAt: new Date() });
    void this.recordPid("clientPid", client.process);
  }

  /**
   * Step 7: until the client exits (or is cancelled, or overruns), then the server's summary. A client
   * refused by a -J server that did not listen yet starts again (see server-start.ts). The server's -J
   * document, printed as it exits, makes exact what the server measured (exact-summary.ts).
   */
  async stream(): Promise<void> {
    const server = this.server;
    if (!this.client || !server) throw new RunError("unknown", "The test was not started.");
    const limit = timeLimitMs(this.requireOptions(), this.deps.limits.runMarginMs);
    const onAbort = () => void this.client?.process.stop();
    this.signal.addEventListener("abort", onAbort, { once: true });
    let result: IperfResult;
    try {
      for (let retryMs = CLIENT_RETRY_FIRST_MS; ; retryMs = Math.min(2 * retryMs, CLIENT_RETRY_MAX_MS)) {
        const client = this.client;
        ({ exitCode: this.clientExitCode } = await withTimeout(
          client.process.done,
          limit,
          () =>
            new RunError(
              "timeout",
              `The test did not end within ${Math.round(limit / 1000)} s.`,
              "The link or a host stalled; the samples so far are kept.",
            ),
        ));
        result = client.parser.end();
        if (!this.isRefusedBeforeListening(result, client.intervals, retryMs)) break;
        await this.restartClient(retryMs);
      }
    } finally {
      this.signal.removeEventListener("abort", onAbort);
    }
    this.result = result;
    await this.latency?.end();
    await withTimeout(server.done, this.deps.limits.serverExitGraceMs, () => new Error("server still running")).catch(
      () => server.stop(),
    );
    const report = this.serverState?.report.end() ?? null;
    // The client reached something else on the port: our server could not listen there after all.
    if (report?.error?.kind === "listener-failed")
      throw new RunError(report.error.kind, report.error.message, report.error.hint);
    if (isCompleteServerReport(report)) this.result = { ...result, ...exactSummaries(result, report) };
  }

  /**
   * A client that found nothing listening, while a -J server (which only seemed to listen) still runs and
   * has had less than the server start time to bind: the server was slow, not absent. Anything else,
   * a firewall that rejects the port included, ends the run with the client's own error.
   */
  private isRefusedBeforeListening(result: IperfResult, intervals: number, retryMs: number): boolean {
    const state = this.serverState;
    if (!state?.isListeningPresumed || state.hasExited || this.signal.aborted) return false;
    if (result.error?.kind !== "connection-refused" || intervals > 0) return false;
    return performance.now() + retryMs - state.startedAt < this.deps.limits.serverStartMs;
  }

  /** The refused client's output stays in the log, marked; a new client starts when its host is ready. */
  private async restartClient(afterMs: number): Promise<void> {
    this.clientLog.add(`[Wirespeed: the server was not listening yet; the client starts again in ${afterMs} ms]`);
    await this.discardClient();
    await delay(afterMs);
    if (this.signal.aborted) throw new RunError("interrupted", "The test was cancelled.");
    this.openClient();
    await this.clientReady();
    this.client!.process.release();
    void this.recordPid("clientPid", this.client!.process);
  }

  /** Whatever happened: nothing of ours stays running on either host, ports and firewalls are given back. */
  async close(): Promise<void> {
    await Promise.allSettled(this.processes.map((process) => process.stop()));
    for (const lease of this.leases) lease.release();
    const restored = await Promise.allSettled(this.restoreFirewalls.map((restore) => restore()));
    for (const outcome of restored) {
      if (outcome.status === "rejected") {
        this.failure ??= new RunError(
          "unknown",
          `Could not restore a host's firewall: ${String(outcome.reason?.message ?? outcome.reason).split("\n")[0]}`,
          "Check the firewall state of the ESXi host by hand (esxcli network firewall get).",
        );
      }
    }
  }

  /** Step 8: the outcome stored with every sample and ping so far, the viewers told, the live stream closed. */
  async finish(): Promise<void> {
    let writeError: unknown = null;
    await this.writer.close().catch((error: unknown) => (writeError = error));
    const latency = await this.latency?.close();
    // Why a run that asked for latency has none: beside what else its client's snapshot misses.
    const environment =
      latency?.problem && this.environment
        ? {
            ...this.environment,
            client: { ...this.environment.client, missing: [...this.environment.client.missing, latency.problem] },
          }
        : null;
    const { status, error } = this.outcome(writeError);
    const interrupted = this.result?.interrupted ?? false;
    await finishRun(
      this.deps.bus,
      this.runId,
      {
        ...this.commands,
        // The command line is quoted for the host's shell once its agent is known: read again at the end.
        ...(this.client ? { clientCommand: this.client.process.commandLine } : {}),
        ...summaryColumns(this.result?.summary ?? null, "", interrupted),
        ...summaryColumns(this.result?.reverseSummary ?? null, "reverse", interrupted),
        ...cpuColumns(this.cpu()),
        ...latencyColumns(latency?.summary ?? null),
        ...(environment ? { environment: environment as unknown as Prisma.InputJsonValue } : {}),
        status,
        endedAt: new Date(),
        serverOutput: this.serverLog.toString(),
        clientOutput: this.clientLog.toString(),
      },
      error,
    );
  }

  /**
   * Both ends' CPU use: the client's output has both, except for a reverse test in text mode
   * (iperf3 3.7+ prints CPU only on the sender), where the server's own report gives its part:
   * its -J document, or its -V line when it prints text.
   */
  private cpu(): IperfCpu | null {
    const fromClient = this.result?.cpu ?? null;
    if (fromClient?.serverPercent != null || !this.serverState) return fromClient;
    // A -J server always reports its CPU use; a text one with -V.
    const serverPercent = this.serverState.report.end().cpu?.serverPercent ?? null;
    if (serverPercent === null) return fromClient;
    return { clientPercent: fromClient?.clientPercent ?? null, serverPercent };
  }

  private outcome(writeError: unknown): { status: RunStatus; error: RunFailure | null } {
    if (this.signal.aborted) {
      // An abort with a reason is Wirespeed stopping (RunEngine.shutdown); without one, a person cancelled.
      const reason: unknown = this.signal.reason;
      return reason instanceof RunError && reason.kind === "interrupted"
        ? { status: "interrupted", error: runFailureOf(reason, this.platform) }
        : { status: "cancelled", error: null };
    }
    if (this.failure) return { status: "failed", error: runFailureOf(this.failure, this.platform) };
    if (this.result?.error) return { status: "failed", error: this.result.error };
    if (!this.result?.summary) {
      // iperf3 always ends a test with a summary or an error: without either, it did not run as iperf3.
      const code = this.clientExitCode === null ? "" : ` (exit code ${this.clientExitCode})`;
      return {
        status: "failed",
        error: {
          kind: "unknown",
          message: `iperf3 ended without a result${code}.`,
          hint: "See the client's output below: the program may not be iperf3, or it crashed.",
        },
      };
    }
    if (writeError) {
      const message = writeError instanceof Error ? writeError.message.split("\n")[0] : String(writeError);
      return {
        status: "failed",
        error: {
          kind: "unknown",
          message: `Could not store the samples: ${message}`,
          hint: "Check the disk of the Wirespeed server.",
        },
      };
    }
    return { status: "succeeded", error: null };
  }

  private requireOptions(): IperfOptions {
    if (!this.options) throw new RunError("unknown", "The run's options were not read.");
    return this.options;
  }

  private requireEndpoints(): RunEndpoints {
    if (!this.endpoints) throw new RunError("unknown", "The run's hosts were not read.");
    return this.endpoints;
  }

  private requireIperf(): { client: Detected; server: Detected } {
    if (!this.iperf) throw new RunError("unknown", "iperf3 was not found on the run's hosts.");
    return this.iperf;
  }

  private async setStatus(status: RunStatus, data: Prisma.RunUpdateInput = {}): Promise<void> {
    await db.run.update({ where: { id: this.runId }, data: { status, ...data } });
    this.deps.bus.publish(this.runId, "status", { status });
  }

  /** Remembers a process id so that a restarted app can stop what this one left running. */
  private async recordPid(column: "serverPid" | "clientPid", process: RemoteProcess): Promise<void> {
    const pid = await process.pid.catch(() => null);
    if (pid) await db.run.update({ where: { id: this.runId }, data: { [column]: pid } }).catch(() => undefined);
  }
}

/** Ends a run: stores what is known, tells the viewers, and closes its live stream. */
export async function finishRun(
  bus: RunEventBus,
  runId: number,
  data: Omit<Prisma.RunUpdateInput, "status"> & { status: RunStatus },
  error: RunFailure | null,
): Promise<void> {
  const run = await db.run.update({
    where: { id: runId },
    data: { ...data, ...(error ? { errorKind: error.kind, errorMessage: error.message, errorHint: error.hint } : {}) },
    include: { link: { select: { id: true, name: true, speedMbps: true } } },
  });
  const json = runJson(run, run.link);
  if (json.summary) bus.publish(runId, "summary", json.summary);
  if (json.error) bus.publish(runId, "error", json.error);
  bus.publish(runId, "status", { status: json.status });
  bus.end(runId);
}
