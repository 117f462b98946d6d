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
