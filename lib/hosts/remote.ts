import "server-only";
import { detectPlatform, getAgent, PLATFORM_PROBE, type DetectResult, type PlatformAgent } from "@/agents";
import { installHint, isPlatform } from "@/lib/platforms";
import { AppError, type AppErrorOptions } from "@/lib/errors";
import { execCapture } from "@/lib/ssh";
import type { HostTarget } from "@/lib/ssh/types";

// Asking a host what it is and which iperf3 it has: shared by the host check and the run engine.

const PROBE_TIMEOUT_MS = 20_000;

/** Thrown when a host answers but is of no platform Wirespeed knows. */
export class UnknownPlatformError extends AppError {
  static override readonly errorName: string = "UnknownPlatformError";
  constructor(message: string, options?: AppErrorOptions) {
    super("unknown", message, options);
  }
}

/** iperf3 is not where it was looked for. */
export class IperfNotFoundError extends AppError {
  static override readonly errorName: string = "IperfNotFoundError";
  constructor(message: string, options?: AppErrorOptions) {
    super("not-found", message, options);
  }
}

/** The host's agent: from its stored platform, or asked over the connection when unknown. */
export async function resolveAgent(target: HostTarget, platform: string, signal?: AbortSignal): Promise<PlatformAgent> {
  if (isPlatform(platform)) return getAgent(platform);
  const probe = await execCapture(target, PLATFORM_PROBE, { signal, timeoutMs: PROBE_TIMEOUT_MS });
  const detected = detectPlatform(`${probe.stdout}\n${probe.stderr}`);
  if (!detected) {
    const answer = JSON.stringify((probe.stdout || probe.stderr).trim().slice(0, 80));
    throw new UnknownPlatformError(
      `could not tell the platform of ${target.name}: it answered ${answer}; set the host's platform by hand`,
    );
  }
  return getAgent(detected);
}

/** The host's OS, iperf3 path and version, as its agent reads them. */
export async function detectHost(
  target: HostTarget,
  agent: PlatformAgent,
  iperf3Path: string | null,
  signal?: AbortSignal,
): Promise<DetectResult> {
  const path = iperf3Path ?? undefined;
  const outputs = [];
  for (const command of agent.detectCommands(path)) {
    outputs.push(await execCapture(target, command, { signal, timeoutMs: PROBE_TIMEOUT_MS }));
  }
  return agent.parseDetect(outputs, path);
}

/** Like detectHost, but an iperf3 that is missing or unreadable is an IperfNotFoundError. */
export async function requireIperf(
  target: HostTarget,
  agent: PlatformAgent,
  iperf3Path: string | null,
  signal?: AbortSignal,
) {
  const detected = await detectHost(target, agent, iperf3Path, signal);
  if (!detected.iperf3Path || !detected.version)
    throw new IperfNotFoundError(`iperf3 was not found on ${target.name}${iperf3Path ? ` at ${iperf3Path}` : ""}`, {
      hint: installHint(agent.platform),
    });
  return { path: detected.iperf3Path, version: detected.version };
}
