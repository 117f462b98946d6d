import { AppError, type AppErrorOptions } from "@/lib/errors";
import { platformLabel } from "../platforms";
import type { IperfPlatform } from "./errors";
import { IperfOptionsSchema, isSafeAddress, isSafeHost, type IperfOptions, type IperfOptionsInput } from "./options";
import { isVersionAtLeast, type IperfVersion } from "./version";

/** First iperf3 release that has each flag we may pass (esnet/iperf release notes). */
export const FLAG_SINCE = {
  "-c": "3.0.0",
  "-s": "3.0.0",
  "-p": "3.0.0",
  "-t": "3.0.0",
  "-n": "3.0.0",
  "-P": "3.0.0",
  "-R": "3.0.0",
  "-u": "3.0.0",
  "-i": "3.0.0",
  "-O": "3.0.0",
  "-Z": "3.0.0",
  "-S": "3.0.0",
  "-V": "3.0.0",
  "-A": "3.0.0",
  "-J": "3.0.0",
  "-f": "3.0.0",
  "-w": "3.0.1",
  "-M": "3.0.1",
  "-l": "3.0.1",
  "-b": "3.0.1",
  "-B": "3.0.1",
  "--linux-congestion": "3.0.1",
  "-C": "3.1.0",
  "--get-server-output": "3.0.5",
  "-1": "3.0.11",
  "--forceflush": "3.1.5",
  "--bidir": "3.7.0",
  "--idle-timeout": "3.10.0",
  "-B addr%dev": "3.12.0",
  "--json-stream": "3.17.0",
} as const;

export type IperfFlag = keyof typeof FLAG_SINCE;

// iperf3 pins itself to a core with sched_setaffinity (Linux), cpuset_setaffinity (FreeBSD) or, from
// 3.4, SetProcessAffinityMask (Windows); macOS has none of them. Other platforms are left to iperf3.
const AFFINITY_ON_WINDOWS_SINCE = "3.4.0";

/** How the caller gets intervals while the test runs over SSH, where stdout is block-buffered. */
export type IperfLiveMode = "json-stream" | "forceflush" | "pty";

/** An option the remote iperf3 lacks, or an argument that is not safe to pass. */
export class IperfOptionError extends AppError {
  static override readonly errorName: string = "IperfOptionError";
  /** The option at fault, as the request names it (`bidir`, `port`, …). */
  readonly field: string;
  constructor(
    message: string,
    {
      field,
      hint = "Choose options this host's iperf3 supports, or upgrade iperf3 there.",
      ...options
    }: AppErrorOptions & { field: string },
  ) {
    super("parameter", message, { hint, ...options });
    this.field = field;
  }
}

function requireFlag(flag: IperfFlag, field: string, version: IperfVersion, hostName: string): void {
  if (isVersionAtLeast(version, FLAG_SINCE[flag])) return;
  const needed = FLAG_SINCE[flag].replace(/\.0$/, "");
  throw new IperfOptionError(`${flag} needs iperf3 ${needed} or newer; host ${hostName} has ${version.raw}`, { field });
}

function requireIperf3(version: IperfVersion, hostName: string): void {
  if (version.major !== 3) {
    throw new IperfOptionError(`host ${hostName} has iperf ${version.raw}; Wirespeed needs iperf3 (3.x)`, {
      field: "version",
    });
  }
}

/**
 * What the one-off server prints: "text" (its "Server listening" line, then intervals and, with -V, its
 * CPU use), or "json", one -J document when the test ends and nothing before.
 */
export type IperfServerOutput = "text" | "json";

/** The live-output flag this version supports: --json-stream from 3.17, --forceflush from 3.1.5, else a pty. */
export function chooseLiveMode(version: IperfVersion): IperfLiveMode {
  if (isVersionAtLeast(version, FLAG_SINCE["--json-stream"])) return "json-stream";
  if (isVersionAtLeast(version, FLAG_SINCE["--forceflush"])) return "forceflush";
  return "pty";
}

/**
 * How the server should report, given how the client does. A text client rounds every figure to 3
 * significant digits and its times to 1/100 s, so the server writes -J: what it measured itself (the
 * receiver of a normal test, the sender of -R, both of --bidir) then comes exact, to the byte and the
 * microsecond. A --json-stream client (3.17+) has every figure exact in its end event already, and the
 * server's text output keeps its "Server listening" line, the one sure sign that it listens.
 */
export function chooseServerOutput(clientLiveMode: IperfLiveMode): IperfServerOutput {
  return clientLiveMode === "json-stream" ? "text" : "json";
}

export type BuildClientArgvInput = {
  options: IperfOptions | IperfOptionsInput;
  version: IperfVersion;
  serverAddress: string;
  /** overrides options.bind: the local address of the NIC under test */
  bindAddress?: string;
  /** used in messages only */
  hostName: string;
  /** force a live mode, e.g. "pty" when the caller reads the text output through a pty anyway */
  liveMode?: IperfLiveMode;
  /** the client host's platform, for options some platforms lack (-A); not checked when absent */
  platform?: IperfPlatform;
  /** the server host, for the server's core of -A n,m; not checked when absent */
  server?: { platform: IperfPlatform; hostName: string; version?: IperfVersion };
  /**
   * --get-server-output (3.0.5+; left out on older clients): the server sends its own output after the
   * test, for a server Wirespeed does not run itself (splitServerOutput in server-output.ts reads it)
   */
  getServerOutput?: boolean;
};

/** argv for the client side (without the iperf3 binary); never a shell string. */
export function buildClientArgv(input: BuildClientArgvInput): { argv: string[]; liveMode: IperfLiveMode } {
  const { version, serverAddress, hostName } = input;
  const options = IperfOptionsSchema.parse(input.options);
  requireIperf3(version, hostName);
  if (!isSafeHost(serverAddress)) {
    throw new IperfOptionError(`server address "${serverAddress}" must be a host name or an IP address`, {
      field: "serverAddress",
    });
  }
  const bind = input.bindAddress ?? options.bind;
  const argv: string[] = ["-c", serverAddress];
  const add = (flag: IperfFlag, field: string, ...values: string[]) => {
    requireFlag(flag, field, version, hostName);
    argv.push(flag, ...values);
  };

  if (options.port !== undefined) add("-p", "port", String(options.port));
  if (options.protocol === "udp") add("-u", "protocol");
  if (options.bytes !== undefined) add("-n", "bytes", String(options.bytes));
  else add("-t", "duration", String(options.duration ?? 10));
  if (options.parallel !== 1) add("-P", "parallel", String(options.parallel));
  if (options.reverse) add("-R", "reverse");
  if (options.bidir) add("--bidir", "bidir");
  // UDP always gets -b: iperf3's UDP default is 1 Mbit/s, which looks like a broken link
  if (options.bitrate !== undefined || options.protocol === "udp") add("-b", "bitrate", String(options.bitrate ?? 0));
  if (options.omit !== undefined && options.omit > 0) add("-O", "omit", String(options.omit));
  if (options.window !== undefined) add("-w", "window", String(options.window));
  if (options.mss !== undefined) add("-M", "mss", String(options.mss));
  if (options.length !== undefined) add("-l", "length", String(options.length));
  if (options.zerocopy) add("-Z", "zerocopy");
  if (options.affinity !== undefined) {
    requireAffinity("client", input.platform, version, hostName);
    if (options.affinity.includes(",") && input.server)
      requireAffinity("server", input.server.platform, input.server.version, input.server.hostName);
    add("-A", "affinity", options.affinity);
  }
  if (options.congestion !== undefined) {
    // 3.0.x spelled -C as --linux-congestion
    if (isVersionAtLeast(version, FLAG_SINCE["-C"])) add("-C", "congestion", options.congestion);
    else add("--linux-congestion", "congestion", options.congestion);
  }
  if (options.interval !== 1) add("-i", "interval", String(options.interval));
  if (options.tos !== undefined) add("-S", "tos", String(options.tos));
  if (bind !== undefined) addBind(argv, bind, version, hostName);
  if (input.getServerOutput && isVersionAtLeast(version, FLAG_SINCE["--get-server-output"]))
    argv.push("--get-server-output");

  const liveMode = input.liveMode ?? chooseLiveMode(version);
  // text prints the CPU use of both ends only with -V; the JSON `end` event always has it
  if (liveMode !== "json-stream") add("-V", "liveMode");
  // A text client prints rates with 3 significant digits ("933 Mbits/sec") unless told a unit: in
  // Kbits/sec they are whole numbers of kbit/s (933127 Kbits/sec), what it measured itself (the
  // sender of a normal test, the receiver of -R) to 1 part in a million. Byte counts stay adaptive.
  if (liveMode !== "json-stream") add("-f", "liveMode", "k");
  if (liveMode === "json-stream") add("--json-stream", "liveMode");
  if (liveMode === "forceflush") add("--forceflush", "liveMode");
  return { argv, liveMode };
}

/** -A on an end whose iperf3 cannot pin itself to a core: refused before the run, naming the host. */
function requireAffinity(
  end: "client" | "server",
  platform: IperfPlatform | undefined,
  version: IperfVersion | undefined,
  hostName: string,
): void {
  const core = end === "client" ? "-A (CPU affinity)" : "-A n,m (the server's core m)";
  if (platform === "macos") {
    throw new IperfOptionError(
      `${core} is not available on host ${hostName} (${platformLabel(platform)}): iperf3 pins itself to a core on Linux, FreeBSD and Windows (3.4+) only`,
      { field: "affinity" },
    );
  }
  if (platform === "windows" && version !== undefined && !isVersionAtLeast(version, AFFINITY_ON_WINDOWS_SINCE)) {
    throw new IperfOptionError(`${core} needs iperf3 3.4 or newer on Windows; host ${hostName} has ${version.raw}`, {
      field: "affinity",
    });
  }
}

function addBind(argv: string[], bind: string, version: IperfVersion, hostName: string): void {
  if (!isSafeAddress(bind)) {
    throw new IperfOptionError(`bind address "${bind}" must be an IPv4 or IPv6 address`, { field: "bind" });
  }
  requireFlag("-B", "bind", version, hostName);
  // only IPv4 has no %; an IPv6 %zone is an address scope that every version accepts
  if (bind.includes("%") && !bind.includes(":")) requireFlag("-B addr%dev", "bind", version, hostName);
  argv.push("-B", bind);
}

export type BuildServerArgvInput = {
  version: IperfVersion;
  /** the address of the NIC under test; the server listens on it only */
  bindAddress: string;
  port: number;
  /** -1: the server exits after one test, so a crashed client leaves nothing behind */
  oneOff: true;
  /** --idle-timeout (3.10+): the server gives up when no client comes */
  idleTimeoutSeconds?: number;
  /** --forceflush (3.1.5+, on by default where supported) so the server's intervals arrive live over SSH */
  forceFlush?: boolean;
  /** -V: the server prints its own CPU use, the only CPU figure of a reverse (-R) test in text mode from 3.7 on */
  verbose?: boolean;
  /**
   * "json": -J with -i 0, one document at the end whose figures are exact (its CPU use is always in it).
   * No -V (3.12 prints some -V lines as text before the document), no --forceflush (nothing to flush
   * before the end), and no intervals: a one-hour `-P 32 -i 0.1` run would make a document of hundreds
   * of megabytes, while the client streams the intervals anyway. Default "text".
   */
  output?: IperfServerOutput;
  /** used in messages only */
  hostName?: string;
};

/** argv for the server side (without the iperf3 binary). */
export function buildServerArgv(input: BuildServerArgvInput): string[] {
  const { version, bindAddress, port } = input;
  const hostName = input.hostName ?? "(server)";
  requireIperf3(version, hostName);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new IperfOptionError(`port must be a whole number from 1 to 65535, not ${port}`, { field: "port" });
  }
  const argv = ["-s"];
  requireFlag("-1", "oneOff", version, hostName);
  argv.push("-1");
  addBind(argv, bindAddress, version, hostName);
  argv.push("-p", String(port));
  if (input.idleTimeoutSeconds !== undefined) {
    const seconds = input.idleTimeoutSeconds;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) {
      throw new IperfOptionError("idleTimeoutSeconds must be a whole number from 1 to 86400", {
        field: "idleTimeoutSeconds",
      });
    }
    requireFlag("--idle-timeout", "idleTimeoutSeconds", version, hostName);
    argv.push("--idle-timeout", String(seconds));
  }
  if (input.output === "json") {
    requireFlag("-J", "output", version, hostName);
    argv.push("-J", "-i", "0");
    return argv;
  }
  if (input.verbose) argv.push("-V");
  if ((input.forceFlush ?? true) && isVersionAtLeast(version, FLAG_SINCE["--forceflush"])) argv.push("--forceflush");
  return argv;
}
