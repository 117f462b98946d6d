import { AppError } from "@/lib/errors";

// Pure: one error class per way an SSH operation fails, each with a stable `kind` for the engine and the API.

export type SshErrorKind = "host-key" | "auth" | "unreachable" | "timeout" | "connection-lost" | "unknown";

export class SshError extends AppError {
  static override readonly errorName: string = "SshError";
  declare readonly kind: SshErrorKind;
  /** the host's name as the user knows it */
  readonly host: string;
  constructor(kind: SshErrorKind, host: string, message: string, options?: { cause?: unknown }) {
    super(kind, message, { cause: options?.cause });
    this.host = host;
  }
}

/** The host presented another key than the pinned one; raised before authentication, so no secret was sent. */
export class HostKeyMismatchError extends SshError {
  static override readonly errorName: string = "HostKeyMismatchError";
  readonly pinned: string;
  readonly presented: string;
  constructor(host: string, pinned: string, presented: string) {
    super(
      "host-key",
      host,
      `host key of ${host} changed: pinned ${pinned}, presented ${presented}; if the host was reinstalled, re-pin it`,
    );
    this.pinned = pinned;
    this.presented = presented;
  }
}

export class SshAuthError extends SshError {
  static override readonly errorName: string = "SshAuthError";
  constructor(host: string, message: string, options?: { cause?: unknown }) {
    super("auth", host, message, options);
  }
}

export class SshUnreachableError extends SshError {
  static override readonly errorName: string = "SshUnreachableError";
  constructor(host: string, message: string, options?: { cause?: unknown }) {
    super("unreachable", host, message, options);
  }
}

export class SshTimeoutError extends SshError {
  static override readonly errorName: string = "SshTimeoutError";
  constructor(host: string, message: string, options?: { cause?: unknown }) {
    super("timeout", host, message, options);
  }
}

export class SshConnectionLostError extends SshError {
  static override readonly errorName: string = "SshConnectionLostError";
  constructor(host: string, message: string, options?: { cause?: unknown }) {
    super("connection-lost", host, message, options);
  }
}

export function isSshError(err: unknown): err is SshError {
  return err instanceof SshError;
}

type RawError = { message?: unknown; code?: unknown; level?: unknown };

const UNREACHABLE_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused (no sshd listening on that port?)",
  EHOSTUNREACH: "no route to host",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host name not found (DNS)",
  EAI_AGAIN: "host name lookup failed (DNS)",
  ECONNRESET: "connection reset during the handshake",
  EADDRNOTAVAIL: "address not available",
};

/**
 * Turns what ssh2/node-ssh threw while connecting into one of the classes above. `where` is
 * `name (address:port)`; messages name the host and the cause, never a key or password.
 */
export function classifyConnectError(
  err: unknown,
  context: { host: string; where: string; timeoutMs: number; pinned: string | null; presented: string | null },
): SshError {
  const { host, where, timeoutMs, pinned, presented } = context;
  if (pinned !== null && presented !== null && presented !== pinned)
    return new HostKeyMismatchError(host, pinned, presented);
  if (err instanceof SshError) return err;
  const raw = (typeof err === "object" && err !== null ? err : {}) as RawError;
  const message = typeof raw.message === "string" ? raw.message : String(err);
  const code = typeof raw.code === "string" ? raw.code : "";
  const level = typeof raw.level === "string" ? raw.level : "";
  const cause = { cause: err };

  if (level === "client-authentication" || /authentication methods failed/i.test(message)) {
    return new SshAuthError(host, `authentication to ${where} failed: the server refused the key or password`, cause);
  }
  // ssh2 reads the key before connecting: a wrong passphrase or a corrupt key lands here.
  if (/privateKey|passphrase|Unsupported key format|Malformed/i.test(message)) {
    return new SshAuthError(host, `the private key for ${where} could not be used: ${sanitize(message)}`, cause);
  }
  if (code in UNREACHABLE_CODES) {
    return new SshUnreachableError(host, `cannot reach ${where}: ${UNREACHABLE_CODES[code]}`, cause);
  }
  if (level === "client-timeout" || code === "ETIMEDOUT" || /timed out/i.test(message)) {
    return new SshTimeoutError(host, `no SSH handshake with ${where} within ${timeoutMs} ms`, cause);
  }
  return new SshError("unknown", host, `SSH connection to ${where} failed: ${sanitize(message)}`, cause);
}

// ssh2's messages hold no secrets, but cut anything key-shaped or overlong before it reaches a user.
function sanitize(message: string): string {
  return message.replace(/-----BEGIN[\s\S]*?-----END[^-]*-----/g, "[key]").slice(0, 300);
}
