// Platform → agent, and telling the platform from the probe's output. Adding a platform: its own file,
// plus one entry in AGENTS and one rule in detectPlatform.
import { installHint } from "@/lib/iperf";
import { esxiAgent } from "./esxi";
import { freebsdAgent } from "./freebsd";
import { linuxAgent } from "./linux";
import { macosAgent } from "./macos";
import type { AgentPlatform, ExecCommand, PlatformAgent } from "./types";
import { windowsAgent } from "./windows";

export type {
  AgentPlatform,
  CommandOutput,
  DetectResult,
  DiscoveredNic,
  ExecCommand,
  FirewallControl,
  NicAddress,
  PlatformAgent,
  StartCommandInput,
  StopSignal,
} from "./types";
export { parsePidLine, PID_LINE_PREFIX, STOP_SEQUENCE } from "./process";
export { posixQuote, posixQuoteArg } from "./posix";
export { cmdQuote, cmdQuoteArg, UnquotableArgumentError, WINDOWS_IPERF3_PATH } from "./windows";
export { ESXI_IPERF3_PATH } from "./esxi";
export { esxiAgent, freebsdAgent, linuxAgent, macosAgent, windowsAgent };

export const AGENTS: Readonly<Record<AgentPlatform, PlatformAgent>> = {
  linux: linuxAgent,
  esxi: esxiAgent,
  windows: windowsAgent,
  macos: macosAgent,
  freebsd: freebsdAgent,
};

export const PLATFORMS = Object.keys(AGENTS) as AgentPlatform[];

export function getAgent(platform: AgentPlatform): PlatformAgent {
  return AGENTS[platform];
}

/**
 * The first command to an unknown host. `||` means the same in sh and cmd.exe: POSIX shells answer
 * `uname -s`, cmd.exe fails it and runs `ver`. A constant string: no user data is in it.
 */
export const PLATFORM_PROBE: ExecCommand = { argv: ["uname", "-s"], quote: () => "uname -s || ver" };

/** The platform from the probe's output (`uname -s` or `ver`), or null when it is none we know. */
export function detectPlatform(output: string): AgentPlatform | null {
  const text = output.trim();
  if (/^VMkernel\b/m.test(text)) return "esxi";
  if (/^Linux\b/m.test(text)) return "linux";
  if (/^Darwin\b/m.test(text)) return "macos";
  if (/^FreeBSD\b/m.test(text)) return "freebsd";
  if (/Microsoft Windows \[Version/i.test(text)) return "windows";
  return null;
}

/** The install hint lib/iperf gives for this platform's `not-found`. */
export function agentInstallHint(platform: AgentPlatform | null): string {
  return installHint(platform ?? "unknown");
}
