import "server-only";
import { spawn } from "node:child_process";
import { SshConnectionLostError, SshError, SshTimeoutError } from "./errors";
import { createLineSplitter, stripTerminalEscapes } from "./lines";
import { getConnection, type SshChannel } from "./pool";
import { runsInStandby, standbyInput, takeStandby } from "./standby";
import type {
  ExecCaptureOptions,
  ExecCaptureResult,
  ExecCommand,
  ExecResult,
  ExecStreamOptions,
  HostTarget,
} from "./types";

// After an abort, how long the remote or local process gets to go before we stop waiting for it.
const ABORT_GRACE_MS = 2000;
const DEFAULT_CAPTURE_BYTES = 1024 * 1024;

/**
 * Runs a command and calls onStdoutLine / onStderrLine for every line as it arrives (nothing is
 * buffered beyond one partial line). Over SSH the login shell gets `command.quote(command.argv)`;
 * with `auth.method: "local"` argv is spawned directly, no shell. Resolves with the exit status;
 * aborting resolves too (`aborted: true`). Rejects with an SshError: connection failures,
 * `connection-lost` when the connection drops mid-command, `timeout` after `timeoutMs`.
 * An abort closes the channel and sends a "signal" request, which OpenSSH ignores in root and
 * ForceCommand sessions: long-running commands therefore come from an agent's serverCommand /
 * clientCommand, which watch their stdin (`keepStdinOpen`) and stop the program when the channel goes.
 */
export function execStream(
  target: HostTarget,
  command: ExecCommand,
  options: ExecStreamOptions = {},
): Promise<ExecResult> {
  if (command.argv.length === 0) return Promise.reject(new Error("execStream: empty argv"));
  if (target.auth.method === "local") return execLocal(target, command, options);
  return execSsh(target, command, options);
}

type Settle = {
  resolve: (result: ExecResult) => void;
  reject: (err: Error) => void;
};

// Shared bookkeeping of both transports: the abort signal, the timeout, and settling exactly once.
function lifecycle(target: HostTarget, options: ExecStreamOptions, settle: Settle, stop: () => void) {
  let done = false;
  let aborted = false;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  const cleanup = () => {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    options.signal?.removeEventListener("abort", onAbort);
  };
  const finish = (result: Omit<ExecResult, "aborted">) => {
    if (done) return;
    done = true;
    cleanup();
    if (timedOut) {
      settle.reject(
        new SshTimeoutError(`command on ${target.name} did not finish within ${options.timeoutMs} ms; it was stopped`, {
          host: target.name,
        }),
      );
    } else settle.resolve({ ...result, aborted });
  };
  const fail = (err: Error) => {
    if (done) return;
    done = true;
    cleanup();
    settle.reject(err);
  };
  const stopNow = () => {
    stop();
    // A process that ignores the stop must not hang the caller.
    graceTimer = setTimeout(() => finish({ exitCode: null, signal: null }), ABORT_GRACE_MS);
  };
  function onAbort() {
    if (done || aborted || timedOut) return;
    aborted = true;
    stopNow();
  }
  if (options.signal?.aborted) aborted = true;
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(() => {
      if (done || aborted) return;
      timedOut = true;
      stopNow();
    }, options.timeoutMs);
  }
  return { finish, fail, isAborted: () => aborted, isDone: () => done, isStopping: () => aborted || timedOut || done };
}

function execSsh(target: HostTarget, command: ExecCommand, options: ExecStreamOptions): Promise<ExecResult> {
  return new Promise<ExecResult>((resolve, reject) => {
    let channel: SshChannel | null = null;
    let unsubscribe = () => {};
    const stop = () => {
      if (!channel) return;
      // OpenSSH (7.9+) delivers this to the whole process group of the session; then the channel goes.
      try {
        channel.signal(options.abortSignal ?? "TERM");
      } catch {
        // servers without "signal" support: closing the channel is all we can do here
      }
      try {
        channel.close();
      } catch {
        // already closed
      }
    };
    const life = lifecycle(
      target,
      options,
      { resolve: (r) => (unsubscribe(), resolve(r)), reject: (e) => (unsubscribe(), reject(e)) },
      stop,
    );
    if (life.isAborted()) return life.finish({ exitCode: null, signal: null });

    getConnection(target, { connectTimeoutMs: options.connectTimeoutMs }).then(
      (connection) => {
        if (life.isAborted()) return life.finish({ exitCode: null, signal: null });
        const commandString = command.quote(command.argv);
        const lost = (why: Error | null) =>
          life.fail(
            new SshConnectionLostError(
              `the SSH connection to ${connection.where} dropped while a command was running${why ? ` (${why.message})` : ""}`,
              { host: target.name, cause: why ?? undefined },
            ),
          );
        // A wide terminal, so that no line of output is folded; "dumb" asks for no escape sequences.
        const execOptions = command.pty ? { pty: { term: "dumb", cols: 1000, rows: 50 } } : {};
        const opened = (err: Error | undefined, ch: SshChannel) => {
          if (err) {
            if (connection.isClosed()) return lost(err);
            return life.fail(
              new SshError("unknown", `cannot start a command on ${connection.where}: ${err.message}`, {
                host: target.name,
                cause: err,
              }),
            );
          }
          attach(ch);
        };
        if (!runsInStandby(command)) connection.client.exec(commandString, execOptions, opened);
        else {
          void takeStandby(connection, command).then((standby) => {
            if (!standby) return connection.client.exec(commandString, execOptions, opened);
            // Aborted or timed out while the session was getting ready: it goes unused.
            if (life.isStopping()) {
              standby.close();
              return life.finish({ exitCode: null, signal: null });
            }
            standby.write(standbyInput(commandString));
            attach(standby);
          });
        }
        function attach(ch: SshChannel) {
          channel = ch;
          // EOF on stdin, unless the command watches its stdin to learn that the channel closed.
          if (!command.keepStdinOpen) ch.end();
          else options.onStdin?.((text) => void ch.write(text));
          // Aborted or timed out before the channel opened: stop what it started.
          if (life.isStopping()) stop();
          unsubscribe = connection.onLost(lost);
          // Under a pty, stderr arrives merged into stdout, with whatever the terminal adds around it.
          const stdout = createLineSplitter((line) =>
            options.onStdoutLine?.(command.pty ? stripTerminalEscapes(line) : line),
          );
          const stderr = createLineSplitter((line) => options.onStderrLine?.(line));
          let exitCode: number | null = null;
          let exitSignal: string | null = null;
          let hasExit = false;
          ch.on("data", (chunk: Buffer) => stdout.push(chunk));
          ch.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
          ch.on("exit", (code: number | null, signalName?: string) => {
            hasExit = true;
            exitCode = typeof code === "number" ? code : null;
            exitSignal = typeof signalName === "string" ? signalName : null;
          });
          ch.on("error", () => {
            // the 'close' that follows settles the promise
          });
          ch.on("close", () => {
            stdout.flush();
            stderr.flush();
            if (hasExit || life.isAborted()) return life.finish({ exitCode, signal: exitSignal });
            // ssh2 closes channels before it reports the connection's end: look again on the next turn.
            setImmediate(() => {
              if (connection.isClosed()) lost(null);
              else life.finish({ exitCode, signal: exitSignal });
            });
          });
        }
      },
      (err: Error) => life.fail(err),
    );
  });
}

function execLocal(target: HostTarget, command: ExecCommand, options: ExecStreamOptions): Promise<ExecResult> {
  return new Promise<ExecResult>((resolve, reject) => {
    const [file, ...args] = command.argv as string[];
    // detached: its own process group, so an abort also stops what the program started.
    // A pipe we never write to stands in for the channel's stdin: it closes when this process dies.
    const stdin = command.keepStdinOpen ? "pipe" : "ignore";
    const child = spawn(file!, args, { stdio: [stdin, "pipe", "pipe"], detached: true, shell: false });
    const signalGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    const life = lifecycle(target, options, { resolve, reject }, () => {
      signalGroup(`SIG${options.abortSignal ?? "TERM"}`);
      setTimeout(() => signalGroup("SIGKILL"), ABORT_GRACE_MS / 2).unref();
    });
    if (life.isAborted()) signalGroup("SIGKILL");
    if (command.keepStdinOpen && child.stdin) {
      const input = child.stdin;
      input.on("error", () => undefined);
      options.onStdin?.((text) => void input.write(text));
    }
    const stdout = createLineSplitter((line) => options.onStdoutLine?.(line));
    const stderr = createLineSplitter((line) => options.onStderrLine?.(line));
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (err: NodeJS.ErrnoException) => {
      // Like a shell would: "<program>: not found" and 127, so callers classify it the same way as over SSH.
      if (err.code === "ENOENT" || err.code === "EACCES") {
        options.onStderrLine?.(`${file}: ${err.code === "ENOENT" ? "not found" : "permission denied"}`);
        return life.finish({ exitCode: err.code === "ENOENT" ? 127 : 126, signal: null });
      }
      life.fail(
        new SshError("unknown", `cannot run ${file} on this machine: ${err.message}`, {
          host: target.name,
          cause: err,
        }),
      );
    });
    child.on("close", (code, sig) => {
      stdout.flush();
      stderr.flush();
      life.finish({ exitCode: code, signal: sig ? sig.replace(/^SIG/, "") : null });
    });
  });
}

/** execStream for short commands: collects stdout and stderr (at most maxBytes each, default 1 MiB). */
export async function execCapture(
  target: HostTarget,
  command: ExecCommand,
  options: ExecCaptureOptions = {},
): Promise<ExecCaptureResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_CAPTURE_BYTES;
  let truncated = false;
  const collector = () => {
    const lines: string[] = [];
    let bytes = 0;
    return {
      lines,
      add(line: string) {
        const size = Buffer.byteLength(line) + 1;
        if (bytes + size > maxBytes) {
          truncated = true;
          return;
        }
        bytes += size;
        lines.push(line);
      },
    };
  };
  const out = collector();
  const err = collector();
  const result = await execStream(target, command, { ...options, onStdoutLine: out.add, onStderrLine: err.add });
  return { ...result, stdout: out.lines.join("\n"), stderr: err.lines.join("\n"), truncated };
}
