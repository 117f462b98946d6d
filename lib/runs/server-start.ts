import {
  buildServerArgv,
  createIperfParser,
  FLAG_SINCE,
  isVersionAtLeast,
  type IperfOptions,
  type IperfPlatform,
  type IperfResult,
  type IperfServerOutput,
  type IperfVersion,
} from "@/lib/iperf";
import { RunError } from "./errors";
import { timeLimitMs, type ExecutionLimits } from "./limits";
import type { RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { withTimeout } from "./timers";

// A run's one-off iperf3 server: its argv, and its start until it listens, exits or times out.

// A -J server (see startServer): counted from its pid line, printed just before iperf3 is exec'd,
// this is ample time to bind or to fail (a busy port fails within milliseconds).
const SERVER_SETTLE_MS = 300;
// Where the platform prints no pid (Windows), the wait counts from the start request: add the SSH
// channel's opening and the start of iperf3.exe.
const SERVER_SETTLE_WITHOUT_PID_EXTRA_MS = 700;

let isListeningWatched = true;

/**
 * Turns the watch of the server's listening socket off (a -J server is then presumed listening after
 * its settle time on every host, as before the watch) or on again: for the latency bench, which
 * measures both in one process.
 */
export function setListeningWatch(on: boolean): void {
  isListeningWatched = on;
}

/**
 * The one-off server's argv. Where the version has it (3.10+), --idle-timeout makes a
 * server whose client never came exit by itself, even if Wirespeed is gone by then.
 * `output` "json": the server's -J document makes the summary exact (chooseServerOutput).
 */
export function serverArgvFor(
  options: IperfOptions,
  version: IperfVersion,
  server: Pick<RunEndpoint, "address" | "hostName">,
  port: number,
  output: IperfServerOutput = "text",
): string[] {
  const idleTimeoutSeconds = isVersionAtLeast(version, FLAG_SINCE["--idle-timeout"])
    ? Math.min(86_400, Math.ceil(timeLimitMs(options) / 1000))
    : undefined;
  return buildServerArgv({
    version,
    bindAddress: server.address,
    port,
    oneOff: true,
    idleTimeoutSeconds,
    verbose: true,
    hostName: server.hostName,
    output,
  });
}

/** The listening server's stdout, read as it arrives: its -J document, or its text with the -V CPU line. */
export type ServerReport = { push: (line: string) => void; end: () => IperfResult };

function serverReport(platform: IperfPlatform, isJson: boolean): ServerReport {
  const parser = createIperfParser({ platform });
  let result: IperfResult | null = null;
  // Whatever a host's shell might print before the document would make the parser read it all as text.
  let isInDocument = !isJson;
  return {
    push: (line) => {
      isInDocument ||= line.trimStart().startsWith("{");
      if (result === null && isInDocument) parser.push(line);
    },
    end: () => (result ??= parser.end()),
  };
}

/**
 * A server that listens, or only seems to (`isListeningPresumed`: a -J server that stayed up, see
 * startServer), with what it prints on stdout; `hasExited` turns true once it has exited.
 */
export type ListeningServer = {
  access: "ssh";
  process: RemoteProcess;
  report: ServerReport;
  startedAt: number;
  isListeningPresumed: boolean;
  hasExited: boolean;
};

/** How a start ended: a server that listens, or one that exited first, with what it said of why. */
export type ServerStart =
  | { hasExited: false; process: RemoteProcess; server: ListeningServer }
  | { hasExited: true; process: RemoteProcess; errorText: string };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server and waits until it listens, exits, or times out (a timeout stops it and throws).
 *
 * A text server says "Server listening". A -J server (chooseServerOutput) says nothing until its
 * test ends, on every platform and version, and fails at once when it cannot listen (an error in its
 * document, then exit). So it counts as listening ("presumed") once it has stayed up for a settle
 * time after its pid line, the last thing before iperf3 starts (or after the start request, with
 * more time, where the platform prints no pid). A probe of the port from outside would be taken for
 * the one client of a one-off server, and a probe on the host (ss, sockstat, netstat, esxcli, or
 * PowerShell) would need a tool per platform. What makes the presumption safe is the client: a
 * client refused because the server was slow starts again until the server start time is up
 * (RunExecution's stream), and a client that reached another program on the port ends the run with
 * the server's listener error. A busy port keeps its quick retry on the next port: the failure comes
 * within the settle time.
 */
export async function startServer({
  remote,
  server,
  iperf3Path,
  argv,
  port,
  pty,
  limits,
  onLine,
  onStart,
}: {
  remote: RunRemote;
  server: RunEndpoint;
  iperf3Path: string;
  argv: string[];
  /** the port in `argv`, watched on the host where it can be (RemoteProcess.listening) */
  port: number;
  pty: boolean;
  limits: Pick<ExecutionLimits, "serverStartMs" | "serverSettleMs">;
  /** each line the server prints, on stdout or stderr, for the run's log */
  onLine: (line: string) => void;
  /** the process as soon as its start is asked for (its pid is recorded then) */
  onStart: (process: RemoteProcess) => void;
}): Promise<ServerStart> {
  let errorText = "";
  const isJson = argv.includes("-J");
  const report = serverReport(server.platform, isJson);
  let markListening = () => {};
  const listening = new Promise<void>((resolve) => (markListening = resolve));
  const startedAt = performance.now();
  const process = remote.startIperf(
    server,
    "server",
    iperf3Path,
    argv,
    {
      onStdoutLine: (line) => {
        onLine(line);
        report.push(line);
        if (/Server listening on/i.test(line)) markListening();
        // Under a pty, iperf3's stderr arrives here too.
        if (pty && /error/i.test(line)) errorText += `${line}\n`;
      },
      onStderrLine: (line) => {
        onLine(line);
        if (/error/i.test(line)) errorText += `${line}\n`;
      },
    },
    // Its NIC's counters around it: the proof of the path (path-check.ts) of the bytes the server sends.
    { pty, counters: true, ...(isListeningWatched ? { listenPort: port } : {}) },
  );
  onStart(process);
  const settled = isJson ? settle(process, limits) : new Promise<never>(() => {});
  const outcome = await withTimeout(
    Promise.race([
      listening.then(() => "listening" as const),
      // The host saw iperf3 itself listen on the port (Linux): no settle time to wait out.
      ...(process.listening ? [process.listening.then(() => "listening" as const)] : []),
      settled.then(() => "presumed" as const),
      process.done.then(() => "exited" as const),
    ]),
    limits.serverStartMs,
    () =>
      new RunError(
        "timeout",
        `The iperf3 server on ${server.hostName} did not start listening within ${limits.serverStartMs / 1000} s.`,
      ),
  ).catch(async (error: unknown) => {
    await process.stop();
    throw error;
  });
  if (outcome === "exited") {
    // A -J server's own error is in its document; stderr has only "iperf3: exiting" then.
    if (isJson) errorText = report.end().error?.message ?? errorText;
    return { hasExited: true, process, errorText: errorText.trim() };
  }
  const listeningServer: ListeningServer = {
    access: "ssh",
    process,
    report,
    startedAt,
    isListeningPresumed: outcome === "presumed",
    hasExited: false,
  };
  void process.done.then(() => (listeningServer.hasExited = true));
  return { hasExited: false, process, server: listeningServer };
}

/** A -J server's settle time (see startServer): resolves once it has passed. */
async function settle(
  process: RemoteProcess,
  limits: Pick<ExecutionLimits, "serverStartMs" | "serverSettleMs">,
): Promise<void> {
  const settleMs = limits.serverSettleMs ?? SERVER_SETTLE_MS;
  const pid = await process.pid;
  // Never the whole server start time: a server that stays up must get its chance to be presumed listening.
  await delay(
    Math.min(pid === null ? settleMs + SERVER_SETTLE_WITHOUT_PID_EXTRA_MS : settleMs, limits.serverStartMs / 2),
  );
}
