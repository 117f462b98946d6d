// The registry of platform agents, and telling the platform from the probe's output. Adding a platform:
// its own file and its line in AGENTS, after its name in lib/platforms.ts (see README.md).
import type { Platform } from "@/lib/platforms";
import { esxiAgent } from "./esxi";
import { freebsdAgent } from "./freebsd";
import { linuxAgent } from "./linux";
import { macosAgent } from "./macos";
import type { ExecCommand, PlatformAgent } from "./types";
import { windowsAgent } from "./windows";

export type {
  CommandOutput,
  DetectResult,
  DiscoveredNic,
  EnvironmentReader,
  ExecCommand,
  FirewallControl,
  HostEnvironment,
  NicAddress,
  NicCounters,
  Platform,
  PingSupport,
  PlatformAgent,
  StartCommandInput,
  StopSignal,
} from "./types";
export { CounterBlocks, LISTENING_LINE, parsePidLine, PID_LINE_PREFIX, STOP_SEQUENCE } from "./process";
export { posixQuote, posixQuoteArg } from "./posix";
export { cmdQuote, cmdQuoteArg, UnquotableArgumentError, WINDOWS_IPERF3_PATH } from "./windows";
export { ESXI_IPERF3_PATH } from "./esxi";
export { esxiAgent, freebsdAgent, linuxAgent, macosAgent, windowsAgent };

/** One agent per platform of lib/platforms.ts: the compiler refuses a missing or an extra one. */
export const AGENTS: Readonly<Record<Platform, PlatformAgent>> = {
  linux: linuxAgent,
  esxi: esxiAgent,
  windows: windowsAgent,
  macos: macosAgent,
  freebsd: freebsdAgent,
};

export function getAgent(platform: Platform): PlatformAgent {
  return AGENTS[platform];
}

/**
 * The first command to an unknown host. `||` means the same in sh and cmd.exe: POSIX shells answer
 * `uname -s`, cmd.exe fails it and runs `ver`. A constant string: no user data is in it.
 */
export const PLATFORM_PROBE: ExecCommand = { argv: ["uname", "-s"], quote: () => "uname -s || ver" };

/** The platform from the probe's output (`uname -s` or `ver`), or null when it is none we know. */
export function detectPlatform(output: string): Platform | null {
  const text = output.trim();
  return Object.values(AGENTS).find((agent) => agent.probeAnswer.test(text))?.platform ?? null;
}
