import { AppError, type AppErrorOptions } from "@/lib/errors";

// Pure: one error class per way an SSH operation fails, each with a stable `kind` for the engine and the API.

export type SshErrorKind = "host-key" | "auth" | "unreachable" | "timeout" | "connection-lost" | "unknown";

/** What every SSH error carries besides the AppError's own: the host's name as the user knows it. */
export type SshErrorOptions = AppErrorOptions & { host: string };

export class SshError extends AppError {
  static override readonly errorName: string = "SshError";
  declare readonly kind: SshErrorKind;
  /** the host's name as the user knows it */
  readonly host: string;
  constructor(kind: SshErrorKind, message: string, { host, ...options }: SshErrorOptions) {
    super(kind, message, options);
    this.host = host;
  }
}

/** The host presented another key than the pinned one; raised before authentication, so no secret was sent. */
export class HostKeyMismatchError extends SshError {
  static override readonly errorName: string = "HostKeyMismatchError";
  readonly pinned: string;
  readonly presented: string;
  constructor(
    message: string,
    { pinned, presented, ...options }: SshErrorOptions & { pinned: string; presented: string },
  ) {
    super("host-key", message, options);
    this.pinned = pinned;
    this.presented = presented;
  }
}

/** The HostKeyMismatchError of `host`, whose key `presented` is not the `pinned` one. */
export function hostKeyMismatch(host: string, pinned: string, presented: string): HostKeyMismatchError {
  return new HostKeyMismatchError(
    `host key of ${host} changed: pinned ${pinned}, presented ${presented}; if the host was reinstalled, re-pin it`,
    { host, pinned, presented },
  );
}

export class SshAuthError extends SshError {
  static override readonly errorName: string = "SshAuthError";
  constructor(message: string, options: SshErrorOptions) {
    super("auth", message, options);
  }
}

export class SshUnreachableError extends SshError {
  static override readonly errorName: string = "SshUnreachableError";
  constructor(message: string, options: SshErrorOptions) {
    super("unreachable", message, options);
  }
}

export class SshTimeoutError extends SshError {
  static override readonly errorName: string = "SshTimeoutError";
  constructor(message: string, options: SshErrorOptions) {
    super("timeout", message, options);
  }
}

export class SshConnectionLostError extends SshError {
  static override readonly errorName: string = "SshConnectionLostError";
  constructor(message: string, options: SshErrorOptions) {
    super("connection-lost", message, options);
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
  if (pinned !== null && presented !== null && presented !== pinned) return hostKeyMismatch(host, pinned, presented);
  if (err instanceof SshError) return err;
  const raw = (typeof err === "object" && err !== null ? err : {}) as RawError;
  const message = typeof raw.message === "string" ? raw.message : String(err);
  const code = typeof raw.code === "string" ? raw.code : "";
  const level = typeof raw.level === "string" ? raw.level : "";
  const options = { host, cause: err };

  if (level === "client-authentication" || /authentication methods failed/i.test(message)) {
    return new SshAuthError(`authentication to ${where} failed: the server refused the key or password`, options);
  }
  // ssh2 reads the key before connecting: a wrong passphrase or a corrupt key lands here.
  if (/privateKey|passphrase|Unsupported key format|Malformed/i.test(message)) {
    return new SshAuthError(`the private key for ${where} could not be used: ${sanitize(message)}`, options);
  }
  if (code in UNREACHABLE_CODES) {
    return new SshUnreachableError(`cannot reach ${where}: ${UNREACHABLE_CODES[code]}`, options);
  }
  if (level === "client-timeout" || code === "ETIMEDOUT" || /timed out/i.test(message)) {
    return new SshTimeoutError(`no SSH handshake with ${where} within ${timeoutMs} ms`, options);
  }
  return new SshError("unknown", `SSH connection to ${where} failed: ${sanitize(message)}`, options);
}

// ssh2's `reason` of a channel the server would not open (RFC 4254, 5.1).
const OPEN_ADMINISTRATIVELY_PROHIBITED = 1;
const OPEN_CONNECT_FAILED = 2;

/**
 * Turns a refused direct-tcpip channel (a jump host asked to connect to the next hop's sshd) into an
 * SshError. `host`/`where` are the next hop, `jump` the jump host's name. A jump host that cannot
 * connect makes the next hop `unreachable` (its description, e.g. "Connection refused", is the jump
 * host's connect error); one whose sshd forbids forwarding is named, since it is the one to change.
 */
export function classifyForwardError(err: unknown, context: { host: string; where: string; jump: string }): SshError {
  const { host, where, jump } = context;
  if (err instanceof SshError) return err;
  const raw = (typeof err === "object" && err !== null ? err : {}) as RawError & { reason?: unknown };
  const message = typeof raw.message === "string" ? raw.message : String(err);
  const description = sanitize(message.replace(/^\(SSH\) Channel open failure:\s*/i, "")) || "no reason given";
  if (raw.reason === OPEN_ADMINISTRATIVELY_PROHIBITED) {
    return new SshUnreachableError(
      `the jump host ${jump} refused to forward a connection to ${where}: ${description} (is AllowTcpForwarding off in its sshd_config?)`,
      { host: jump, cause: err },
    );
  }
  if (raw.reason === OPEN_CONNECT_FAILED || /refused|unreachable|no route|timed out/i.test(description)) {
    return new SshUnreachableError(`cannot reach ${where} from the jump host ${jump}: ${description}`, {
      host,
      cause: err,
    });
  }
  return new SshError("unknown", `the jump host ${jump} could not open a connection to ${where}: ${description}`, {
    host,
    cause: err,
  });
}

// ssh2's messages hold no secrets, but cut anything key-shaped or overlong before it reaches a user.
function sanitize(message: string): string {
  return message.replace(/-----BEGIN[\s\S]*?-----END[^-]*-----/g, "[key]").slice(0, 300);
}
