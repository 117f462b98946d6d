import type { IperfPlatform, IperfResult } from "@/lib/iperf";
import type { RunStatus } from "./contract";
import { RunError, runFailureOf, type RunFailure } from "./errors";

// What a run and a device's run (execution.ts, listen.ts) share at their end: the raw output they
// keep, the NIC address they bind to, and how what happened becomes the stored status and error.

const MAX_RAW_OUTPUT_CHARS = 4 * 1024 * 1024;

/** Raw output kept with the run, capped so that a runaway process cannot fill the database. */
export class OutputLog {
  private text = "";
  private isTruncated = false;
  add(line: string): void {
    if (this.isTruncated) return;
    if (this.text.length + line.length + 1 > MAX_RAW_OUTPUT_CHARS) {
      this.isTruncated = true;
      this.text += "[output truncated by Wirespeed]\n";
      return;
    }
    this.text += `${line}\n`;
  }
  toString(): string {
    return this.text;
  }
}

/** The first of a NIC's stored addresses without its prefix length (what iperf3 binds to), or null. */
export function nicAddress(addresses: unknown): string | null {
  const first = Array.isArray(addresses) ? addresses.find((value) => typeof value === "string") : undefined;
  return typeof first === "string" && first.trim() !== "" ? first.replace(/\/\d+$/, "") : null;
}

export type RunOutcome = { status: RunStatus; error: RunFailure | null };

/**
 * A run's stored status and error: cancelled or interrupted (an abort with an interruption as its
 * reason is Wirespeed stopping, without one a person cancelled), failed with the first failure, the
 * result's own error or `noResult` when iperf3 gave no summary, failed when the samples could not be
 * stored, else succeeded.
 */
export function runOutcome({
  signal,
  failure,
  result,
  writeError,
  platform,
  noResult,
}: {
  signal: AbortSignal;
  failure: unknown;
  result: IperfResult | null;
  writeError: unknown;
  platform: IperfPlatform;
  noResult: { message: string; hint: string };
}): RunOutcome {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof RunError && reason.kind === "interrupted"
      ? { status: "interrupted", error: runFailureOf(reason, platform) }
      : { status: "cancelled", error: null };
  }
  if (failure) return { status: "failed", error: runFailureOf(failure, platform) };
  if (result?.error) return { status: "failed", error: result.error };
  if (!result?.summary) return { status: "failed", error: { kind: "unknown", ...noResult } };
  if (writeError) {
    const message = writeError instanceof Error ? writeError.message.split("\n")[0] : String(writeError);
    return {
      status: "failed",
      error: {
        kind: "unknown",
        message: `Could not store the samples: ${message}`,
        hint: "Check the disk of the Wirespeed server.",
      },
    };
  }
  return { status: "succeeded", error: null };
}
