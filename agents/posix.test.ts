import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COUNTERS_AFTER, COUNTERS_BEFORE, COUNTERS_END, CounterBlocks, parsePidLine } from "./process";
import { pidFirstCommand, posixClientCommand, posixQuote, posixQuoteArg, posixStopCommand, shScript } from "./posix";

const HOSTILE = [
  "$(touch /tmp/wirespeed-pwned)",
  "`touch /tmp/wirespeed-pwned`",
  "; touch /tmp/wirespeed-pwned",
  "it's",
  "'",
  "''",
  '"double" \\"',
  "a\nb",
  "tab\there",
  "$HOME ${PATH} * ? ~ [a] {a,b}",
  "& | < > ! # %",
  "",
  "-n",
  "A=b",
  "\u00e9\u20ac",
];

// Runs the quoted command line the way a remote login shell would; returns its stdout.
function runIn(shell: string[], commandLine: string): string {
  const res = spawnSync(shell[0]!, [...shell.slice(1), commandLine], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${shell.join(" ")} failed (${res.status}): ${res.stderr}`);
  return res.stdout;
}

describe("posixQuote", () => {
  it("leaves plain words bare and single-quotes the rest, with ' as '\\''", () => {
    expect(posixQuote(["iperf3", "-c", "198.18.0.2", "-p", "5201"])).toBe("iperf3 -c 198.18.0.2 -p 5201");
    expect(posixQuoteArg("it's")).toBe(`'it'\\''s'`);
    expect(posixQuoteArg("")).toBe("''");
    expect(posixQuoteArg("A=b")).toBe("'A=b'");
    expect(() => posixQuoteArg("a\0b")).toThrow(/NUL/);
  });

  for (const shell of [
    ["sh", "-c"],
    ["busybox", "ash", "-c"],
  ]) {
    it(`round-trips hostile arguments through ${shell.join(" ")} unchanged`, () => {
      for (const arg of HOSTILE) {
        expect(runIn(shell, posixQuote(["printf", "%s", arg])), JSON.stringify(arg)).toBe(arg);
      }
    });
  }
});

describe("shScript and the start wrapper", () => {
  it("passes data as positional parameters, never inside the script", () => {
    const command = shScript('printf "%s|" "$@"', ["$(id)", "a b"]);
    expect(command.argv).toEqual(["sh", "-c", 'printf "%s|" "$@"', "sh", "$(id)", "a b"]);
    expect(runIn(["sh", "-c"], command.quote(command.argv))).toBe("$(id)|a b|");
  });

  for (const shell of [
    ["sh", "-c"],
    ["busybox", "ash", "-c"],
  ]) {
    it(`prints the program's PID first, passes hostile argv verbatim, and returns its exit status (${shell[0]})`, async () => {
      const command = pidFirstCommand(["sh", "-c", 'printf "%s\\n" "$@"; exit 7', "inner", ...HOSTILE.slice(0, 5)]);
      expect(command.keepStdinOpen).toBe(true);
      // stdin stays open, as an SSH channel's does while the command runs
      const child = spawn(shell[0]!, [...shell.slice(1), command.quote(command.argv)], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      child.stdin.destroy();
      const lines = stdout.split("\n");
      expect(parsePidLine(lines[0]!)).toBeGreaterThan(1);
      expect(lines.slice(1, 6)).toEqual(HOSTILE.slice(0, 5));
      expect(status).toBe(7);
    });
  }

  it("stops the program when stdin closes (the SSH channel went away)", () => {
    const command = pidFirstCommand(["sleep", "30"]);
    const res = spawnSync("sh", ["-c", command.quote(command.argv)], { encoding: "utf8", input: "", timeout: 60_000 });
    // It ended by itself, long before the sleep's 30 s: spawnSync's timeout would have set ETIMEDOUT.
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(143);
  });

  for (const shell of [
    ["sh", "-c"],
    ["busybox", "ash", "-c"],
  ]) {
    it(`gated: says it is ready, starts nothing until a line arrives on stdin, then runs as usual (${shell[0]})`, async () => {
      const command = pidFirstCommand(["sh", "-c", 'echo "started $1"; exit 3', "inner", "x y"], [], true);
      const child = spawn(shell[0]!, [...shell.slice(1), command.quote(command.argv)], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      for (
        const deadline = Date.now() + 5000;
        !stdout.includes("wirespeed-ready");
        await new Promise((resolve) => setTimeout(resolve, 10))
      ) {
        if (Date.now() > deadline) throw new Error("no ready line");
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Ready and waiting: the program has not run.
      expect(stdout).toBe("wirespeed-ready\n");
      child.stdin.write("go\n");
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      child.stdin.destroy();
      const lines = stdout.split("\n");
      expect(lines[0]).toBe("wirespeed-ready");
      expect(parsePidLine(lines[1]!)).toBeGreaterThan(1);
      expect(lines[2]).toBe("started x y");
      expect(status).toBe(3);
    });
  }

  for (const shell of [
    ["sh", "-c"],
    ["busybox", "ash", "-c"],
  ]) {
    it(`counters: reads the NIC named as data before the gate and after the program, around its output (${shell[0]})`, async () => {
      // A stand-in reader: it prints the NIC's name and whether it can read stdin (it must not take the gate's line).
      const script = `printf 'nic=%s\\n' "$n"; if read -r line; then echo "stole $line"; fi`;
      const hostile = "$(touch /tmp/wirespeed-pwned) x";
      const command = pidFirstCommand(["sh", "-c", 'echo "started $1"; exit 3', "inner", "x y"], [], true, {
        nicName: hostile,
        script,
      });
      const child = spawn(shell[0]!, [...shell.slice(1), command.quote(command.argv)], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stdin.write("go\n");
      // stdin stays open while the program runs: its EOF would stop it (the channel closed).
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      child.stdin.destroy();
      const lines = stdout.split("\n");
      expect(lines.slice(0, 4)).toEqual([COUNTERS_BEFORE, `nic=${hostile}`, COUNTERS_END, "wirespeed-ready"]);
      expect(parsePidLine(lines[4]!)).toBeGreaterThan(1);
      expect(lines.slice(5)).toEqual(["started x y", COUNTERS_AFTER, `nic=${hostile}`, COUNTERS_END, ""]);
      expect(status).toBe(3);
      const blocks = new CounterBlocks();
      expect(lines.filter((line) => !blocks.push(line))).toEqual(["wirespeed-ready", lines[4], "started x y", ""]);
      expect([blocks.before, blocks.after]).toEqual([`nic=${hostile}`, `nic=${hostile}`]);
    });
  }

  it("gated: ends without starting anything when stdin closes before the go (the run was cancelled)", () => {
    const command = pidFirstCommand(["sh", "-c", "echo started"], [], true);
    const res = spawnSync("sh", ["-c", command.quote(command.argv)], { encoding: "utf8", input: "", timeout: 10_000 });
    expect(res.stdout).toBe("wirespeed-ready\n");
    expect(res.status).toBe(0);
  });

  it("builds kill commands from a checked PID", () => {
    expect(posixQuote(posixStopCommand(1234, "INT").argv)).toBe("kill -INT 1234");
    expect(() => posixStopCommand(0, "TERM")).toThrow(/not a process id/);
    expect(() => posixStopCommand(1, "TERM")).toThrow(/not a process id/);
    expect(() => posixStopCommand(Number.NaN, "KILL")).toThrow(/not a process id/);
  });
});

// Starts a command as the engine starts a gated client, says go, and notes when each stdout line arrived.
async function runGated(commandLine: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn("sh", ["-c", commandLine], { stdio: ["pipe", "pipe", "inherit"], env });
  const lines: Array<{ line: string; atMs: number }> = [];
  let wentAt = 0;
  let partial = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const [first, ...rest] = (partial + chunk.toString()).split("\n");
    const complete = rest.length === 0 ? [] : [first!, ...rest.slice(0, -1)];
    partial = rest.length === 0 ? first! : rest.at(-1)!;
    for (const line of complete) {
      lines.push({ line, atMs: performance.now() - wentAt });
      if (line === "wirespeed-ready") {
        wentAt = performance.now();
        child.stdin.write("go\n");
      }
    }
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  child.stdin.destroy();
  return { lines, status, endedAtMs: performance.now() - wentAt };
}

describe("the client wrapper", () => {
  it("line-buffers the program's stdout: a line printed through stdio arrives at once, not at the program's exit", async () => {
    // grep writes through stdio, which buffers a pipe fully: like iperf3's [SUM] line after --forceflush's last flush.
    const command = posixClientCommand({
      iperf3Path: "sh",
      args: ["-c", "{ echo interval; sleep 2; } | grep ."],
      gated: true,
    });
    const { lines, status, endedAtMs } = await runGated(command.quote(command.argv));
    expect(lines.map((entry) => entry.line).slice(2)).toEqual(["interval"]);
    expect(parsePidLine(lines[1]!.line)).toBeGreaterThan(1);
    expect(status).toBe(0);
    expect(endedAtMs).toBeGreaterThan(1900);
    expect(lines[2]!.atMs).toBeLessThan(1000);
  });

  it("runs the program as it is where stdbuf does not work (here: one that fails, as without its library)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-stdbuf-"));
    try {
      fs.writeFileSync(
        path.join(dir, "stdbuf"),
        "#!/bin/sh\necho 'stdbuf: failed to find libstdbuf.so' >&2\nexit 125\n",
        {
          mode: 0o755,
        },
      );
      const command = posixClientCommand({
        iperf3Path: "sh",
        args: ["-c", 'printf "%s|%s\\n" "${_STDBUF_O-unset}" "$1"; exit 3', "inner", "a b"],
        gated: true,
      });
      const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? "/usr/bin:/bin"}` };
      const { lines, status } = await runGated(command.quote(command.argv), env);
      expect(lines.map((entry) => entry.line).slice(2)).toEqual(["unset|a b"]);
      expect(parsePidLine(lines[1]!.line)).toBeGreaterThan(1);
      expect(status).toBe(3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("parsePidLine", () => {
  it("reads only the exact marker line", () => {
    expect(parsePidLine("wirespeed-pid 4242")).toBe(4242);
    expect(parsePidLine("wirespeed-pid 4242\r")).toBe(4242);
    expect(parsePidLine("wirespeed-pid x")).toBeNull();
    expect(parsePidLine("Server listening on 5201 (test #1)")).toBeNull();
    expect(parsePidLine("wirespeed-pid 0")).toBeNull();
  });
});
