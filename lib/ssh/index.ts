import "server-only";
// lib/ssh: pooled SSH connections with pinned host keys, first-contact key reads, streaming exec, and the local transport.
export type {
  CommandOutput,
  ExecCaptureOptions,
  ExecCaptureResult,
  ExecCommand,
  ExecResult,
  ExecStreamOptions,
  HostAuth,
  HostTarget,
  ProcessControl,
  StopSignal,
} from "./types";
export { sshFingerprint, fingerprintOfPublicKeyLine, isSshFingerprint } from "./fingerprint";
export {
  SshError,
  HostKeyMismatchError,
  hostKeyMismatch,
  SshAuthError,
  SshUnreachableError,
  SshTimeoutError,
  SshConnectionLostError,
  isSshError,
} from "./errors";
export type { SshErrorKind } from "./errors";
export { createLineSplitter } from "./lines";
export type { LineSplitter } from "./lines";
export { connectHost, getConnection, closeHost, closeAll, poolSize, readHostKey } from "./pool";
export { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect";
export { execStream, execCapture } from "./exec";
export { stopProcess } from "./stop";
export type { StopProcessResult } from "./stop";
