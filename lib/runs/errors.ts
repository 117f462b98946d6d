/** A run failure with the kind, message and hint the user sees (same shape as lib/iperf's errors). */
export class RunError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly hint = "",
  ) {
    super(message);
    this.name = "RunError";
  }
}

/**
 * Why a run failed, as stored and shown: iperf3's own kinds (lib/iperf) plus the SSH
 * ones (`host-key`, `auth`, `unreachable`, `connection-lost`) and the engine's.
 */
export type RunFailure = { kind: string; message: string; hint: string };
