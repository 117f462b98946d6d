import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { HOST_FOR_TARGET } from "@/lib/hosts/target";
import {
  buildServerArgv,
  classifyIperfError,
  createIperfParser,
  FLAG_SINCE,
  IperfOptionsSchema,
  isVersionAtLeast,
  type IperfOptions,
  type IperfResult,
} from "@/lib/iperf";
import type { RunEventBus } from "./bus";
import { parseStoredOptions, type ClientSide, type RunStatus } from "./contract";
import { cpuColumns, pathCheckColumns, summaryColumns } from "./columns";
import { RunError } from "./errors";
import { finishRun, managedEndpoint } from "./execution";
import { Holdings } from "./holdings";
import type { ExecutionLimits } from "./limits";
import type { PortLeases } from "./ports";
import type { RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { SampleWriter } from "./samples";
import { nicAddress, OutputLog, readPathEnd, runOutcome, runPathCheck, type RunOutcome } from "./outcome";
import { listenOnFreePort, type PortAttempt } from "./server-port";
import { startServer, type ListeningServer } from "./server-start";
import { signatureOf } from "./signature";
import { withTimeout } from "./timers";

// A device's run (issue 27): a phone, a TV or a laptop Wirespeed cannot log in to runs the iperf3
// client itself, so Wirespeed starts a one-off server (`-s -1`) on the link's managed end, bound to
// that NIC, and waits: preparing → listening → running → succeeded | failed (`no-client` when nobody
// came before the timeout) | cancelled | interrupted. The server prints its intervals live (text with
// --forceflush, a pty before 3.1.5); they are stored and published like any run's. The device picks
// the direction (`-R`: the managed end sends) and the rest; they are stored as the run's options once
// the server's output shows them, with the device's side as the client side. A 3.12 server knows only
// its own side of the summary: the receiver's figures when the device sent, the sender's with -R.

/** The server stops a test that runs longer than this when the device asked for no duration (-t 0, -n). */
const MAX_DEVICE_TEST_MS = 60 * 60 * 1000;

/** A link a device's run listens on: the managed end that serves, and the device's side. */
export type ListenLink = {
  linkId: number;
  linkName: string;
  server: RunEndpoint;
  /** the side of the link the device is on: the run's client side */
  deviceSide: ClientSide;
  deviceName: string;
  /** the device NIC's address when it was entered, else null (any address is then expected) */
  deviceAddress: string | null;
};

/**
 * The warning a run carries when the device connected from another address than its NIC's (a
 * phone on Wi-Fi instead of the link's port, a NAT in between): null when it matches or the NIC
 * has no address.
 */
export function peerWarning(peerAddress: string | null, deviceAddress: string | null): string | null {
  if (peerAddress === null || deviceAddress === null) return null;
  const bare = (address: string) => address.replace(/^::ffff:/i, "").toLowerCase();
  if (bare(peerAddress) === bare(deviceAddress)) return null;
  return `The device connected from ${peerAddress}, not from its NIC's address ${deviceAddress}: the test may have crossed another path than this link.`;
}

const NIC_SELECT = { select: { name: true, addresses: true, host: HOST_FOR_TARGET } } as const;

/**
 * The link's managed end and its device end, or a refusal naming the link: it must join a host
 * Wirespeed logs in to (access ssh) to a device, and the managed NIC must have an address to bind.
 */
export async function loadListenLink(linkId: number): Promise<ListenLink> {
  const link = await db.link.findUnique({
    where: { id: linkId },
    select: { id: true, name: true, aNic: NIC_SELECT, bNic: NIC_SELECT },
  });
  if (!link) throw new RunError("not-found", `Link ${linkId} does not exist.`);
  const ends = [
    { side: "a" as const, nic: link.aNic },
    { side: "b" as const, nic: link.bNic },
  ];
  const device = ends.find((end) => end.nic.host.access === "device");
  const managed = ends.find((end) => end.nic.host.access === "ssh");
  if (!device || !managed) {
    throw new RunError(
      "conflict",
      `Link ${link.name} joins ${link.aNic.host.name} (${link.aNic.host.access}) and ${link.bNic.host.name} (${link.bNic.host.access}): Wirespeed listens for a device only on a link between a host it logs in to (ssh) and a device.`,
      {
        hint: "Start an ordinary test on this link instead.",
        fields: [{ field: "linkId", message: `link ${link.name} has no device end` }],
      },
    );
  }
  const address = nicAddress(managed.nic.addresses);
  if (!address) {
    throw new RunError(
      "conflict",
      `Link ${link.name}: NIC ${managed.nic.name} of ${managed.nic.host.name} has no address to listen on.`,
      {
        hint: "Add the NIC's address, or discover the host's NICs.",
        fields: [{ field: "linkId", message: `link ${link.name}'s managed NIC has no address` }],
      },
    );
  }
  const host = managed.nic.host;
  return {
    linkId: link.id,
    linkName: link.name,
    deviceSide: device.side,
    deviceName: device.nic.host.name,
    deviceAddress: nicAddress(device.nic.addresses),
    server: managedEndpoint(host, managed.nic.name, address),
  };
}

/** The options a listening run starts with: iperf3's defaults, until the device's own show. */
const DEVICE_DEFAULT_OPTIONS: IperfOptions = IperfOptionsSchema.parse({});

/** Records the run of a device on `link`, preparing, with the device as its client. */
export async function recordListenRun(link: ListenLink): Promise<number> {
  const run = await db.run.create({
    data: {
      linkId: link.linkId,
      status: "preparing",
      clientSide: link.deviceSide,
      options: DEVICE_DEFAULT_OPTIONS as Prisma.InputJsonValue,
      signature: signatureOf(DEVICE_DEFAULT_OPTIONS, link.deviceSide),
    },
  });
  return run.id;
}

/** What a listening run needs from the engine that runs it. */
export type ListenDeps = { remote: RunRemote; ports: PortLeases; bus: RunEventBus; limits: ExecutionLimits };

// "Accepted connection from 198.18.11.2, port 40312" (IPv6 addresses printed bare)
const ACCEPTED_LINE = /Accepted connection from (\S+?),? port (\d+)/;
// "Starting Test: protocol: TCP, 1 streams, 131072 byte blocks, omitting 0 seconds, 10 second test, tos 0"
const STARTING_LINE = /Starting Test: protocol: (\w+), (\d+) streams?, .*?omitting (\d+) seconds?, (\d+) second test/;
// -V: "      Target Bitrate: 100000000" (a UDP device's -b)
const TARGET_BITRATE_LINE = /Target Bitrate: (\d+)/;

/** What the server's output said of the device's test, beyond the parser's result. */
type DeviceTest = { protocol?: "tcp" | "udp"; parallel?: number; omit?: number; duration?: number; bitrate?: number };

/**
 * One device's run from its record to its end. `listening` resolves once the server listens (or the
 * run ended before it could); `run()` carries the run out and stores its outcome, never throwing.
 */
export class ListenExecution {
  private readonly writer: SampleWriter;
  private readonly holdings = new Holdings();
  private readonly parser: ReturnType<typeof createIperfParser>;
  private readonly serverLog = new OutputLog();
  private failure: unknown = null;
  private statusChain: Promise<void> = Promise.resolve();
  private readonly test: DeviceTest = {};
  private serverCommand: string | undefined;
  private serverVersion: string | undefined;
  /** The one-off server once it listens: its counters are the managed end's proof of the path. */
  private listeningServer: ListeningServer | null = null;
  private hasConnected = false;
  private markConnected = () => {};
  private readonly connected = new Promise<void>((resolve) => (this.markConnected = resolve));
  /** Starts over once the test's duration is known: the test may last that long, and the margin. */
  private resetDeadline: (ms: number) => void = () => {};
  private markListening = () => {};
  readonly listening = new Promise<void>((resolve) => (this.markListening = resolve));

  constructor(
    readonly runId: number,
    private readonly link: ListenLink,
    private readonly timeoutSeconds: number,
    private readonly deps: ListenDeps,
    private readonly signal: AbortSignal,
  ) {
    this.writer = new SampleWriter(runId);
    this.parser = createIperfParser({ platform: link.server.platform });
  }

  async run(): Promise<void> {
    try {
      const { server, port } = await this.listen();
      this.listeningServer = server;
      await this.waitForDevice(server, port);
      await this.waitForEnd(server);
    } catch (error) {
      this.failure ??= error;
    } finally {
      // Whatever happened: the server stops, its port and a firewall opened for it are given back.
      await this.holdings.close();
    }
    await this.statusChain;
    await this.finish().finally(() => this.markListening());
  }

  /** iperf3 found on the managed end, a one-off server listening on a free port of its range. */
  private async listen(): Promise<{ server: ListeningServer; port: number }> {
    const { server } = this.link;
    this.deps.bus.publish(this.runId, "status", { status: "preparing" });
    const iperf = await this.deps.remote.detectIperf(server, this.signal);
    await db.host.update({
      where: { id: server.hostId },
      data: { iperf3Path: iperf.path, iperf3Version: iperf.version.raw, lastSeenAt: new Date() },
    });
    this.serverVersion = iperf.version.raw;
    this.holdings.addFirewall(await this.deps.remote.openFirewall(server));
    // Before --forceflush (3.1.5) only a pty gets the intervals out while the test runs.
    const pty = !isVersionAtLeast(iperf.version, FLAG_SINCE["--forceflush"]);
    const { port, listening } = await listenOnFreePort({
      ports: this.deps.ports,
      server,
      fixed: undefined,
      signal: this.signal,
      hold: (lease) => this.holdings.addPort(lease),
      listen: async (port): Promise<PortAttempt<ListeningServer>> => {
        const started = await startServer({
          remote: this.deps.remote,
          server,
          iperf3Path: iperf.path,
          // -1: the server exits after the device's one test; text (-V, --forceflush): intervals as they come
          argv: buildServerArgv({
            version: iperf.version,
            bindAddress: server.address,
            port,
            oneOff: true,
            verbose: true,
            hostName: server.hostName,
            output: "text",
          }),
          port,
          pty,
          limits: this.deps.limits,
          onLine: (line) => this.onServerLine(line),
          onStart: (process) => void this.recordServerPid(process),
        });
        this.serverCommand = started.process.commandLine;
        if (!started.hasExited) {
          this.holdings.addProcess(started.process);
          return { listening: started.server };
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
    const expiresAt = new Date(Date.now() + this.timeoutSeconds * 1000);
    this.setStatus("listening", {
      port,
      listenAddress: server.address,
      listenPort: port,
      listenExpiresAt: expiresAt,
      serverCommand: this.serverCommand,
      serverIperfVersion: this.serverVersion,
    });
    await this.statusChain;
    this.markListening();
    return { server: listening, port };
  }

  /** Until the device connects; nobody before the timeout is `no-client`. */
  private async waitForDevice(server: ListeningServer, port: number): Promise<void> {
    const { address } = this.link.server;
    const outcome = await withTimeout(
      Promise.race([
        this.connected.then(() => "connected" as const),
        server.process.done.then(() => "exited" as const),
        this.aborted().then(() => "aborted" as const),
      ]),
      this.timeoutSeconds * 1000,
      () =>
        new RunError("no-client", `No device connected to ${address} port ${port} within ${this.timeoutSeconds} s.`, {
          hint: `Run iperf3 -c ${address} -p ${port} on the device (or type that address and port into its iperf3 app) while Wirespeed listens, or listen again with a longer timeoutSeconds.`,
        }),
    );
    // A connection that came with the exit (a quick test) still counts: its output is read below.
    if (outcome === "exited" && !this.hasConnected)
      throw new RunError(
        "unknown",
        `The iperf3 server on ${this.link.server.hostName} exited before a device connected.`,
        {
          hint: "See the server's output below.",
        },
      );
  }

  /** Until the one-off server exits after the device's test, or the test overruns, or the run is cancelled. */
  private async waitForEnd(server: ListeningServer): Promise<void> {
    let restart: (ms: number) => void = () => {};
    const overrun = new Promise<never>((_, reject) => {
      let timer: NodeJS.Timeout | undefined;
      restart = (ms) => {
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            reject(
              new RunError("timeout", `The device's test did not end within ${Math.round(ms / 1000)} s.`, {
                hint: "The link or the device stalled; the samples so far are kept.",
              }),
            ),
          ms,
        );
      };
      void server.process.done.finally(() => clearTimeout(timer));
      this.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    });
    overrun.catch(() => undefined);
    this.resetDeadline = restart;
    restart(this.testLimitMs());
    await Promise.race([server.process.done, overrun, this.aborted()]);
  }

  private testLimitMs(): number {
    const { duration, omit = 0 } = this.test;
    if (!duration) return MAX_DEVICE_TEST_MS;
    return (duration + omit) * 1000 + this.deps.limits.runMarginMs;
  }

  /** Resolves when the run is cancelled or Wirespeed stops. */
  private aborted(): Promise<void> {
    if (this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.signal.addEventListener("abort", () => resolve(), { once: true }));
  }

  private onServerLine(line: string): void {
    this.log(line);
    const accepted = ACCEPTED_LINE.exec(line);
    if (accepted && !this.hasConnected) this.onConnected(accepted[1]!);
    const starting = STARTING_LINE.exec(line);
    if (starting) {
      this.test.protocol = starting[1]!.toLowerCase() === "udp" ? "udp" : "tcp";
      this.test.parallel = Number(starting[2]);
      this.test.omit = Number(starting[3]);
      this.test.duration = Number(starting[4]);
      this.resetDeadline(this.testLimitMs());
    }
    const bitrate = TARGET_BITRATE_LINE.exec(line);
    if (bitrate) this.test.bitrate = Number(bitrate[1]);
    for (const event of this.parser.push(line)) {
      if (event.type !== "interval") continue;
      this.deps.bus.publish(this.runId, "sample", this.writer.add(event.interval));
    }
  }

  /** The device is here: the run runs, and where it came from is kept (with a warning when unexpected). */
  private onConnected(peerAddress: string): void {
    this.hasConnected = true;
    this.markConnected();
    const warning = peerWarning(peerAddress, this.link.deviceAddress);
    if (warning) this.log(`[Wirespeed: ${warning}]`);
    this.setStatus("running", { startedAt: new Date(), peerAddress });
  }

  private log(line: string): void {
    this.serverLog.add(line);
  }

  /** Status changes in the order they happen, whatever the database's pace (a device may connect at once). */
  private setStatus(status: RunStatus, data: Prisma.RunUpdateInput = {}): void {
    this.statusChain = this.statusChain.then(async () => {
      await db.run.update({ where: { id: this.runId }, data: { status, ...data } });
      this.deps.bus.publish(this.runId, "status", { status });
    });
    this.statusChain.catch(() => undefined);
  }

  /** Remembers the server's pid so that a restarted app stops what this one left listening. */
  private async recordServerPid(process: RemoteProcess): Promise<void> {
    const pid = await process.pid.catch(() => null);
    if (pid) await db.run.update({ where: { id: this.runId }, data: { serverPid: pid } }).catch(() => undefined);
  }

  /** The outcome stored with every sample, the device's options and the server's side of the summary. */
  private async finish(): Promise<void> {
    let writeError: unknown = null;
    await this.writer.close().catch((error: unknown) => (writeError = error));
    const result = this.hasConnected ? this.parser.end() : null;
    const { status, error } = this.outcome(result, writeError);
    const options = result ? this.deviceOptions(result) : null;
    const interrupted = result?.interrupted ?? false;
    // The device has no counters Wirespeed can read: the check rests on the managed end where it sends (-R).
    const server = this.listeningServer ? await readPathEnd(this.listeningServer.process) : null;
    const pathCheck = options ? runPathCheck(options, result, { client: null, server }) : null;
    await finishRun(
      this.deps.bus,
      this.runId,
      {
        ...(options
          ? {
              options: options as Prisma.InputJsonValue,
              signature: signatureOf(options, this.link.deviceSide),
            }
          : {}),
        ...summaryColumns(result?.summary ?? null, "", interrupted),
        ...summaryColumns(result?.reverseSummary ?? null, "reverse", interrupted),
        // The server is the managed end; the device's CPU use never reaches it.
        ...cpuColumns(result?.cpu ? { clientPercent: null, serverPercent: result.cpu.serverPercent } : null),
        ...(this.serverCommand ? { serverCommand: this.serverCommand } : {}),
        ...(this.serverVersion ? { serverIperfVersion: this.serverVersion } : {}),
        ...pathCheckColumns(pathCheck),
        status,
        endedAt: new Date(),
        serverOutput: this.serverLog.toString(),
      },
      error,
    );
  }

  /** What the device asked for, as the server's output shows it: -R and --bidir, protocol, streams, duration. */
  private deviceOptions(result: IperfResult): IperfOptions {
    const options = {
      ...DEVICE_DEFAULT_OPTIONS,
      protocol: this.test.protocol ?? result.protocol,
      parallel: this.test.parallel ?? (result.streams || 1),
      reverse: result.direction === "reverse",
      bidir: result.direction === "bidir",
      ...(this.test.duration ? { duration: this.test.duration } : {}),
      ...(this.test.omit ? { omit: this.test.omit } : {}),
      ...(this.test.bitrate !== undefined && (this.test.protocol ?? result.protocol) === "udp"
        ? { bitrate: this.test.bitrate }
        : {}),
    };
    // A device may ask for what Wirespeed's own form would refuse: kept as it ran (parseStoredOptions reads it).
    const parsed = IperfOptionsSchema.safeParse(options);
    return parsed.success ? parsed.data : parseStoredOptions(options);
  }

  private outcome(result: IperfResult | null, writeError: unknown): RunOutcome {
    return runOutcome({
      signal: this.signal,
      failure: this.failure,
      result,
      writeError,
      platform: this.link.server.platform,
      noResult: {
        message: "The device's test ended without a result.",
        hint: "See the server's output below: the device may have stopped its test early.",
      },
    });
  }
}

/**
 * The managed end of a device's stored run (its client side a device), for the restart's clean-up
 * of the server it left listening; null for any other run.
 */
export async function loadListenServerEndpoint(runId: number): Promise<RunEndpoint | null> {
  const hostAccess = { select: { host: { select: { access: true } } } } as const;
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { linkId: true, clientSide: true, link: { select: { aNic: hostAccess, bNic: hostAccess } } },
  });
  const client = run.clientSide === "b" ? run.link.bNic : run.link.aNic;
  if (client.host.access !== "device") return null;
  return (await loadListenLink(run.linkId)).server;
}
