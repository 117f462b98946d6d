// Pure helpers for every platform whose login shell is POSIX sh (Linux, macOS, FreeBSD, ESXi's BusyBox ash).
import { parseIperfVersion } from "@/lib/iperf";
import { checkPid, COUNTERS_AFTER, COUNTERS_BEFORE, COUNTERS_END } from "./process";
import type {
  CommandOutput,
  CounterReader,
  DetectResult,
  ExecCommand,
  Platform,
  StartCommandInput,
  StopSignal,
} from "./types";

// Words made only of these need no quotes; keeping them bare makes the shown commands readable.
const SAFE_WORD = /^[A-Za-z0-9_@%+:,./-]+$/;

/**
 * One POSIX sh word that stands for exactly `arg`: single quotes, with `'` written as `'\''` and `\` as
 * `'\\'` (escaped, outside the quotes). sh, bash, BusyBox ash and zsh need only the first; the second
 * keeps the word the same for a login shell whose single quotes give `\` a meaning (fish reads `\'`
 * there as a quote), so no login shell can be talked out of the quotes by a backslash.
 * No argv can hold a NUL byte, so it is refused rather than cut.
 */
export function posixQuoteArg(arg: string): string {
  if (arg.includes("\0")) throw new Error("an argument cannot contain a NUL byte");
  if (SAFE_WORD.test(arg)) return arg;
  return `'${arg.replace(/['\\]/g, (ch) => `'\\${ch}'`)}'`;
}

export function posixQuote(argv: readonly string[]): string {
  return argv.map(posixQuoteArg).join(" ");
}

export function posixCommand(argv: readonly string[]): ExecCommand {
  return { argv: [...argv], quote: posixQuote, posixShell: true };
}

/** `sh -c SCRIPT sh ARGS...`: the script is a constant, the data arrive as $1, $2... and are never parsed as code. */
export function shScript(script: string, args: readonly string[] = []): ExecCommand {
  return posixCommand(["sh", "-c", script, "sh", ...args]);
}

/**
 * Runs "$@" in the background through `sh -c 'echo "wirespeed-pid $$"; exec "$@"'` (it prints its own
 * PID before anything else, then becomes the program, so `kill -INT <pid>` over another exec hits
 * iperf3 itself), and stops it with TERM when stdin reaches EOF: the SSH channel was closed or the
 * connection dropped. OpenSSH refuses "signal" requests in root sessions, so this watch is what makes
 * an abort or a lost connection leave no process behind. fd 3 keeps the channel's stdin for the watcher
 * (background jobs get /dev/null); `read` is a builtin, so killing the watcher leaves nothing running.
 * The exit status is the program's. `alongside` lines run in the background beside the program, its
 * pid in $p, and are stopped when it exits.
 */
const watchedScript = (alongside: readonly string[]) => [
  "exec 3<&0",
  `sh -c 'echo "wirespeed-pid $$"; exec "$@"' sh "$@" 3<&- &`,
  "p=$!",
  '{ read -r _ <&3; kill -TERM "$p"; } >/dev/null 2>&1 &',
  "w=$!",
  // What runs beside the program (a watch of its listening socket), in the background as $a.
  ...(alongside.length > 0 ? [`{\n${alongside.join("\n")}\n} </dev/null 3<&- 2>/dev/null &`, "a=$!"] : []),
  "exec 3<&-",
  'wait "$p"',
  "r=$?",
  'kill "$w" 2>/dev/null',
  ...(alongside.length > 0 ? ['kill "$a" 2>/dev/null'] : []),
];

// `gated`: ready, then one line on stdin before anything starts; EOF (the channel closed) ends it.
const GATE = ['echo "wirespeed-ready"', "IFS= read -r _ || exit 0"];

/** A counter reading of the NIC in $n between its marker lines; it never reads the gate's stdin. */
const counterBlock = (marker: string, script: string) => [
  `echo ${marker}`,
  `{\n${script}\n} </dev/null 2>&1`,
  `echo ${COUNTERS_END}`,
];

/**
 * A long-running program that prints `wirespeed-pid <n>` first and dies with its channel; argv stays
 * separate words. With `counters`, the NIC's counters are read before the gate (so that a slow reader,
 * esxcli, never delays a start that goes with others) and again once the program has exited; its name
 * comes as $1, before the argv.
 */
export function pidFirstCommand(
  argv: readonly string[],
  prelude: readonly string[] = [],
  gated = false,
  counters?: StartCommandInput["counters"],
  alongside: readonly string[] = [],
): ExecCommand {
  const before = counters ? ["n=$1", "shift", ...counterBlock(COUNTERS_BEFORE, counters.script)] : [];
  const after = counters ? counterBlock(COUNTERS_AFTER, counters.script) : [];
  const script = [...before, ...prelude, ...(gated ? GATE : []), ...watchedScript(alongside), ...after, 'exit "$r"'];
  return { ...shScript(script.join("\n"), counters ? [counters.nicName, ...argv] : argv), keepStdinOpen: true };
}

export function posixStartCommand({ iperf3Path, args, gated, counters }: StartCommandInput): ExecCommand {
  return pidFirstCommand([iperf3Path, ...args], [], gated, counters);
}

/** A POSIX platform's counter reader: its script reads the NIC in $n, alone or inside a start command. */
export function posixCounterReader(script: string, parse: CounterReader["parse"]): CounterReader {
  return { script, parse, command: (nicName) => shScript(`n=$1\n${script}`, [nicName]) };
}

/**
 * The program runs with its stdout line-buffered where the host has a stdbuf that works (GNU
 * coreutils, FreeBSD); elsewhere (BusyBox, macOS) as it is. iperf3's --forceflush flushes after
 * each stream's line of an interval but not after the [SUM] line of a `-P 2` or wider test, which
 * then waits in iperf3's stdio buffer until the next interval's first line: each interval reached
 * the engine one interval late, the first one included (0.5 s of every experiment step at `-i 0.5`).
 * The pid printed is still the program's (stdbuf execs it), and the check runs before the gate, off
 * the start's path.
 */
const LINE_BUFFERED_PRELUDE = [
  'if command -v stdbuf >/dev/null 2>&1 && stdbuf -oL true >/dev/null 2>&1; then set -- stdbuf -oL "$@"; fi',
];

/** The client, whose intervals are read as they are printed: started like the server, its stdout line-buffered. */
export function posixClientCommand({ iperf3Path, args, gated, counters }: StartCommandInput): ExecCommand {
  return pidFirstCommand([iperf3Path, ...args], LINE_BUFFERED_PRELUDE, gated, counters);
}

export function posixStopCommand(pid: number, signal: StopSignal): ExecCommand {
  return posixCommand(["kill", `-${signal}`, checkPid(pid)]);
}

/** `kill -0` succeeds while the process exists (and we may signal it). */
export function posixIsRunningCommand(pid: number): ExecCommand {
  return posixCommand(["kill", "-0", checkPid(pid)]);
}

export function posixParseIsRunning(output: CommandOutput): boolean {
  return output.exitCode === 0;
}

/** The program a PID runs, as `ps -p` names it (procps and BSD ps; BusyBox ps has no `-p`). */
export function posixProgramNameCommand(pid: number): ExecCommand {
  return posixCommand(["ps", "-p", checkPid(pid), "-o", "comm="]);
}

// One round trip: the OS name, the first candidate that resolves to an iperf3, and its version text.
const DETECT_SCRIPT = [
  'printf "wirespeed-os %s\\n" "$(uname -s)"',
  'p=""',
  'for c in "$@"; do p=$(command -v "$c" 2>/dev/null) && break; p=""; done',
  'printf "wirespeed-iperf3 %s\\n" "$p"',
  'if [ -n "$p" ]; then echo "wirespeed-version"; "$p" -v 2>&1; fi',
  "exit 0",
].join("\n");

/** Candidates are tried in order (a configured path alone, or PATH then the usual install places). */
export function posixDetectCommands(candidates: readonly string[]): ExecCommand[] {
  return [shScript(DETECT_SCRIPT, candidates)];
}

export function posixParseDetect(platform: Platform, outputs: readonly CommandOutput[]): DetectResult {
  const text = outputs[0]?.stdout ?? "";
  const lines = text.split("\n");
  const value = (tag: string) => {
    const line = lines.find((l) => l.startsWith(`${tag} `) || l === tag);
    return line === undefined ? null : line.slice(tag.length).trim();
  };
  const os = value("wirespeed-os") ?? "";
  const path = value("wirespeed-iperf3") || null;
  const versionStart = lines.indexOf("wirespeed-version");
  const versionText =
    versionStart === -1
      ? null
      : lines
          .slice(versionStart + 1)
          .join("\n")
          .trim();
  const version = versionText === null ? null : parseIperfVersion(versionText);
  return { platform, os, iperf3Path: path, version, versionText };
}
