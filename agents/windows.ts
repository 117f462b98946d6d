// Windows (Win32-OpenSSH, whose default shell is cmd.exe): cmd quoting, iperf3.exe at a configurable path,
// the server kept in the foreground of its own channel, NICs from PowerShell as JSON.
import { parseIperfVersion } from "@/lib/iperf";
import { windowsEnvironmentReader } from "./environment-windows";
import { windowsPingSupport } from "./ping";
import { checkPid } from "./process";
import type {
  CommandOutput,
  DetectResult,
  DiscoveredNic,
  ExecCommand,
  NicAddress,
  NicCounters,
  PlatformAgent,
  StartCommandInput,
} from "./types";

export const WINDOWS_IPERF3_PATH = "C:\\iperf3\\iperf3.exe";

// Words of only these characters mean the same to cmd.exe and to the program's argv parser without quotes.
// (`,` `;` `=` are separators to cmd, so they are quoted.)
const SAFE_WORD = /^[A-Za-z0-9_\-+.:/\\@]+$/;

// $ (variables, subexpressions), ` (escape) and ‘ ’ ‚ ‛ “ ” „ (PowerShell's other quote characters).
const POWERSHELL_ACTIVE = /[$`\u2018-\u201E]/;

/** cmd.exe refuses longer command lines ("The command line is too long"). */
export const CMD_MAX_LINE = 8191;

/** Thrown for an argument that cmd.exe cannot pass through unchanged whatever its settings. */
export class UnquotableArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnquotableArgumentError";
  }
}

/**
 * One cmd.exe word that reaches the program (MSVCRT argv rules) as exactly `arg`. Inside double
 * quotes cmd leaves & | < > ^ alone; `"` is doubled (`""` keeps cmd inside its quoted state, unlike
 * `\"`); backslashes before a quote are doubled; `%` becomes `%%cd:~,%` (cmd expands `%cd:~,%` to
 * nothing, so no `%VAR%` survives: the trick Rust's std uses since CVE-2024-24576).
 */
export function cmdQuoteArg(arg: string): string {
  if (/[\r\n\0]/.test(arg))
    throw new UnquotableArgumentError("cmd.exe cannot pass a line break or NUL inside an argument");
  // With delayed expansion on (a registry setting), `!x!` expands even in quotes and no escape works both ways.
  if (arg.includes("!"))
    throw new UnquotableArgumentError('cmd.exe may expand "!" (delayed expansion): remove it from the argument');
  // OpenSSH's DefaultShell may be set to PowerShell, which reads this same line: inside "..." it runs
  // $(...), takes ` as an escape and ends the string at a typographic quote. None of these is needed in
  // anything Wirespeed passes, so they are refused rather than trusted to cmd.exe being the shell.
  if (POWERSHELL_ACTIVE.test(arg)) {
    throw new UnquotableArgumentError(
      "a Windows argument cannot contain $, ` or typographic quotes (PowerShell would read them as code)",
    );
  }
  if (arg !== "" && SAFE_WORD.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === "\\") {
      backslashes++;
      continue;
    }
    if (ch === '"') {
      out += "\\".repeat(backslashes * 2) + '""';
    } else {
      out += "\\".repeat(backslashes) + (ch === "%" ? "%%cd:~,%" : ch);
    }
    backslashes = 0;
  }
  // Backslashes before the closing quote are doubled, or the program would read `\"` as a quote.
  return `${out}${"\\".repeat(backslashes * 2)}"`;
}

/**
 * The whole command line for `cmd.exe /c` (how Win32-OpenSSH runs a command). A line that starts with a
 * quote gets one more pair around it, because cmd /c strips the first and the last quote of such a line.
 */
export function cmdQuote(argv: readonly string[]): string {
  const words = argv.map(cmdQuoteArg).join(" ");
  const line = words.startsWith('"') ? `"${words}"` : words;
  if (line.length > CMD_MAX_LINE) {
    throw new UnquotableArgumentError(
      `the command line would be ${line.length} characters; cmd.exe takes at most ${CMD_MAX_LINE}`,
    );
  }
  return line;
}

export function cmdCommand(argv: readonly string[]): ExecCommand {
  return { argv: [...argv], quote: cmdQuote };
}

/** `ver`, then `<iperf3> -v`: two commands, because cmd has no portable way to test a path and branch. */
function windowsDetectCommands(iperf3Path: string = WINDOWS_IPERF3_PATH): ExecCommand[] {
  return [cmdCommand(["ver"]), cmdCommand([iperf3Path, "-v"])];
}

function windowsParseDetect(outputs: readonly CommandOutput[], iperf3Path: string = WINDOWS_IPERF3_PATH): DetectResult {
  const os = (outputs[0]?.stdout ?? "").trim();
  const iperf = outputs[1];
  const versionText = iperf ? `${iperf.stdout}\n${iperf.stderr}`.trim() : "";
  const version = parseIperfVersion(versionText);
  // cmd says "'...' is not recognized as an internal or external command" for a missing program.
  const isFound = iperf !== undefined && version !== null;
  return {
    platform: "windows",
    os,
    iperf3Path: isFound ? iperf3Path : null,
    version,
    versionText: isFound ? versionText : null,
  };
}

// Two JSON documents, one per cmdlet; markers keep them apart. -Compress keeps each on one line.
const DISCOVER_SCRIPT = [
  "Write-Output wirespeed-adapters",
  "Get-NetAdapter | Select-Object Name,InterfaceDescription,ifIndex,MacAddress,LinkSpeed,ReceiveLinkSpeed,TransmitLinkSpeed," +
    "MtuSize,Status,FullDuplex,DriverName | ConvertTo-Json -Compress",
  "Write-Output wirespeed-addresses",
  "Get-NetIPAddress | Select-Object InterfaceAlias,InterfaceIndex,IPAddress,PrefixLength,AddressFamily | ConvertTo-Json -Compress",
  "Write-Output wirespeed-end",
].join("; ");

type NetAdapter = {
  Name?: string;
  InterfaceDescription?: string;
  ifIndex?: number;
  MacAddress?: string;
  LinkSpeed?: string;
  ReceiveLinkSpeed?: number;
  TransmitLinkSpeed?: number;
  MtuSize?: number;
  Status?: string;
  FullDuplex?: boolean;
  DriverName?: string;
};
type NetIPAddress = {
  InterfaceAlias?: string;
  InterfaceIndex?: number;
  IPAddress?: string;
  PrefixLength?: number;
  AddressFamily?: number | string;
};

// ConvertTo-Json prints a lone object instead of a one-element array.
function jsonList<T>(text: string): T[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const parsed: unknown = JSON.parse(trimmed);
  if (Array.isArray(parsed)) return parsed as T[];
  return parsed && typeof parsed === "object" ? [parsed as T] : [];
}

/** "1 Gbps", "2.5 Gbps", "100 Mbps", "10 Gbps" → Mb/s. */
export function windowsLinkSpeedMbps(linkSpeed: string | undefined, bitsPerSecond: number | undefined): number | null {
  if (typeof bitsPerSecond === "number" && bitsPerSecond > 0) return Math.round(bitsPerSecond / 1e6);
  const match = /^([\d.]+)\s*([KMG])bps$/i.exec(linkSpeed?.trim() ?? "");
  if (!match) return null;
  const factor = { K: 0.001, M: 1, G: 1000 }[match[2]!.toUpperCase() as "K" | "M" | "G"];
  const value = Number(match[1]) * factor;
  return value > 0 ? value : null;
}

/** Parses the output of the Windows discover command: Get-NetAdapter joined with Get-NetIPAddress. */
export function parseWindowsNics(output: string): DiscoveredNic[] {
  const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const part = (marker: string) => {
    const start = lines.indexOf(marker);
    if (start === -1) return "";
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((l) => /^wirespeed-/.test(l));
    return (end === -1 ? rest : rest.slice(0, end)).join("\n");
  };
  const adapters = jsonList<NetAdapter>(part("wirespeed-adapters"));
  const addresses = jsonList<NetIPAddress>(part("wirespeed-addresses"));
  return adapters
    .filter((a) => typeof a.Name === "string")
    .map((a) => {
      const own = addresses.filter((ip) =>
        a.ifIndex !== undefined ? ip.InterfaceIndex === a.ifIndex : ip.InterfaceAlias === a.Name,
      );
      const nicAddresses: NicAddress[] = [];
      for (const ip of own) {
        if (typeof ip.IPAddress !== "string" || typeof ip.PrefixLength !== "number") continue;
        // AddressFamily is 2/23 in Windows PowerShell 5.1 and "IPv4"/"IPv6" in PowerShell 7.
        const isV4 = ip.AddressFamily === 2 || ip.AddressFamily === "IPv4";
        const address = ip.IPAddress.replace(/%.*$/, "");
        if (!isV4 && /^fe[89ab]/i.test(address)) continue;
        nicAddresses.push({ address, prefixLength: ip.PrefixLength, family: isV4 ? "ipv4" : "ipv6" });
      }
      return {
        name: a.Name as string,
        mac: a.MacAddress ? a.MacAddress.replace(/-/g, ":").toLowerCase() : null,
        mtu: typeof a.MtuSize === "number" ? a.MtuSize : null,
        speedMbps: a.Status === "Up" ? windowsLinkSpeedMbps(a.LinkSpeed, a.ReceiveLinkSpeed) : null,
        duplex: a.Status === "Up" && typeof a.FullDuplex === "boolean" ? (a.FullDuplex ? "full" : "half") : null,
        isUp: a.Status ? a.Status === "Up" : null,
        addresses: nicAddresses,
        driver: a.DriverName ? (a.DriverName.split("\\").pop() ?? null) : null,
        pcieLinkSpeed: null,
        pcieLinkWidth: null,
        description: a.InterfaceDescription ?? null,
      };
    });
}

/** Windows builds of iperf3 report no Retr or Cwnd (no TCP_INFO): the engine must not expect them. */
export const WINDOWS_HAS_TCP_INFO = false;

/**
 * Every adapter's byte counters as JSON, one constant command (the parser picks the NIC by name, so the
 * name never reaches the host). cmd.exe cannot wait for a go or print around a program: the engine runs
 * it alone, before the client or server starts and after it ends.
 */
export const WINDOWS_COUNTERS_ARGV = [
  "powershell",
  "-NoProfile",
  "-NonInteractive",
  "-Command",
  "Get-NetAdapterStatistics -ErrorAction Ignore | Select-Object Name,SentBytes,ReceivedBytes | ConvertTo-Json -Compress",
] as const;

/** `Get-NetAdapterStatistics` as JSON (one object, or an array of them): the adapter named `nicName`. */
export function parseWindowsCounters(output: string, nicName: string): NicCounters | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.trim());
  } catch {
    return null;
  }
  const adapters = (Array.isArray(parsed) ? parsed : [parsed]) as {
    Name?: unknown;
    SentBytes?: unknown;
    ReceivedBytes?: unknown;
  }[];
  const adapter = adapters.find((a) => a && a.Name === nicName);
  const { SentBytes: txBytes, ReceivedBytes: rxBytes } = adapter ?? {};
  return typeof txBytes === "number" && typeof rxBytes === "number" ? { txBytes, rxBytes } : null;
}

export const windowsAgent: PlatformAgent = {
  platform: "windows",
  // cmd.exe fails `uname -s` and runs `ver`, which prints an empty line, then this.
  probeAnswer: /Microsoft Windows \[Version/i,
  defaultIperf3Path: WINDOWS_IPERF3_PATH,
  quote: cmdQuote,
  command: cmdCommand,
  detectCommands: windowsDetectCommands,
  parseDetect: windowsParseDetect,
  // Background processes die with the session: the server runs in the foreground of its own channel,
  // and closing that channel (or taskkill) ends it. No PID line: cmd has no $$.
  printsPid: false,
  gatesStart: false,
  serverCommand: ({ iperf3Path, args }: StartCommandInput) => cmdCommand([iperf3Path, ...args]),
  clientCommand: ({ iperf3Path, args }: StartCommandInput) => cmdCommand([iperf3Path, ...args]),
  // Windows has no signals to choose from: every step is a forced kill of the process tree.
  stopCommand: (pid) => cmdCommand(["taskkill", "/PID", checkPid(pid), "/T", "/F"]),
  isRunningCommand: (pid) => cmdCommand(["tasklist", "/FI", `PID eq ${checkPid(pid)}`, "/NH", "/FO", "CSV"]),
  parseIsRunning: (output, pid) => output.stdout.includes(`"${pid}"`),
  discoverNicsCommand: () => cmdCommand(["powershell", "-NoProfile", "-NonInteractive", "-Command", DISCOVER_SCRIPT]),
  parseNics: parseWindowsNics,
  environment: windowsEnvironmentReader({ command: cmdCommand, linkSpeedMbps: windowsLinkSpeedMbps }),
  ping: windowsPingSupport(cmdCommand),
  counters: { command: () => cmdCommand(WINDOWS_COUNTERS_ARGV), parse: parseWindowsCounters },
};
