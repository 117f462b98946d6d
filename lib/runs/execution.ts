import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { HOST_FOR_TARGET, hostTarget } from "@/lib/hosts/target";
import {
  buildClientArgv,
  chooseLiveMode,
  chooseServerOutput,
  classifyIperfError,
  createIperfParser,
  createServerOutputSplitter,
  FLAG_SINCE,
  isVersionAtLeast,
  type IperfCpu,
  type IperfPlatform,
  type IperfResult,
} from "@/lib/iperf";
import type { HostEnvironment } from "@/agents/types";
import { emptyEnvironment } from "@/lib/diagnosis/contract";
import type { RunEventBus } from "./bus";
import { parseStoredOptions, type PathCheck, type RunStatus } from "./contract";
import { RunError, type RunFailure } from "./errors";
import { Holdings } from "./holdings";
import { timeLimitMs, type ExecutionLimits } from "./limits";
import {
  BusyServerTries,
  DEFAULT_BUSY_RETRY_SECONDS,
  externalServer,
  serverPorts,
  type ExternalServer,
} from "./external-server";
import {
  reachedSince,
  type Detected,
  type Finished,
  type Listening,
  type Phases,
  type Prepared,
  type Reached,
  type Ready,
  type Resolved,
  type RunClient,
  type RunEndpoints,
  type Streaming,
} from "./phases";
import type { PortLeases } from "./ports";
import type { ExternalServerEndpoint, RemoteProcess, RunEndpoint, RunRemote, ServerEndpoint } from "./remote";
import { LatencyProbe, latencyColumns } from "./latency-probe";
import { cpuColumns, pathCheckColumns, summaryColumns } from "./columns";
import { exactSummaries, isCompleteServerReport } from "./exact-summary";
import { SampleWriter } from "./samples";
import { nicAddress, OutputLog, readPathEnd, runOutcome, runPathCheck, type RunOutcome } from "./outcome";
import { serverArgvFor, startServer, type ListeningServer } from "./server-start";
import { listenOnFreePort, type PortAttempt } from "./server-port";
import { runJson } from "./serialize";
import { markStart } from "./start-marks";
import { withTimeout } from "./timers";

export { DEFAULT_LIMITS, type ExecutionLimits } from "./limits";
export type { RunEndpoints } from "./phases";
export { MAX_PORT_ATTEMPTS } from "./server-port";
export { serverArgvFor } from "./server-start";

// One run carried out, step by step: resolve its endpoints, prepare both hosts, lease a port
// and start the server (lib/runs/server-port.ts, server-start.ts), start the client, stream and
// store its intervals, finish. Each step takes the phase the one before it reached and gives the
// next (lib/runs/phases.ts), and the engine runs each step by name, so that several runs can take
// the steps together (the engine's `executeTogether`: every server first, then every client at
// once). Whatever happens, `close()` stops what was started, and `finish()` keeps the samples so
// far, both raw outputs and the exact commands with the run.

// A client refused by a -J server that was not listening yet starts again after this, doubling up to a second.
const CLIENT_RETRY_FIRST_MS = 100;
const CLIENT_RETRY_MAX_MS = 1000;

/**
 * What the runs of one experiment learn of their hosts once and share, so that its steps do not
 * ask again: iperf3 as found on each host (by host id), and each NIC's environment (by host and NIC).
 */
export type HostCache = {
  iperf: Map<number, Promise<Detected>>;
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

/** The steps the engine runs by name, in this order. */
export type StepName = "resolve" | "prepare" | "startServer" | "clientReady" | "idle" | "startClient" | "stream";

// Why nothing is read or started at the server's end of a link to a server such as a public one.
const UNMANAGED_SERVER = "an iperf3 server Wirespeed does not manage";
// A host whose environment takes longer than this is recorded as not read: the run does not wait for it.
const ENVIRONMENT_WAIT_MS = 15_000;

type CommandColumns = {
  serverCommand?: string;
  clientCommand?: string;
  serverIperfVersion?: string;
  clientIperfVersion?: string;
};

/**
 * The commands and iperf3 versions stored with the run, as far as its steps got (a failed step keeps
 * what it learned before it failed). The open client's command line is read again at the end: it is
 * quoted for the host's shell once its agent is known.
 */
class RunCommands {
  private readonly known: CommandColumns = {};
  private clientLineAtEnd: () => string | undefined = () => undefined;

  set(columns: CommandColumns): void {
    Object.assign(this.known, columns);
  }

  clientOpened(process: RemoteProcess): void {
    this.known.clientCommand = process.commandLine;
    this.clientLineAtEnd = () => process.commandLine;
  }

  /** A discarded client is not read again: the run keeps its line as it was when it was opened. */
  clientDiscarded(): void {
    this.clientLineAtEnd = () => undefined;
  }

  /** The columns as known now. */
  get columns(): CommandColumns {
    return { ...this.known };
  }

  /** The columns at the end of the run, the open client's line read again. */
  get columnsAtEnd(): CommandColumns {
    const clientCommand = this.clientLineAtEnd();
    return { ...this.known, ...(clientCommand === undefined ? {} : { clientCommand }) };
  }
}

/** The server's end of a prepared run, its endpoint and its iperf3 together. */
function serverEnd(
  prepared: Prepared,
):
  | { access: "ssh"; endpoint: RunEndpoint; iperf: Detected }
  | { access: "iperf3-server"; endpoint: ExternalServerEndpoint } {
  const { server } = prepared.endpoints;
  const iperf = prepared.iperf.server;
  if (server.access === "iperf3-server") return { access: "iperf3-server", endpoint: server };
  if (iperf.access !== "ssh") throw new RunError("unknown", `iperf3 was not looked for on ${server.hostName}.`);
  return { access: "ssh", endpoint: server, iperf };
}

/** The end of a run on a host Wirespeed logs in to (read with HOST_FOR_TARGET), bound to `address` of its NIC `nicName`. */
export function managedEndpoint(host: Parameters<typeof hostTarget>[0], nicName: string, address: string): RunEndpoint {
  return {
    access: "ssh",
    hostId: host.id,
    hostName: host.name,
    platform: host.platform as IperfPlatform,
    target: hostTarget(host),
    iperf3Path: host.iperf3Path,
    portRange: { min: host.iperfPortMin, max: host.iperfPortMax },
    address,
    nicName,
    openFirewall: host.openFirewall,
  };
}

/** Both ends of a stored run: the client on its `clientSide` of the link, the server on the other. */
export async function loadRunEndpoints(runId: number): Promise<RunEndpoints> {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      clientSide: true,
      link: {
        select: {
          aNic: { select: { addresses: true, name: true, host: HOST_FOR_TARGET } },
          bNic: { select: { addresses: true, name: true, host: HOST_FOR_TARGET } },
        },
      },
    },
  });
  const [clientNic, serverNic] =
    run.clientSide === "b" ? [run.link.bNic, run.link.aNic] : [run.link.aNic, run.link.bNic];
  const addressOf = (nic: typeof clientNic): string => {
    const address = nicAddress(nic.addresses);
    if (!address)
      throw new RunError(
        "parameter",
        `NIC ${nic.name} of ${nic.host.name} has no address: add one, or discover the host's NICs.`,
      );
    return address;
  };
  const endpoint = (nic: typeof clientNic, role: "client" | "server"): RunEndpoint => {
    const host = nic.host;
    if (host.access !== "ssh")
      throw new RunError(
        "parameter",
        `${host.name} cannot run the iperf3 ${role}: Wirespeed does not log in there (access "${host.access}").`,
        { hint: "Run the test with the client on the link's other end; -R and --bidir give the other directions." },
      );
    return managedEndpoint(host, nic.name, addressOf(nic));
  };
  // Nothing to log in to: the client connects to the server's address on a port of its range.
  const serverEndpoint = (nic: typeof serverNic): ServerEndpoint =>
    nic.host.access === "iperf3-server"
      ? {
          access: "iperf3-server",
          hostId: nic.host.id,
          hostName: nic.host.name,
          portRange: { min: nic.host.iperfPortMin, max: nic.host.iperfPortMax },
          address: addressOf(nic),
          nicName: nic.name,
        }
      : endpoint(nic, "server");
  return { client: endpoint(clientNic, "client"), server: serverEndpoint(serverNic) };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Another client after one that ended too early: its port, the wait before it, the line for the client's log. */
type ClientRetry = { port: number; waitMs: number; note: string; external?: ExternalServer };

export class RunExecution {
  private readonly writer: SampleWriter;
  private readonly serverLog = new OutputLog();
  private readonly clientLog = new OutputLog();
  private readonly holdings = new Holdings();
  private readonly commands = new RunCommands();
  /** The last phase a step reached; a step that fails leaves it where it was. */
  private reached: Reached = { name: "created", value: null };
  /** The first thing that went wrong; the steps after it are skipped. */
  failure: unknown = null;
  /** Rows written while the run goes on (its environment, its hosts' iperf3): finish() waits for them. */
  private readonly writes: Promise<unknown>[] = [];

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
  async step(name: StepName): Promise<void> {
    if (this.hasFailed) return;
    try {
      await this.advance(name);
    } catch (error) {
      this.failure ??= error;
    }
  }

  /** A step: the phase it starts from, to the phase it reaches. */
  private async advance(name: StepName): Promise<void> {
    switch (name) {
      case "resolve":
        return this.reach("resolved", await this.resolve());
      case "prepare":
        return this.reach("prepared", await this.prepare(this.phase("resolved")));
      case "startServer":
        return this.reach("listening", await this.listen(this.phase("prepared")));
      case "clientReady": {
        const listening = this.phase("listening");
        await this.clientReady(listening.client, listening.endpoints.client);
        return markStart(this.runId, "client ready");
      }
      case "idle":
        return this.reach("ready", await this.idle(this.phase("listening")));
      case "startClient":
        return this.reach("streaming", await this.startClient(this.phase("ready")));
      case "stream":
        // What the client measured is kept even if the server's report then says that it reached another program.
        this.reach("finished", await this.stream(this.phase("streaming")));
        return this.reach("finished", await this.readServerReport(this.phase("finished")));
    }
  }

  /** A write that need not hold the start up: finish() waits for it, and one that failed fails the run. */
  private writeAside(write: Promise<unknown>): void {
    this.writes.push(
      write.then(
        () => undefined,
        (error: unknown) => void (this.failure ??= error),
      ),
    );
  }

  private reach<Name extends keyof Phases>(name: Name, value: Phases[Name]): void {
    this.reached = { name, value } as Reached;
    if (name === "resolved" || name === "prepared" || name === "listening") markStart(this.runId, name);
  }

  /** The value of the phase a step starts from: the engine runs the steps in their order, each once. */
  private phase<Name extends keyof Phases>(name: Name): Phases[Name] {
    if (this.reached.name !== name)
      throw new RunError("unknown", `The run's steps came out of order: at ${this.reached.name}, not ${name}.`);
    return this.reached.value as Phases[Name];
  }

  /** Step 1: the run's options and both ends. */
  private async resolve(): Promise<Resolved> {
    // Three statements at once, not one after the other; each is awaited, so that none lands after the run's end.
    const [status, run, endpoints] = await Promise.allSettled([
      this.setStatus("preparing"),
      db.run.findUniqueOrThrow({ where: { id: this.runId }, select: { options: true } }),
      loadRunEndpoints(this.runId),
    ]);
    for (const outcome of [status, run, endpoints]) if (outcome.status === "rejected") throw outcome.reason;
    const options = parseStoredOptions((run as PromiseFulfilledResult<{ options: Prisma.JsonValue }>).value.options);
    return { options, endpoints: (endpoints as PromiseFulfilledResult<RunEndpoints>).value };
  }

  /**
   * Step 2: iperf3 found on both hosts (and recorded), opted-in firewalls opened. An iperf3 server
   * Wirespeed does not manage has none of these: only the client's host is prepared.
   */
  private async prepare(resolved: Resolved): Promise<Prepared> {
    const { client, server } = resolved.endpoints;
    const managed = server.access === "ssh" ? [client, server] : [client];
    const cache = this.deps.hostCache?.iperf;
    const isCached = cache !== undefined && managed.every((endpoint) => cache.has(endpoint.hostId));
    // Both ends' environment is read while iperf3 is found: it costs the run no extra round trip.
    const environments = Promise.all([this.readEnvironment(client), this.readServerEnvironment(server)]);
    const detect = (endpoint: RunEndpoint) => {
      if (!cache) return this.deps.remote.detectIperf(endpoint, this.signal);
      const found = cache.get(endpoint.hostId) ?? this.deps.remote.detectIperf(endpoint, this.signal);
      // A failed detection is not kept: the next step tries again.
      cache.set(endpoint.hostId, found);
      found.catch(() => cache.delete(endpoint.hostId));
      return found;
    };
    const [detected, [clientEnvironment, serverEnvironment]] = await Promise.all([
      Promise.allSettled(managed.map(detect)),
      environments,
    ]);
    // The snapshots are kept even when iperf3 is missing on a host: what the host looked like explains a failure too.
    const versionOf = (outcome: (typeof detected)[number] | undefined) =>
      outcome?.status === "fulfilled" ? outcome.value.version.raw : null;
    const readAt = new Date().toISOString();
    const environment = {
      client: { ...clientEnvironment, readAt, iperf3Version: versionOf(detected[0]) },
      server: { ...serverEnvironment, readAt, iperf3Version: versionOf(detected[1]) },
    };
    // Stored beside the start, not before it (writeAside).
    this.writeAside(
      db.run.update({
        where: { id: this.runId },
        data: { environment: environment as unknown as Prisma.InputJsonValue },
      }),
    );
    for (const outcome of detected) if (outcome.status === "rejected") throw outcome.reason;
    const found = detected.map((outcome) => (outcome as PromiseFulfilledResult<Detected>).value);
    if (!isCached) {
      for (const [index, endpoint] of managed.entries())
        this.writeAside(
          db.host.update({
            where: { id: endpoint.hostId },
            data: { iperf3Path: found[index]!.path, iperf3Version: found[index]!.version.raw, lastSeenAt: new Date() },
          }),
        );
    }
    const [clientIperf, serverIperf] = found as [Detected, Detected | undefined];
    this.commands.set({
      clientIperfVersion: clientIperf.version.raw,
      ...(serverIperf ? { serverIperfVersion: serverIperf.version.raw } : {}),
    });
    // Opted-in firewalls (ESXi) open for the test; `close()` restores them whatever happens.
    for (const endpoint of managed.toReversed())
      this.holdings.addFirewall(await this.deps.remote.openFirewall(endpoint));
    return {
      ...resolved,
      iperf: {
        client: clientIperf,
        server: serverIperf ? { access: "ssh", ...serverIperf } : { access: "iperf3-server" },
      },
      environment,
    };
  }

  /** The server end's environment: nothing to read on an iperf3 server Wirespeed does not manage, and the snapshot says why. */
  private readServerEnvironment(endpoint: ServerEndpoint): Promise<HostEnvironment> {
    if (endpoint.access === "ssh") return this.readEnvironment(endpoint);
    // A snapshot names a platform; as for a host whose platform is unknown (readEnvironment), Linux's fields, all unread.
    return Promise.resolve(emptyEnvironment("linux", [`everything: ${UNMANAGED_SERVER}`]));
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

  /**
   * Step 3: the server on a free port, listening (server-start.ts), the client opened for that port.
   * A port found busy on the host is skipped (server-port.ts). Against an iperf3 server Wirespeed does
   * not manage, nothing starts there: the client is opened for the first port of its range.
   */
  private async listen(prepared: Prepared): Promise<Listening> {
    const end = serverEnd(prepared);
    if (end.access === "iperf3-server") return this.reachExternalServer(prepared, end.endpoint);
    const { options } = prepared;
    const { endpoint: server, iperf: serverIperf } = end;
    const iperf = { client: prepared.iperf.client, server: serverIperf };
    const output = chooseServerOutput(chooseLiveMode(iperf.client.version));
    // Before --forceflush (3.1.5) only a pty gets "Server listening" out before the test ends; a -J server has nothing to say before.
    const pty = output === "text" && !isVersionAtLeast(iperf.server.version, FLAG_SINCE["--forceflush"]);
    // The client opened for the port tried last: a port found busy needs another client.
    let opened: RunClient | undefined;
    const { port, listening } = await listenOnFreePort({
      ports: this.deps.ports,
      server,
      fixed: options.port,
      signal: this.signal,
      hold: (lease) => this.holdings.addPort(lease),
      listen: async (port): Promise<PortAttempt<{ server: ListeningServer; client: RunClient }>> => {
        // The client's SSH session opens while the server starts; its iperf3 waits for startClient().
        if (opened) await this.discardClient(opened);
        const client = this.openClient(prepared, port);
        opened = client;
        const started = await startServer({
          remote: this.deps.remote,
          server,
          iperf3Path: iperf.server.path,
          argv: serverArgvFor(options, iperf.server.version, server, port, output),
          port,
          pty,
          limits: this.deps.limits,
          onLine: (line) => this.serverLog.add(line),
          onStart: (process) => {
            void process.pid.then(() => markStart(this.runId, "server pid"));
            void this.recordPid("serverPid", process);
          },
        });
        this.commands.set({ serverCommand: started.process.commandLine });
        if (!started.hasExited) {
          this.holdings.addProcess(started.process);
          return { listening: { server: started.server, client } };
        }
        const error = classifyIperfError(
          started.errorText || "the iperf3 server exited before listening",
          server.platform,
        );
        const failure = new RunError(error.kind, error.message, { hint: error.hint });
        if (error.kind !== "listener-failed" || !/in use/i.test(error.message)) throw failure;
        return { busy: failure };
      },
    });
    return { ...prepared, port, ...listening };
  }

  /**
   * Step 3 against an iperf3 server Wirespeed does not manage: no server to start, no port to lease
   * (the server's own range is tried in order, busy ports skipped, by stream()); the client is opened
   * for the first port, and asks for the server's output where its iperf3 can (--get-server-output).
   */
  private reachExternalServer(prepared: Prepared, endpoint: ExternalServerEndpoint): Listening {
    const retrySeconds = prepared.options.busyRetrySeconds ?? DEFAULT_BUSY_RETRY_SECONDS;
    const tries = new BusyServerTries(serverPorts(endpoint.portRange, prepared.options.port), retrySeconds);
    const server = externalServer(endpoint, tries);
    return { ...prepared, port: tries.port, server, client: this.openClient(prepared, tries.port, server) };
  }

  /**
   * The client, gated: its host's shell is set up now, its iperf3 starts in startClient(). Against an
   * unmanaged server (`external`), what the client prints of the server's output goes to the server's log.
   */
  private openClient(prepared: Prepared, port: number, external?: ExternalServer): RunClient {
    const { client, server } = prepared.endpoints;
    const serverIperf = prepared.iperf.server;
    const { argv, liveMode } = buildClientArgv({
      options: { ...prepared.options, port },
      version: prepared.iperf.client.version,
      serverAddress: server.address,
      bindAddress: client.address,
      hostName: client.hostName,
      // -A: refused with a clear message where a platform cannot pin a core, before anything starts
      platform: client.platform,
      // An unmanaged server's platform and version are unknown: its core of -A n,m is its own business.
      server:
        server.access === "ssh" && serverIperf.access === "ssh"
          ? { platform: server.platform, hostName: server.hostName, version: serverIperf.version }
          : undefined,
      getServerOutput: external !== undefined,
    });
    const parser = createIperfParser({ platform: client.platform });
    // How many intervals this client gave: a refused one gave none (isRefusedBeforeListening).
    const counted = { intervals: 0 };
    const splitter = external ? createServerOutputSplitter() : null;
    const onLine = (raw: string) => {
      const routed = splitter ? splitter.push(raw) : { client: raw, server: [] };
      for (const line of routed.server) {
        this.serverLog.add(line);
        external?.report.push(line);
      }
      if (routed.client === null) return;
      const line = routed.client;
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
      prepared.iperf.client.path,
      argv,
      { onStdoutLine: onLine, onStderrLine: onLine },
      // Its NIC's counters around it: the proof of the path (path-check.ts) of the bytes the client sends.
      { pty: liveMode === "pty", gated: true, counters: true },
    );
    this.holdings.addProcess(process);
    this.commands.clientOpened(process);
    return Object.assign(counted, { process, parser });
  }

  /** A client opened for a port that turned out to be busy, or refused by a slow server: it goes. */
  private async discardClient(client: RunClient): Promise<void> {
    this.commands.clientDiscarded();
    await this.holdings.discard(client.process);
  }

  /** Step 4: the client's host is ready to start iperf3 the moment it is told. */
  private async clientReady(client: RunClient, endpoint: RunEndpoint): Promise<void> {
    await withTimeout(
      client.process.ready,
      this.deps.limits.serverStartMs,
      () =>
        new RunError(
          "timeout",
          `The iperf3 client on ${endpoint.hostName} was not ready to start within ${this.deps.limits.serverStartMs / 1000} s.`,
        ),
    );
  }

  /**
   * Step 5, with `latency` only: the client's host pings the server's address, idle, for
   * LATENCY_IDLE_SECONDS; the pings go on under load until the traffic ends. A ping that cannot
   * run costs the run its latency figures, never its result.
   */
  private async idle(listening: Listening): Promise<Ready> {
    const { options, endpoints } = listening;
    if (!options.latency) return { ...listening, latency: null };
    const latency = new LatencyProbe(this.runId, this.deps.remote);
    await latency.start(endpoints.client, endpoints.server.address, options, this.signal).catch((error: unknown) => {
      console.error(
        `[wirespeed] run ${this.runId}: ping did not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    });
    return { ...listening, latency };
  }

  /** Step 6: the client starts; its intervals are parsed, stored and published as they arrive. */
  private async startClient(ready: Ready): Promise<Streaming> {
    ready.client.process.release();
    markStart(this.runId, "running");
    const startedAt = new Date();
    const tries = ready.server.access === "iperf3-server" ? { serverTries: ready.server.tries.count } : {};
    await this.setStatus("running", { ...this.commands.columns, port: ready.port, startedAt, ...tries });
    void this.recordPid("clientPid", ready.client.process);
    return { ...ready, startedAt };
  }

  /**
   * Step 7: until the client exits (or is cancelled, or overruns). A client refused by a -J server
   * that did not listen yet starts again (see server-start.ts), and so does one that an unmanaged
   * server answered busy, on the next port of its range (external-server.ts).
   */
  private async stream(streaming: Streaming): Promise<Finished> {
    const limit = timeLimitMs(streaming.options, this.deps.limits.runMarginMs);
    let client = streaming.client;
    // Between a refused client's discard and the next one's opening, a cancel has no client to stop.
    let isClientOpen = true;
    const onAbort = () => void (isClientOpen && client.process.stop());
    this.signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (let retryMs = CLIENT_RETRY_FIRST_MS; ; retryMs = Math.min(2 * retryMs, CLIENT_RETRY_MAX_MS)) {
        const { exitCode } = await withTimeout(
          client.process.done,
          limit,
          () =>
            new RunError("timeout", `The test did not end within ${Math.round(limit / 1000)} s.`, {
              hint: "The link or a host stalled; the samples so far are kept.",
            }),
        );
        const result = client.parser.end();
        const retry = this.nextTry(streaming, result, client.intervals, retryMs);
        if (retry === null) {
          const { server } = streaming;
          const port = server.access === "iperf3-server" ? server.tries.port : streaming.port;
          return { ...streaming, port, client, result, clientExitCode: exitCode };
        }
        // The refused client's output stays in the log, marked; a new client starts when its host is ready.
        this.clientLog.add(retry.note);
        isClientOpen = false;
        await this.discardClient(client);
        await delay(retry.waitMs);
        if (this.signal.aborted) throw new RunError("interrupted", "The test was cancelled.");
        client = this.openClient(streaming, retry.port, retry.external);
        isClientOpen = true;
        await this.clientReady(client, streaming.endpoints.client);
        client.process.release();
        void this.recordPid("clientPid", client.process);
      }
    } finally {
      this.signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * The rest of step 7: the latency probe's pings end with the traffic, and the server, once it has
   * exited, has its say. Its -J document, printed as it exits, makes exact what the server measured
   * (exact-summary.ts); a listener error in it means the client reached another program on the port.
   */
  private async readServerReport(finished: Finished): Promise<Finished> {
    const { server, result } = finished;
    await finished.latency?.end();
    // An unmanaged server's output came with the client's (--get-server-output): a -J server's makes it exact too.
    if (server.access === "iperf3-server") {
      const report = server.report.end();
      return isCompleteServerReport(report)
        ? { ...finished, result: { ...result, ...exactSummaries(result, report) } }
        : finished;
    }
    await withTimeout(
      server.process.done,
      this.deps.limits.serverExitGraceMs,
      () => new Error("server still running"),
    ).catch(() => server.process.stop());
    const report = server.report.end();
    // The client reached something else on the port: our server could not listen there after all.
    if (report.error?.kind === "listener-failed")
      throw new RunError(report.error.kind, report.error.message, { hint: report.error.hint });
    return isCompleteServerReport(report)
      ? { ...finished, result: { ...result, ...exactSummaries(result, report) } }
      : finished;
  }

  /**
   * After a client ended: whether another starts, on which port, after how long and why (for the
   * client's log); null when this client's end is the run's. A managed server may have been slow to
   * listen (isRefusedBeforeListening); an unmanaged one may have been busy (busyRetry).
   */
  private nextTry(listening: Listening, result: IperfResult, intervals: number, retryMs: number): ClientRetry | null {
    const { server } = listening;
    if (server.access === "ssh") {
      if (!this.isRefusedBeforeListening(server, result, intervals, retryMs)) return null;
      const note = `[Wirespeed: the server was not listening yet; the client starts again in ${retryMs} ms]`;
      return { port: listening.port, waitMs: retryMs, note };
    }
    const next = this.busyRetry(server, result, intervals);
    if (next === null) return null;
    const after = next.waitMs > 0 ? ` in ${next.waitMs} ms` : "";
    const note = `[Wirespeed: the server is busy; try ${server.tries.count} on port ${next.port}${after}]`;
    return { ...next, note, external: server };
  }

  /**
   * Against an iperf3 server Wirespeed does not manage: after a client it answered busy, the next
   * port and how long to wait first (external-server.ts), the tries so far stored with the run; null
   * when the client ran (or failed otherwise). Throws the run's server-busy failure once the tries are
   * used up.
   */
  private busyRetry(
    server: ExternalServer,
    result: IperfResult,
    intervals: number,
  ): { port: number; waitMs: number } | null {
    if (this.signal.aborted || result.error?.kind !== "server-busy" || intervals > 0) return null;
    const next = server.tries.next();
    if (next === null) throw server.tries.failure(server.endpoint);
    void db.run
      .update({ where: { id: this.runId }, data: { serverTries: server.tries.count, port: next.port } })
      .catch(() => undefined);
    return next;
  }

  /**
   * A client that found nothing listening, while a -J server (which only seemed to listen) still runs and
   * has had less than the server start time to bind: the server was slow, not absent. Anything else,
   * a firewall that rejects the port included, ends the run with the client's own error.
   */
  private isRefusedBeforeListening(
    server: ListeningServer,
    result: IperfResult,
    intervals: number,
    retryMs: number,
  ): boolean {
    if (!server.isListeningPresumed || server.hasExited || this.signal.aborted) return false;
    if (result.error?.kind !== "connection-refused" || intervals > 0) return false;
    return performance.now() + retryMs - server.startedAt < this.deps.limits.serverStartMs;
  }

  /** Whatever happened: nothing of ours stays running on either host, ports and firewalls are given back. */
  async close(): Promise<void> {
    for (const reason of await this.holdings.close()) {
      this.failure ??= new RunError(
        "unknown",
        `Could not restore a host's firewall: ${String((reason as Error | undefined)?.message ?? reason).split("\n")[0]}`,
        { hint: "Check the firewall state of the ESXi host by hand (esxcli network firewall get)." },
      );
    }
  }

  /**
   * Step 8, from whichever phase the run reached: the outcome stored with every sample and ping so far,
   * the viewers told, the live stream closed.
   */
  async finish(): Promise<void> {
    await Promise.all(this.writes);
    let writeError: unknown = null;
    await this.writer.close().catch((error: unknown) => (writeError = error));
    const ready = reachedSince(this.reached, "ready");
    const listening = reachedSince(this.reached, "listening");
    const finished = reachedSince(this.reached, "finished");
    const latency = await ready?.latency?.close();
    // Why a run that asked for latency has none: beside what else its client's snapshot misses.
    const environment =
      latency?.problem && ready
        ? {
            ...ready.environment,
            client: { ...ready.environment.client, missing: [...ready.environment.client.missing, latency.problem] },
          }
        : null;
    const { status, error } = this.outcome(writeError, finished);
    const pathCheck = finished ? await this.checkPath(finished) : null;
    const result = finished?.result ?? null;
    const interrupted = result?.interrupted ?? false;
    // Against an unmanaged server: how many tries it took, and the port of the last.
    const server = listening?.server ?? null;
    const tries =
      server?.access === "iperf3-server" ? { serverTries: server.tries.count, port: server.tries.port } : {};
    await finishRun(
      this.deps.bus,
      this.runId,
      {
        // The command line is quoted for the host's shell once its agent is known: read again at the end.
        ...this.commands.columnsAtEnd,
        ...summaryColumns(result?.summary ?? null, "", interrupted),
        ...summaryColumns(result?.reverseSummary ?? null, "reverse", interrupted),
        ...cpuColumns(cpuOf(result, server)),
        ...tries,
        ...latencyColumns(latency?.summary ?? null),
        ...pathCheckColumns(pathCheck),
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
   * Where the bytes went: each managed end's NIC counters, read by the commands that ran the client and
   * the server (remote-agents.ts), against what iperf3 sent. An iperf3 server Wirespeed does not manage
   * has none: its end is null.
   */
  private async checkPath(finished: Finished): Promise<PathCheck | null> {
    const { result, client, server, options } = finished;
    // Without a summary there is nothing to prove, and no reason to wait for the counters.
    if (!result.summary) return null;
    const [clientEnd, serverEnd] = await Promise.all([
      readPathEnd(client.process),
      server.access === "ssh" ? readPathEnd(server.process) : Promise.resolve(null),
    ]);
    return runPathCheck(options, result, { client: clientEnd, server: serverEnd });
  }

  private outcome(writeError: unknown, finished: Finished | null): RunOutcome {
    // iperf3 always ends a test with a summary or an error: without either, it did not run as iperf3.
    const code = finished?.clientExitCode == null ? "" : ` (exit code ${finished.clientExitCode})`;
    return runOutcome({
      signal: this.signal,
      failure: this.failure,
      result: finished?.result ?? null,
      writeError,
      platform: reachedSince(this.reached, "resolved")?.endpoints.client.platform ?? "unknown",
      noResult: {
        message: `iperf3 ended without a result${code}.`,
        hint: "See the client's output below: the program may not be iperf3, or it crashed.",
      },
    });
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

/**
 * Both ends' CPU use: the client's output has both, except for a reverse test in text mode
 * (iperf3 3.7+ prints CPU only on the sender), where the server's own report gives its part:
 * its -J document, or its -V line when it prints text.
 */
function cpuOf(result: IperfResult | null, server: Pick<ListeningServer, "report"> | null): IperfCpu | null {
  const fromClient = result?.cpu ?? null;
  if (fromClient?.serverPercent != null || !server) return fromClient;
  // A -J server always reports its CPU use; a text one with -V.
  const serverPercent = server.report.end().cpu?.serverPercent ?? null;
  if (serverPercent === null) return fromClient;
  return { clientPercent: fromClient?.clientPercent ?? null, serverPercent };
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
