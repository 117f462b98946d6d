// Pure: the PID line long-running commands print first, and the order in which a process is stopped.
import type { StopSignal } from "./types";

export const PID_LINE_PREFIX = "wirespeed-pid ";
const PID_LINE_RE = /^wirespeed-pid (\d{1,10})$/;

/** The PID from a `wirespeed-pid <n>` line, or null for any other line. */
export function parsePidLine(line: string): number | null {
  const match = PID_LINE_RE.exec(line.trim());
  if (!match) return null;
  const pid = Number(match[1]);
  return pid > 0 ? pid : null;
}

/** INT first (iperf3 prints its summary), TERM if it ignores that, KILL after the grace period. */
export const STOP_SEQUENCE: readonly StopSignal[] = ["INT", "TERM", "KILL"];

/** Refuses anything but a positive integer PID before it becomes part of a command. */
export function checkPid(pid: number): string {
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`not a process id: ${pid}`);
  return String(pid);
}
