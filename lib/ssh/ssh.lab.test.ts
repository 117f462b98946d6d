/**
 * lib/ssh against real sshd in the lab: host-key pinning, error kinds, streaming exec, abort,
 * dropped connections and the local transport.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  labHost,
  labTarget,
  processesInHost,
  requireLabState,
  startSshd,
  stopSshd,
  waitFor,
} from "@/testing/lab-targets";
import type { LabHost, LabState } from "@/testing/lab-state";
import { sshErrorOf } from "@/testing/ssh-error";
import { pidFirstCommand, posixCommand } from "@/agents/posix";
import {
  closeAll,
  connectHost,
  getConnection,
  execCapture,
  execStream,
  HostKeyMismatchError,
  poolSize,
  readHostKey,
  type HostTarget,
} from "@/lib/ssh";
import { settleStandbys, STANDBY_COUNT, standbyCount } from "@/lib/ssh/standby";

let state: LabState;
let alpha: LabHost;
let beta: LabHost;

beforeAll(() => {
  state = requireLabState();
  alpha = labHost(state, "alpha");
  beta = labHost(state, "beta");
});

afterAll(async () => {
  await closeAll();
});

describe("connecting", () => {
  it("reads the key on first contact, without logging in: the fingerprint ssh-keygen printed for the lab", async () => {
    expect(await readHostKey(labTarget(state, alpha, { pinnedFingerprint: null }))).toBe(alpha.hostKeyFingerprint);
    expect(poolSize()).toBe(0);
  });

  it("does not log in to a host whose key is not pinned", async () => {
    const err = await sshErrorOf(connectHost(labTarget(state, alpha, { pinnedFingerprint: null })));
    expect(err.kind).toBe("host-key");
    expect(err.message).toMatch(/host key of alpha is not pinned/);
  });

  it("connects with the pinned key and key auth, and reuses one connection per host", async () => {
    await closeAll();
    const target = labTarget(state, alpha);
    const [a, b] = await Promise.all([
      execCapture(target, posixCommand(["id", "-u"])),
      execCapture(target, posixCommand(["hostname"])),
    ]);
    expect(a).toMatchObject({ exitCode: 0, stdout: "0" });
    expect(b.exitCode).toBe(0);
    expect(poolSize()).toBe(1);
    expect((await connectHost(target)).fingerprint).toBe(alpha.hostKeyFingerprint);
    expect(poolSize()).toBe(1);
  });

  it("refuses a host whose key differs from the pinned one, naming both fingerprints, before authenticating", async () => {
    // The wrong private key too: if authentication ran first, this would fail as "auth".
    const wrongKey = fs.readFileSync(beta.hostKeyPath, "utf8");
    const target = labTarget(state, alpha, {
      pinnedFingerprint: beta.hostKeyFingerprint,
      auth: { method: "key", privateKey: wrongKey },
    });
    const err = await sshErrorOf(connectHost(target));
    expect(err).toBeInstanceOf(HostKeyMismatchError);
    expect(err.kind).toBe("host-key");
    expect(err.message).toBe(
      `host key of alpha changed: pinned ${beta.hostKeyFingerprint}, presented ${alpha.hostKeyFingerprint}; if the host was reinstalled, re-pin it`,
    );
  });

  it("reports a key the server does not accept as auth, without the key in the message", async () => {
    await closeAll();
    const wrongKey = fs.readFileSync(alpha.hostKeyPath, "utf8");
    const err = await sshErrorOf(
      connectHost(labTarget(state, alpha, { auth: { method: "key", privateKey: wrongKey } })),
    );
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/authentication to alpha \(198\.19\.\d+\.2:22\) failed/);
    expect(err.message).not.toContain("PRIVATE KEY");
  });

  it("authenticates with a passphrase-protected PEM key passed by value, and calls a wrong passphrase auth", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ws-pem-"));
    try {
      const keyFile = path.join(dir, "id_rsa");
      execFileSync("ssh-keygen", ["-q", "-m", "PEM", "-t", "rsa", "-b", "2048", "-N", "correct horse", "-f", keyFile]);
      // The lab's authorized_keys belongs to this lab instance: adding a key is undone by `lab down`.
      fs.appendFileSync(path.join(state.dir, "authorized_keys"), fs.readFileSync(`${keyFile}.pub`));
      const privateKey = fs.readFileSync(keyFile, "utf8");
      expect(privateKey).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED/);
      const ok = await execCapture(
        labTarget(state, alpha, { auth: { method: "key", privateKey, passphrase: "correct horse" } }),
        posixCommand(["echo", "pem"]),
      );
      expect(ok.stdout).toBe("pem");
      const err = await sshErrorOf(
        connectHost(labTarget(state, alpha, { auth: { method: "key", privateKey, passphrase: "wrong" } })),
      );
      expect(err.kind).toBe("auth");
      expect(err.message).not.toContain("wrong");
      expect(err.message).not.toContain("correct horse");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a stopped sshd as unreachable within the connect timeout", async () => {
    await closeAll();
    await stopSshd(beta);
    try {
      const err = await sshErrorOf(connectHost(labTarget(state, beta), { connectTimeoutMs: 3000 }));
      expect(err.kind).toBe("unreachable");
      // the refusal itself, not the connect timeout running out
      expect(err.message).toContain("connection refused");
    } finally {
      await startSshd(beta);
    }
    expect((await connectHost(labTarget(state, beta))).fingerprint).toBe(beta.hostKeyFingerprint);
  });
});

describe("streaming exec", () => {
  it("delivers each line as it arrives, long before the command ends", async () => {
    const seen: { line: string; at: number }[] = [];
    const started = Date.now();
    const result = await execStream(labTarget(state, alpha), posixCommand(["sh", "-c", "echo a; sleep 1; echo b"]), {
      onStdoutLine: (line) => seen.push({ line, at: Date.now() }),
    });
    const ended = Date.now();
    expect(result).toEqual({ exitCode: 0, signal: null, aborted: false });
    expect(seen.map((s) => s.line)).toEqual(["a", "b"]);
    console.log(`first line after ${seen[0]!.at - started} ms, promise resolved ${ended - seen[0]!.at} ms later`);
    expect(ended - seen[0]!.at).toBeGreaterThanOrEqual(800);
  });

  it("splits stdout and stderr, strips \\r, flushes a last line without newline, and returns the exit code", async () => {
    const out: string[] = [];
    const errLines: string[] = [];
    const result = await execStream(
      labTarget(state, alpha),
      posixCommand(["sh", "-c", "printf 'one\\r\\ntwo\\nthree'; echo oops >&2; exit 3"]),
      { onStdoutLine: (l) => out.push(l), onStderrLine: (l) => errLines.push(l) },
    );
    expect(out).toEqual(["one", "two", "three"]);
    expect(errLines).toEqual(["oops"]);
    expect(result.exitCode).toBe(3);
  });

  it("caps what execCapture keeps", async () => {
    const result = await execCapture(labTarget(state, alpha), posixCommand(["seq", "1", "100000"]), { maxBytes: 100 });
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(100);
    expect(result.stdout.startsWith("1\n2\n3")).toBe(true);
  });

  // Root sessions get no SSH "signal" requests from OpenSSH: the agents' start wrapper ends the program when its channel closes.
  it("aborting closes the channel, which stops the remote process, and resolves", async () => {
    const marker = `${30 + Math.random()}`.slice(0, 10);
    const controller = new AbortController();
    const lines: string[] = [];
    const running = execStream(
      labTarget(state, alpha),
      pidFirstCommand(["sh", "-c", `echo started; exec sleep ${marker}`]),
      {
        signal: controller.signal,
        onStdoutLine: (l) => {
          lines.push(l);
          if (l === "started") controller.abort();
        },
      },
    );
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(lines[0]).toMatch(/^wirespeed-pid \d+$/);
    expect(lines[1]).toBe("started");
    await waitFor(() => processesInHost(alpha, `sleep ${marker}`).length === 0, 3000, "the remote sleep to be gone");
  });

  it("rejects with kind timeout after timeoutMs, and stops the command", async () => {
    const marker = `${40 + Math.random()}`.slice(0, 10);
    const err = await sshErrorOf(
      execStream(labTarget(state, alpha), pidFirstCommand(["sleep", marker]), { timeoutMs: 500 }),
    );
    expect(err.kind).toBe("timeout");
    await waitFor(() => processesInHost(alpha, `sleep ${marker}`).length === 0, 3000, "the timed-out sleep to be gone");
  });

  it("rejects with kind connection-lost when the connection drops mid-command, then reconnects", async () => {
    const target = labTarget(state, beta);
    const marker = `${50 + Math.random()}`.slice(0, 10);
    const connection = await getConnection(target);
    const running = execStream(target, pidFirstCommand(["sh", "-c", `echo started; exec sleep ${marker}`]), {
      onStdoutLine: (l) => {
        if (l !== "started") return;
        // Not while a standby's login shell starts: its rc files could be left half done (see settleStandbys).
        void settleStandbys(connection).then(() => {
          // The per-connection sshd ("sshd: root@notty") is our session's server side: killing it drops the TCP connection.
          for (const p of processesInHost(beta, "sshd: root@notty")) process.kill(p.pid, "SIGKILL");
        });
      },
    });
    const err = await sshErrorOf(running);
    expect(err.kind).toBe("connection-lost");
    expect(err.message).toMatch(/SSH connection to beta .* dropped while a command was running/);
    // The wrapper saw its stdin close with the connection and stopped the program.
    await waitFor(() => processesInHost(beta, `sleep ${marker}`).length === 0, 3000, "the orphaned sleep to be gone");
    const again = await execCapture(target, posixCommand(["echo", "back"]));
    expect(again.stdout).toBe("back");
  });
});

// A POSIX command runs in a session whose login shell started before it was sent (lib/ssh/standby.ts),
// so that the shell's start-up files (0.5-1 s where ~/.bashrc runs pyenv or nvm) are not paid per command.
describe("standby sessions", () => {
  // Prints the PID of the session's first process, sshd's child (the login shell, exec'd into the standby's sh).
  const SESSION_PID =
    'p=$$; while [ "$p" -gt 1 ]; do set -- $(ps -o ppid=,comm= -p "$p"); [ "$2" = sshd ] && break; s=$p; p=$1; done; echo "$s"; echo "$SSH_CLIENT"';
  // A process's start in /proc is in clock ticks (1/100 s) since boot; /proc/stat's btime is in whole
  // seconds, so the offset to Date.now() comes from a process started here, at a known time.
  const ticksOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
  let tickOffsetMs = 0;
  beforeAll(() => {
    const before = Date.now();
    const probe = spawn("sleep", ["5"]);
    tickOffsetMs = before - ticksOf(probe.pid!) * 10;
    probe.kill();
  });
  /** When a process started (ms since the epoch, to 10 ms), read from /proc while it runs: the lab shares this machine's PIDs and clock. */
  const startedAtMs = (pid: number) => ticksOf(pid) * 10 + tickOffsetMs;

  async function sessionOf(
    target: HostTarget,
    pty = false,
  ): Promise<{ sentAt: number; startedAt: number; client: string }> {
    const lines: string[] = [];
    let startedAt = Number.NaN;
    let write: (text: string) => void = () => undefined;
    const sentAt = Date.now();
    // The session waits for a line once it has printed, so that its process is still there to be read.
    await execStream(
      target,
      { ...posixCommand(["sh", "-c", `${SESSION_PID}; IFS= read -r _`]), pty, keepStdinOpen: true },
      {
        onStdin: (writer) => (write = writer),
        onStdoutLine: (line) => {
          if (lines.push(line) !== 2) return;
          startedAt = startedAtMs(Number(lines[0]));
          write("\n");
        },
      },
    );
    return { sentAt, startedAt, client: lines[1] ?? "" };
  }

  it("runs a command in a session whose login shell started before it was sent, and keeps the next ones ready", async () => {
    const target = labTarget(state, beta);
    await execCapture(target, posixCommand(["true"]));
    const connection = await getConnection(target);
    await waitFor(() => standbyCount(connection) === STANDBY_COUNT, 30_000, "the standby sessions to start");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const standby = await sessionOf(target);
    expect(standby.sentAt - standby.startedAt).toBeGreaterThanOrEqual(900);
    // The login shell's environment is the command's.
    expect(standby.client).toMatch(/^\S+ \d+ 22$/);
    // The pool fills again, one session at a time.
    await waitFor(() => standbyCount(connection) === STANDBY_COUNT, 30_000, "the pool to fill again");
    // Without a standby (under a pseudo-terminal), the session starts once the command is sent.
    const fresh = await sessionOf(target, true);
    expect(fresh.startedAt).toBeGreaterThanOrEqual(fresh.sentAt - 20);
  });

  it("gives the command its exact words, whatever lines, quotes and numbers they hold, its stdin and its exit status", async () => {
    const target = labTarget(state, alpha);
    const words = [
      "3",
      "two\nlines",
      "'quoted' \"double\" \\back\\slash",
      "$(touch /tmp/wirespeed-standby-injection)",
      "",
      "ends with newline\n",
      "5\n6\n7",
    ];
    const result = await execCapture(
      target,
      posixCommand(["sh", "-c", 'for w in "$@"; do printf "[%s]" "$w"; done; exit 7', "sh", ...words]),
    );
    expect(result.stdout).toBe(
      words.map((word) => `[${word.replace(/\n$/, "")}${word.endsWith("\n") ? "\n" : ""}]`).join(""),
    );
    expect(result.exitCode).toBe(7);
    expect(fs.existsSync("/tmp/wirespeed-standby-injection")).toBe(false);
    // A command that reads its stdin gets what is written to it once it runs, and EOF when the caller ends it.
    const lines: string[] = [];
    const echoed = await execStream(
      target,
      { ...posixCommand(["sh", "-c", 'echo go; IFS= read -r line; echo "got $line"']), keepStdinOpen: true },
      {
        onStdin: (write) => setTimeout(() => write("hello\n"), 200),
        onStdoutLine: (line) => lines.push(line),
      },
    );
    expect(lines).toEqual(["go", "got hello"]);
    expect(echoed.exitCode).toBe(0);
  });
});

describe("local transport", () => {
  const local: HostTarget = {
    name: "this machine",
    address: "localhost",
    port: 0,
    username: "",
    auth: { method: "local" },
    pinnedFingerprint: null,
  };

  it("runs argv without a shell: $(touch ...) is an argument, not a command", async () => {
    const file = path.join(os.tmpdir(), `wirespeed-local-${process.pid}`);
    fs.rmSync(file, { force: true });
    const hostile = `$(touch ${file}); \`touch ${file}\` | touch ${file}`;
    const result = await execCapture(local, posixCommand(["printf", "%s", hostile]));
    expect(result).toMatchObject({ exitCode: 0, stdout: hostile });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("streams lines, reports a missing program like a shell would (127), and aborts the process group", async () => {
    const seen: string[] = [];
    await execStream(local, posixCommand(["sh", "-c", "echo x; echo y >&2"]), {
      onStdoutLine: (l) => seen.push(l),
      onStderrLine: (l) => seen.push(`err:${l}`),
    });
    expect(seen.sort()).toEqual(["err:y", "x"]);

    const missing = await execCapture(local, posixCommand(["wirespeed-no-such-program"]));
    expect(missing).toMatchObject({ exitCode: 127, stderr: "wirespeed-no-such-program: not found" });

    // The command outlasts the test's timeout: only the abort can end it in time.
    const controller = new AbortController();
    const result = await execStream(local, posixCommand(["sh", "-c", "echo go; sleep 600"]), {
      signal: controller.signal,
      onStdoutLine: () => controller.abort(),
    });
    expect(result.aborted).toBe(true);
  });
});
