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

// A server's start command prints this once the program itself listens on its port (StartCommandInput.listenPort).
export const LISTENING_LINE = "wirespeed-listening";

// A start command that reads its NIC's counters (StartCommandInput.counters) prints each reading between these lines.
export const COUNTERS_BEFORE = "wirespeed-counters-before";
export const COUNTERS_AFTER = "wirespeed-counters-after";
export const COUNTERS_END = "wirespeed-counters-end";

/**
 * Takes the counter readings out of a start command's stdout: `push` each line, and it says whether
 * the line was one of theirs (the rest is the program's output); `before` and `after` are each
 * reading's text once its end line came.
 */
export class CounterBlocks {
  before: string | null = null;
  after: string | null = null;
  private open: { which: "before" | "after"; lines: string[] } | null = null;

  push(line: string): boolean {
    const bare = line.replace(/\r$/, "");
    if (this.open) {
      if (bare === COUNTERS_END) {
        this[this.open.which] = this.open.lines.join("\n");
        this.open = null;
      } else this.open.lines.push(bare);
      return true;
    }
    if (bare === COUNTERS_BEFORE || bare === COUNTERS_AFTER) {
      this.open = { which: bare === COUNTERS_BEFORE ? "before" : "after", lines: [] };
      return true;
    }
    return false;
  }
}
