import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  buildClientArgv,
  buildServerArgv,
  classifyIperfError,
  createIperfParser,
  IperfOptionsSchema,
  FLAG_SINCE,
  isVersionAtLeast,
  type IperfVersion,
  type IperfOptions,
  type IperfPlatform,
  type IperfResult,
  type IperfSummary,
} from "@/lib/iperf";
import { hostTarget } from "@/lib/hosts/target";
import { runEventBus, type RunEventBus } from "./bus";
import { RunError, runFailureOf, type RunFailure } from "./errors";
import { LinkQueue } from "./link-queue";
import { PortLeases } from "./ports";
import type { RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import type { ClientSide } from "./request";
import { SampleWriter } from "./samples";
import { withTimeout } from "./timers";
import { isTerminalStatus, runJson, type RunStatus } from "./serialize";
import { recordAudit } from "@/lib/auth/audit";

// The run engine: queued → preparing → running → succeeded | failed | cancelled | interrupted.
// One run per link at a time; iperf3 ports leased per host; samples persisted in
// batches and published on the bus as they arrive; whatever happens, the samples
// so far, both raw outputs and the exact commands are kept with the run.

const SERVER_START_TIMEOUT_MS = 10_000;
// After the client exits, the one-off server prints its summary and exits too.
const SERVER_EXIT_GRACE_MS = 5_000;
// Beyond duration + omit: connection set-up, the summary exchange, a slow host.
const RUN_MARGIN_MS = 30_000;
// A run by byte count has no duration: it may take this long before it is stopped.
const BYTES_RUN_LIMIT_MS = 60 * 60 * 1000;
const MAX_RAW_OUTPUT_CHARS = 4 * 1024 * 1024;
const MAX_PORT_ATTEMPTS = 5;

type StartRunInput = { linkId: number; options: IperfOptions; clientSide: ClientSide; groupId?: number | null };

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

function summaryColumns(summary: IperfSummary | null, prefix: "" | "reverse", isInterrupted: boolean): Prisma.RunUpdateInput {
  if (!summary) return {};
  const sender = summary.sender;
  // A client stopped by a signal prints a receiver line of "0.00 Bytes": it measured nothing, so store none.
  const receiver = isInterrupted && summary.receiver?.bytes === 0 ? null : summary.receiver;
  if (prefix === "reverse") {
    return {
      reverseSentBytes: sender?.bytes ?? null,
      reverseSentBitsPerSecond: sender?.bitsPerSecond ?? null,
      reverseReceivedBytes: receiver?.bytes ?? null,
      reverseReceivedBitsPerSecond: receiver?.bitsPerSecond ?? null,
      reverseRetransmits: sender?.retransmits ?? null,
    };
  }
  return {
    sentBytes: sender?.bytes ?? null,
    sentBitsPerSecond: sender?.bitsPerSecond ?? null,
    receivedBytes: receiver?.bytes ?? null,
    receivedBitsPerSecond: receiver?.bitsPerSecond ?? null,
    retransmits: sender?.retransmits ?? null,
    jitterMs: receiver?.jitterMs ?? null,
    lostPackets: receiver?.lostPackets ?? null,
    packets: receiver?.packets ?? null,
    lostPercent: receiver?.lostPercent ?? null,
  };
}

/**
 * The one-off server's argv. Where the version has it (3.10+), --idle-timeout makes a
 * server whose client never came exit by itself, even if Wirespeed is gone by then.
 */
export function serverArgvFor(options: IperfOptions, version: IperfVersion, server: Pick<RunEndpoint, "address" | "hostName">, port: number): string[] {
  const idleTimeoutSeconds = isVersionAtLeast(version, FLAG_SINCE["--idle-timeout"]) ? Math.min(86_400, Math.ceil(timeLimitMs(options) / 1000)) : undefined;
  return buildServerArgv({ version, bindAddress: server.address, port, oneOff: true, idleTimeoutSeconds, hostName: server.hostName });
}

function timeLimitMs(options: IperfOptions): number {
  if (options.bytes !== undefined) return BYTES_RUN_LIMIT_MS;
  return ((options.duration ?? 10) + (options.omit ?? 0)) * 1000 + RUN_MARGIN_MS;
}

function nicAddress(addresses: unknown): string | null {
  const first = Array.isArray(addresses) ? addresses.find((value) => typeof value === "string") : undefined;
  return typeof first === "string" ? first.replace(/\/\d+$/, "") : null;
}

type LoadedEndpoints = { client: RunEndpoint; server: RunEndpoint };

export class RunEngine {
  private readonly queue = new LinkQueue();
  private readonly ports = new PortLeases();
  private readonly controllers = new Map<number, AbortController>();
  private readonly finished = new Map<number, { promise: Promise<void>; resolve: () => void }>();

  constructor(
    private readonly remote: RunRemote,
    private readonly bus: RunEventBus = runEventBus,
  ) {}

  /** Records a run and queues it on its link; it starts at once when the link is free. */
  async startRun(input: StartRunInput) {
    const link = await db.link.findUnique({ where: { id: input.linkId }, select: { id: true, name: true, speedMbps: true } });
    if (!link) throw new RunError("not-found", `Link ${input.linkId} does not exist.`);
    const run = await db.run.create({
      data: {
        linkId: link.id,
        clientSide: input.clientSide,
        options: input.options as Prisma.InputJsonValue,
        groupId: input.groupId ?? null,
      },
    });
    await recordAudit("run.start", "run", run.id, `${link.name}, client on ${input.clientSide}: ${JSON.stringify(input.options)}`);
    this.bus.begin(run.id);
    this.bus.publish(run.id, "status", { status: "queued" });
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    this.finished.set(run.id, { promise, resolve });
    this.controllers.set(run.id, new AbortController());
    this.queue.enqueue(link.id, run.id, () => {
      void this.execute(run.id).finally(() => this.forget(link.id, run.id));
    });
    return runJson(run, link);
  }

  /** Same link, same options, same client side: a new run. */
  async rerun(runId: number) {
    const previous = await db.run.findUnique({ where: { id: runId }, select: { linkId: true, options: true, clientSide: true } });
    if (!previous) throw new RunError("not-found", `Run ${runId} does not exist.`);
    const options = IperfOptionsSchema.parse(previous.options);
    return this.startRun({ linkId: previous.linkId, options, clientSide: previous.clientSide as ClientSide });
  }

  /** Stops a run: both ends' iperf3 are stopped and the samples so far are kept. */
  async cancelRun(runId: number): Promise<RunStatus> {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, linkId: true } });
    if (!run) throw new RunError("not-found", `Run ${runId} does not exist.`);
    if (isTerminalStatus(run.status)) return run.status as RunStatus;
    await recordAudit("run.cancel", "run", runId, `was ${run.status}`);
    const controller = this.controllers.get(runId);
    if (run.status === "queued" && this.queue.position(run.linkId, runId) !== 0) {
      // Never started: it leaves the queue and ends here.
      await this.finish(runId, { status: "cancelled", endedAt: new Date() }, null);
      this.forget(run.linkId, runId);
      return "cancelled";
    }
    controller?.abort();
    await this.finished.get(runId)?.promise;
    const after = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    return (after?.status ?? "cancelled") as RunStatus;
  }

  /** Waits until a run has ended (for tests and the CLI). */
  async waitForRun(runId: number): Promise<void> {
    await this.finished.get(runId)?.promise;
  }

  /** The run is over: the next one on its link may start. */
  private forget(linkId: number, runId: number): void {
    this.controllers.delete(runId);
    this.finished.get(runId)?.resolve();
    this.finished.delete(runId);
    this.queue.done(linkId, runId);
  }

  /** Place in the link's queue: 0 running, 1 next, …; null when not queued here. */
  queuePosition(linkId: number, runId: number): number | null {
    return this.queue.position(linkId, runId);
  }

  /**
   * At start-up: runs a previous instance left preparing or running are marked
   * interrupted, and the iperf3 processes it started are stopped.
   */
  async recoverInterruptedRuns(): Promise<number> {
    const stale = await db.run.findMany({
      where: { status: { in: ["queued", "preparing", "running"] } },
      select: { id: true, clientSide: true, serverPid: true, clientPid: true },
    });
    for (const run of stale) {
      const pids = { server: run.serverPid, client: run.clientPid };
      try {
        const endpoints = await this.loadEndpoints(run.id);
        for (const role of ["server", "client"] as const) {
          const pid = pids[role];
          if (pid) await this.remote.stopLeftover(endpoints[role], [pid]);
        }
      } catch (error) {
        console.error(`run ${run.id}: could not stop leftover iperf3: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
      await db.run.update({
        where: { id: run.id },
        data: {
          status: "interrupted",
          endedAt: new Date(),
          errorKind: "interrupted",
          errorMessage: "Wirespeed stopped while this run was in progress.",
          errorHint: "The samples received before the stop are kept; run it again to get a full result.",
        },
      });
    }
    return stale.length;
  }

  private async loadEndpoints(runId: number): Promise<LoadedEndpoints> {
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
    const [clientNic, serverNic] = run.clientSide === "b" ? [run.link.bNic, run.link.aNic] : [run.link.aNic, run.link.bNic];
    const endpoint = (nic: typeof clientNic): RunEndpoint => {
      const host = nic.host;
      const address = nicAddress(nic.addresses);
      if (!address) throw new RunError("parameter", `NIC ${nic.name} of ${host.name} has no address: add one, or discover the host's NICs.`);
      return {
        hostId: host.id,
        hostName: host.name,
        platform: host.platform as IperfPlatform,
        target: hostTarget(host),
        iperf3Path: host.iperf3Path,
        portRange: { min: host.iperfPortMin, max: host.iperfPortMax },
        address,
        openFirewall: host.openFirewall,
      };
    };
    return { client: endpoint(clientNic), server: endpoint(serverNic) };
  }

  private async setStatus(runId: number, status: RunStatus, data: Prisma.RunUpdateInput = {}): Promise<void> {
    await db.run.update({ where: { id: runId }, data: { status, ...data } });
    this.bus.publish(runId, "status", { status });
  }

  /** Ends a run: stores what is known, tells the viewers, and closes its live stream. */
  private async finish(runId: number, data: Omit<Prisma.RunUpdateInput, "status"> & { status: RunStatus }, error: RunFailure | null): Promise<void> {
    const run = await db.run.update({
      where: { id: runId },
      data: { ...data, ...(error ? { errorKind: error.kind, errorMessage: error.message, errorHint: error.hint } : {}) },
      include: { link: { select: { id: true, name: true, speedMbps: true } } },
    });
    const json = runJson(run, run.link);
    if (json.summary) this.bus.publish(runId, "summary", json.summary);
    if (json.error) this.bus.publish(runId, "error", json.error);
    this.bus.publish(runId, "status", { status: json.status });
    this.bus.end(runId);
  }

  private async execute(runId: number): Promise<void> {
    const controller = this.controllers.get(runId) ?? new AbortController();
    const signal = controller.signal;
    const writer = new SampleWriter(runId);
    const serverLog = new OutputLog();
    const clientLog = new OutputLog();
    const processes: RemoteProcess[] = [];
    const restoreFirewalls: Array<() => Promise<void>> = [];
    let platform: IperfPlatform = "unknown";
    let leased: { hostId: number; port: number } | null = null;
    let result: IperfResult | null = null;
    let failure: unknown = null;
    const commands: { serverCommand?: string; clientCommand?: string; serverIperfVersion?: string; clientIperfVersion?: string } = {};
    // The command line is quoted for the host's shell once its agent is known: read again at the end.
    let startedClient: RemoteProcess | null = null;

    try {
      await this.setStatus(runId, "preparing");
      const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { options: true } });
      const options = IperfOptionsSchema.parse(run.options);
      const { client, server } = await this.loadEndpoints(runId);
      platform = client.platform;

      const [clientIperf, serverIperf] = await Promise.all([this.remote.detectIperf(client, signal), this.remote.detectIperf(server, signal)]);
      await Promise.all(
        [
          [client, clientIperf],
          [server, serverIperf],
        ].map(([endpoint, iperf]) =>
          db.host.update({
            where: { id: (endpoint as RunEndpoint).hostId },
            data: { iperf3Path: (iperf as typeof clientIperf).path, iperf3Version: (iperf as typeof clientIperf).version.raw, lastSeenAt: new Date() },
          }),
        ),
      );
      commands.clientIperfVersion = clientIperf.version.raw;
      commands.serverIperfVersion = serverIperf.version.raw;

      // Opted-in firewalls (ESXi) open for the test; `finally` restores them whatever happens.
      for (const endpoint of [server, client]) restoreFirewalls.push(await this.remote.openFirewall(endpoint));

      // Server first, on a free port: a port found busy on the host is skipped.
      const busyPorts = new Set<number>();
      let serverProcess: RemoteProcess | null = null;
      let port = 0;
      for (let attempt = 0; attempt < MAX_PORT_ATTEMPTS && !serverProcess; attempt += 1) {
        if (signal.aborted) break;
        port = options.port ?? this.ports.lease(server.hostId, server.hostName, server.portRange, busyPorts);
        leased = options.port === undefined ? { hostId: server.hostId, port } : null;
        const serverArgv = serverArgvFor(options, serverIperf.version, server, port);
        // Before --forceflush (3.1.5) only a pty gets "Server listening" out before the test ends.
        const started = await this.startServer(server, serverIperf.path, serverArgv, serverLog, runId, !isVersionAtLeast(serverIperf.version, FLAG_SINCE["--forceflush"]));
        commands.serverCommand = started.process.commandLine;
        if (started.isListening) {
          serverProcess = started.process;
          processes.push(serverProcess);
          break;
        }
        const error = classifyIperfError(started.errorText || "the iperf3 server exited before listening", server.platform);
        if (error.kind !== "listener-failed" || options.port !== undefined || !/in use/i.test(error.message)) throw new RunError(error.kind, error.message, error.hint);
        busyPorts.add(port);
        if (leased) this.ports.release(leased.hostId, leased.port);
        leased = null;
      }
      if (signal.aborted) throw new RunError("cancelled", "Cancelled before the test started.");
      if (!serverProcess) throw new RunError("listener-failed", `No free iperf3 port on ${server.hostName} after ${MAX_PORT_ATTEMPTS} tries.`);

      const { argv: clientArgv, liveMode } = buildClientArgv({ options: { ...options, port }, version: clientIperf.version, serverAddress: server.address, bindAddress: client.address, hostName: client.hostName });
      const parser = createIperfParser({ platform: client.platform });
      const handleLine = (line: string) => {
        for (const event of parser.push(line)) {
          if (event.type === "interval") {
            const seq = writer.add(event.interval);
            this.bus.publish(runId, "sample", { seq, ...event.interval, direction: event.interval.direction ?? "forward" });
          }
        }
      };
      const clientProcess = this.remote.startIperf(client, "client", clientIperf.path, clientArgv, {
        onStdoutLine: (line) => {
          clientLog.add(line);
          handleLine(line);
        },
        onStderrLine: (line) => {
          clientLog.add(line);
          handleLine(line);
        },
      }, { pty: liveMode === "pty" });
      processes.push(clientProcess);
      commands.clientCommand = clientProcess.commandLine;
      startedClient = clientProcess;
      await this.setStatus(runId, "running", { ...commands, startedAt: new Date() });
      void this.recordPid(runId, "clientPid", clientProcess);

      const onAbort = () => void clientProcess.stop();
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        await withTimeout(clientProcess.done, timeLimitMs(options), () => new RunError("timeout", `The test did not end within ${Math.round(timeLimitMs(options) / 1000)} s.`, "The link or a host stalled; the samples so far are kept."));
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
      result = parser.end();
      await withTimeout(serverProcess.done, SERVER_EXIT_GRACE_MS, () => new Error("server still running")).catch(() => serverProcess.stop());
    } catch (error) {
      failure = error;
    } finally {
      // Whatever happened, nothing of ours stays running on either host.
      await Promise.allSettled(processes.map((process) => process.stop()));
      if (leased) this.ports.release(leased.hostId, leased.port);
      const restored = await Promise.allSettled(restoreFirewalls.map((restore) => restore()));
      for (const outcome of restored) {
        if (outcome.status === "rejected") failure ??= new RunError("unknown", `Could not restore a host's firewall: ${String(outcome.reason?.message ?? outcome.reason).split("\n")[0]}`, "Check the firewall state of the ESXi host by hand (esxcli network firewall get).");
      }
    }

    let writeError: unknown = null;
    await writer.close().catch((error: unknown) => (writeError = error));

    const isCancelled = signal.aborted;
    let status: RunStatus;
    let error: RunFailure | null = null;
    if (isCancelled) {
      status = "cancelled";
    } else if (failure) {
      status = "failed";
      error = runFailureOf(failure, platform);
    } else if (result?.error) {
      status = "failed";
      error = result.error;
    } else if (writeError) {
      status = "failed";
      error = { kind: "unknown", message: `Could not store the samples: ${writeError instanceof Error ? writeError.message.split("\n")[0] : String(writeError)}`, hint: "Check the disk of the Wirespeed server." };
    } else {
      status = "succeeded";
    }
    await this.finish(
      runId,
      {
        ...commands,
        ...(startedClient ? { clientCommand: startedClient.commandLine } : {}),
        ...summaryColumns(result?.summary ?? null, "", result?.interrupted ?? false),
        ...summaryColumns(result?.reverseSummary ?? null, "reverse", result?.interrupted ?? false),
        status,
        endedAt: new Date(),
        serverOutput: serverLog.toString(),
        clientOutput: clientLog.toString(),
      },
      error,
    );
  }

  /** Remembers a process id so that a restarted app can stop what this one left running. */
  private async recordPid(runId: number, column: "serverPid" | "clientPid", process: RemoteProcess): Promise<void> {
    const pid = await process.pid.catch(() => null);
    if (pid) await db.run.update({ where: { id: runId }, data: { [column]: pid } }).catch(() => undefined);
  }

  /** Starts the server and waits until it listens, exits, or times out. */
  private async startServer(server: RunEndpoint, iperf3Path: string, argv: string[], log: OutputLog, runId: number, pty: boolean) {
    let errorText = "";
    let markListening = () => {};
    const listening = new Promise<void>((resolve) => (markListening = resolve));
    const process = this.remote.startIperf(server, "server", iperf3Path, argv, {
      onStdoutLine: (line) => {
        log.add(line);
        if (/Server listening on/i.test(line)) markListening();
        // Under a pty, iperf3's stderr arrives here too.
        if (pty && /error/i.test(line)) errorText += `${line}\n`;
      },
      onStderrLine: (line) => {
        log.add(line);
        if (/error/i.test(line)) errorText += `${line}\n`;
      },
    }, { pty });
    void this.recordPid(runId, "serverPid", process);
    const outcome = await withTimeout(
      Promise.race([listening.then(() => "listening" as const), process.done.then(() => "exited" as const)]),
      SERVER_START_TIMEOUT_MS,
      () => new RunError("timeout", `The iperf3 server on ${server.hostName} did not start listening within ${SERVER_START_TIMEOUT_MS / 1000} s.`),
    ).catch(async (error: unknown) => {
      await process.stop();
      throw error;
    });
    return { process, isListening: outcome === "listening", errorText: errorText.trim() };
  }
}
