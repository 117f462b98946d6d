// Pure types of lib/ssh: no I/O here, so agents/ can import them. lib/ssh never imports agents/.

export type HostAuth =
  | { method: "key"; privateKey: string; passphrase?: string }
  | { method: "password"; password: string }
  /** "this machine": commands are spawned locally with an argv array, no SSH and no shell */
  | { method: "local" };

export type HostTarget = {
  /** used in messages only */
  name: string;
  address: string;
  port: number;
  username: string;
  auth: HostAuth;
  /** `SHA256:...` as `ssh-keygen -l` prints it; null on first contact (any key is accepted and reported) */
  pinnedFingerprint: string | null;
  /**
   * The jump host this host is reached through (as OpenSSH's ProxyJump): its own target, with its own
   * credentials and pinned key, itself possibly reached through another. Absent: connected directly.
   */
  via?: HostTarget;
};

/**
 * A command as an argv array plus the quoting of the shell that will parse it. Over SSH the
 * remote login shell gets `quote(argv)`; locally argv is spawned as is, without a shell.
 */
export type ExecCommand = {
  argv: readonly string[];
  quote: (argv: readonly string[]) => string;
  /**
   * Leave the command's stdin open for as long as it runs (otherwise it gets EOF at once). Agents set it
   * on commands that watch their stdin and stop the program when it closes: the channel closed (abort)
   * or the connection dropped.
   */
  keepStdinOpen?: boolean;
  /**
   * Run under a pseudo-terminal: programs that cannot be told to flush (iperf3 before
   * 3.1.5) then write each line as they print it instead of in blocks at the end.
   */
  pty?: boolean;
  /**
   * `quote(argv)` is for a POSIX login shell (sh, bash, ash, zsh): the command may then run in a
   * standby session (lib/ssh/standby.ts), whose login shell has already started.
   */
  posixShell?: boolean;
};

export type ExecResult = {
  /** null when the process died of a signal or the server sent no exit status */
  exitCode: number | null;
  signal: string | null;
  /** true when the caller's AbortSignal stopped the command */
  aborted: boolean;
};

export type ExecStreamOptions = {
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  /** aborting closes the channel (or kills the local process group) and resolves */
  signal?: AbortSignal;
  /** rejects with SshTimeoutError (after stopping the command) when it runs longer */
  timeoutMs?: number;
  /** connect timeout for a new connection; default 10 s */
  connectTimeoutMs?: number;
  /** the signal sent to the remote process group on abort (OpenSSH "signal" request); default TERM */
  abortSignal?: "INT" | "TERM" | "KILL";
  /** with `keepStdinOpen`: called once the command's stdin can take input, with the function that writes to it */
  onStdin?: (write: (text: string) => void) => void;
};

export type ExecCaptureOptions = Omit<ExecStreamOptions, "onStdoutLine" | "onStderrLine"> & {
  /** bytes kept per stream; the rest is dropped and `truncated` set; default 1 MiB */
  maxBytes?: number;
};

export type ExecCaptureResult = ExecResult & { stdout: string; stderr: string; truncated: boolean };

/** What a finished command printed, as execCapture returns it. */
export type CommandOutput = { exitCode: number | null; stdout: string; stderr: string };

export type StopSignal = "INT" | "TERM" | "KILL";

/** What stopProcess needs of a platform: how to signal a PID and how to ask whether it still runs. */
export type ProcessControl = {
  stopCommand(pid: number, signal: StopSignal): ExecCommand;
  /** a command whose output says whether the process still runs (see parseIsRunning) */
  isRunningCommand(pid: number): ExecCommand;
  parseIsRunning(output: CommandOutput, pid: number): boolean;
};
