import "server-only";
// lib/ssh: pooled SSH connections with pinned host keys, streaming exec, and the local transport.
export type {
  ExecCaptureOptions,
  ExecCaptureResult,
  ExecCommand,
  ExecResult,
  ExecStreamOptions,
  HostAuth,
  HostTarget,
} from "./types";
export { sshFingerprint, fingerprintOfPublicKeyLine, isSshFingerprint } from "./fingerprint";
export {
  SshError,
  HostKeyMismatchError,
  SshAuthError,
  SshUnreachableError,
  SshTimeoutError,
  SshConnectionLostError,
  isSshError,
} from "./errors";
export type { SshErrorKind } from "./errors";
export { createLineSplitter } from "./lines";
export type { LineSplitter } from "./lines";
export { connectHost, getConnection, closeHost, closeAll, poolSize, DEFAULT_CONNECT_TIMEOUT_MS } from "./pool";
export { execStream, execCapture } from "./exec";
export { stopProcess } from "./stop";
export type { StopProcessResult } from "./stop";
