import "server-only";
import { execCapture } from "./exec";
import type { HostTarget, ProcessControl, StopSignal } from "./types";

const DEFAULT_GRACE_MS = 3000;
const POLL_MS = 100;

export type StopProcessResult = {
  /** false only if the process survived even KILL (or the host could not say) */
  isStopped: boolean;
  /** the signal that ended it; null when it was already gone */
  signal: StopSignal | null;
};

/**
 * Stops a remote process by PID over its own exec: INT (iperf3 prints a summary), then TERM,
 * then KILL, each followed by up to graceMs of polling. `agent` is the host's platform agent, whose
 * commands say how (Windows' force-kills at every step).
 */
export async function stopProcess(
  target: HostTarget,
  agent: ProcessControl,
  pid: number,
  options: { graceMs?: number; signals?: readonly StopSignal[] } = {},
): Promise<StopProcessResult> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const isRunning = async () =>
    agent.parseIsRunning(await execCapture(target, agent.isRunningCommand(pid), { timeoutMs: 10_000 }), pid);
  if (!(await isRunning())) return { isStopped: true, signal: null };
  for (const signal of options.signals ?? (["INT", "TERM", "KILL"] as const)) {
    await execCapture(target, agent.stopCommand(pid, signal), { timeoutMs: 10_000 });
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      if (!(await isRunning())) return { isStopped: true, signal };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  return { isStopped: !(await isRunning()), signal: "KILL" };
}
