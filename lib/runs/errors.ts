import { AppError, type AppErrorKind } from "@/lib/errors";
import { classifyIperfError, type IperfPlatform } from "@/lib/iperf";

/**
 * A run failure the engine raises, with the kind, message and hint the user sees (same shape as
 * lib/iperf's errors): `new RunError(kind, message, { hint })`, AppError's own constructor.
 */
export class RunError extends AppError {
  static override readonly errorName: string = "RunError";
}

/**
 * What a run, an experiment or a scheduled start asked for while Wirespeed stops (SIGTERM,
 * Ctrl-C) is refused with. 503: nothing is wrong with the request, the server is going away.
 */
export class ShuttingDownError extends AppError {
  static override readonly errorName: string = "ShuttingDownError";
  constructor() {
    super("shutting-down", "Wirespeed is shutting down: it starts no new run now. Try again once it is back.");
  }
}

/**
 * Why a run was interrupted by Wirespeed stopping: the abort reason of its signal, which the
 * run's outcome turns into the `interrupted` status with this message and hint.
 */
export function shutdownInterruption(reason: string, { hasStarted }: { hasStarted: boolean }): RunError {
  return hasStarted
    ? new RunError("interrupted", `Wirespeed was stopped (${reason}) while this run was in progress.`, {
        hint: "The samples and the partial summary received before the stop are kept; run it again to get a full result.",
      })
    : new RunError("interrupted", `Wirespeed was stopped (${reason}) before this run started.`, {
        hint: "Run it again.",
      });
}

/**
 * Why a run failed, as stored and shown: iperf3's own kinds (lib/iperf) plus the SSH
 * ones (`host-key`, `auth`, `unreachable`, `connection-lost`) and the engine's.
 */
export type RunFailure = { kind: AppErrorKind; message: string; hint: string };

// What to do about an SSH failure during a run: lib/ssh's errors carry a kind but no hint.
const HINT_OF_KIND: Partial<Record<AppErrorKind, string>> = {
  "host-key":
    "The host presented another SSH host key than the one pinned. If it was reinstalled, re-pin its key on the host's page.",
  auth: "Check the host's user name and credentials.",
  unreachable: "Check that the host is up, that sshd runs there and that its address and SSH port are right.",
  timeout: "The host did not answer in time: check the network path and that sshd runs.",
  "connection-lost": "The SSH connection dropped during the run; the samples received so far are kept.",
};

/**
 * What the user sees of anything a run threw: an AppError keeps its kind, message and hint
 * (one from below the engine without a hint gets the default of its kind; a RunError's hint,
 * even an empty one, is the engine's word); anything else is iperf3's or the shell's own
 * text, classified.
 */
export function runFailureOf(error: unknown, platform: IperfPlatform): RunFailure {
  if (error instanceof AppError) {
    const keepsHint = error.hint !== "" || error instanceof RunError;
    return {
      kind: error.kind,
      message: error.message,
      hint: keepsHint ? error.hint : (HINT_OF_KIND[error.kind] ?? ""),
    };
  }
  return classifyIperfError(error instanceof Error ? error.message : String(error), platform);
}
