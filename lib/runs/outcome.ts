import type { IperfOptions, IperfPlatform, IperfResult } from "@/lib/iperf";
import type { PathCheck, PathEnd, RunStatus } from "./contract";
import { RunError, runFailureOf, type RunFailure } from "./errors";
import { checkPath, pathEnd, sentDirections, type CounterReadings } from "./path-check";
import type { RemoteProcess } from "./remote";
import { valueWithin } from "./timers";

// What a run and a device's run (execution.ts, listen.ts) share at their end: the raw output they
// keep, the NIC address they bind to, how what happened becomes the stored status and error, and
// the proof of the path from the counters their processes read.

const MAX_RAW_OUTPUT_CHARS = 4 * 1024 * 1024;
// The counters after the test are read as the process ends; a host slower than this leaves them unread.
const COUNTERS_WAIT_MS = 12_000;

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

/** What an end's NIC counters rose by while its process ran; null where its process read none (a NIC without a name). */
export async function readPathEnd(process: RemoteProcess): Promise<PathEnd | null> {
  if (!process.counters) return null;
  const readings: CounterReadings | null = await valueWithin(process.counters, COUNTERS_WAIT_MS, null);
  return readings ? pathEnd(readings) : null;
}

/**
 * A run's proof of the path (path-check.ts) from its ends' counters and what iperf3 reported sending
 * each way (its options say which way); null for a run without a summary, which has nothing to prove.
 */
export function runPathCheck(
  options: Pick<IperfOptions, "reverse" | "bidir">,
  result: IperfResult | null,
  ends: { client: PathEnd | null; server: PathEnd | null },
): PathCheck | null {
  if (!result?.summary) return null;
  const direction = options.bidir ? "bidir" : options.reverse ? "reverse" : "normal";
  const sent = sentDirections(
    direction,
    result.summary.sender?.bytes ?? null,
    result.reverseSummary?.sender?.bytes ?? null,
  );
  return checkPath({ ...ends, sent });
}
