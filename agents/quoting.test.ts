/**
 * Every platform's quoting against hostile arguments. POSIX agents (Linux, macOS, FreeBSD, ESXi) go
 * through real shells here (dash as sh, bash, BusyBox ash as on ESXi): `printf '%s\n'` of the quoted
 * argv must print back exactly each argument, on its own line, and nothing may run. Windows goes
 * through the model of cmd.exe and the C runtime in testing/cmd-exe.ts (no Windows host here).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { parsePidLine } from "./process";
import { AGENTS, UnquotableArgumentError } from "./index";
import { throughCmd } from "@/testing/cmd-exe";
import type { Platform } from "./types";

// Where a hostile argument would leave a file if any shell ever ran it.
const MARKER = `/tmp/ws-hostile-quoting-${randomBytes(6).toString("hex")}`;

const HOSTILE: ReadonlyArray<readonly [label: string, value: string]> = [
  ["semicolon", `; touch ${MARKER}`],
  ["command substitution", `$(touch ${MARKER})`],
  ["backticks", `\`touch ${MARKER}\``],
  ["pipe", `| touch ${MARKER}`],
  ["and", `&& touch ${MARKER}`],
  ["background", `& touch ${MARKER} &`],
  ["redirections", `> ${MARKER} < /etc/passwd 2>&1`],
  ["single quote", "'"],
  ["two single quotes", "''"],
  ["breaking out of single quotes", `'; touch ${MARKER}; echo '`],
  ["double quote", '"'],
  ["breaking out of double quotes", `"; touch ${MARKER}; echo "`],
  ["backslash", "\\"],
  ["trailing backslash", "dir\\"],
  ["backslash before a quote", "\\'; touch " + MARKER + "; echo \\'"],
  ["backslash before a double quote", '\\"'],
  ["newline", `a\ntouch ${MARKER}`],
  ["CRLF", `a\r\ntouch ${MARKER}\r\n`],
  ["tab", "tab\there"],
  ["variables and globs", "$HOME ${PATH} $IFS * ? ~ [a] {a,b} $0 $@ $$"],
  ["history and comments", "!! !-1 # comment"],
  ["printf formats", "%s %n %d \\x41 \\n"],
  ["percent and caret", "%PATH% ^& %%"],
  ["leading dash", "-oProxyCommand=touch " + MARKER],
  ["assignment", "A=b"],
  ["empty", ""],
  ["spaces only", "   "],
  ["RTL override, zero-width and emoji", "\u202Eevil\u200B\u200D\uFEFF 🚀 名前 Ünïcødé"],
  ["100 kB", "x".repeat(100 * 1024)],
  ["10 kB of single quotes", "'".repeat(10 * 1024)],
];

const POSIX_PLATFORMS: Platform[] = ["linux", "macos", "freebsd", "esxi"];

// sh on Debian is dash; ESXi's shell is BusyBox ash.
const SHELLS = [
  ["sh", "-c"],
  ["bash", "-c"],
  ["busybox", "ash", "-c"],
] as const;

/** Runs `line` as a login shell run by sshd would (`SHELL -c LINE`), with stdin open until it exits. */
async function runShell(shell: readonly string[], line: string): Promise<{ stdout: string; status: number | null }> {
  const child = spawn(shell[0]!, [...shell.slice(1), line], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  child.stdin.destroy();
  if (status !== 0) throw new Error(`${shell.join(" ")} exited ${status}: ${stderr.slice(0, 300)}`);
  return { stdout, status };
}

afterAll(() => {
  expect(fs.existsSync(MARKER), `${MARKER} exists: a shell ran a hostile argument`).toBe(false);
});

describe.each(POSIX_PLATFORMS)("%s agent quoting", (platform) => {
  const agent = AGENTS[platform];

  for (const shell of SHELLS) {
    it(`gives back every hostile argument exactly, as its own word, through ${shell.join(" ")}`, async () => {
      for (const [label, value] of HOSTILE) {
        const { stdout } = await runShell(shell, agent.quote(["printf", "%s\\n", "first", value, "last"]));
        expect(stdout, label).toBe(`first\n${value}\nlast\n`);
      }
    });
  }

  it("passes hostile arguments verbatim through the wrapper iperf3 is started under (sh and BusyBox ash)", async () => {
    for (const shell of [SHELLS[0], SHELLS[2]]) {
      for (const [label, value] of HOSTILE) {
        const command = agent.clientCommand({ iperf3Path: "printf", args: ["%s\\n", value] });
        const { stdout } = await runShell(shell, command.quote(command.argv));
        const [pidLine, ...rest] = stdout.split("\n");
        expect(parsePidLine(pidLine!), `${label}: ${pidLine}`).toBeGreaterThan(1);
        expect(rest.join("\n"), `${label} through ${shell[0]}`).toBe(`${value}\n`);
      }
    }
  });

  it("refuses a NUL byte, which no argv can hold", () => {
    expect(() => agent.quote(["printf", "a\0b"])).toThrow(/NUL/);
  });

  it("keeps plain words bare and the script of every command constant", () => {
    expect(agent.quote(["iperf3", "-c", "198.18.0.2", "-p", "5201", "-B", "fe80::1%eth0"])).toBe(
      "iperf3 -c 198.18.0.2 -p 5201 -B fe80::1%eth0",
    );
    // The data go after the script as $1, $2...: the script itself never holds an argument.
    const command = agent.serverCommand({ iperf3Path: "/usr/bin/iperf3", args: ["-s", `$(touch ${MARKER})`] });
    const scriptIndex = command.argv.indexOf("-c") + 1;
    expect(command.argv[scriptIndex]).not.toContain(MARKER);
    expect(command.argv.slice(scriptIndex + 1)).toContain(`$(touch ${MARKER})`);
  });
});

describe("windows agent quoting", () => {
  const agent = AGENTS.windows;
  // What cmd.exe or PowerShell cannot be trusted with: refused with a clear error, never sent.
  const refused = (value: string) => /[\r\n\0!$`\u2018-\u201E]/.test(value) || value.length > 8000;

  it("gives back every hostile argument cmd.exe can carry, exactly, and refuses the rest with a clear error", () => {
    let passed = 0;
    for (const [label, value] of HOSTILE) {
      if (refused(value)) {
        expect(() => agent.quote(["C:\\iperf3\\iperf3.exe", value]), label).toThrow(UnquotableArgumentError);
        continue;
      }
      passed++;
      expect(throughCmd(["C:\\iperf3\\iperf3.exe", value, "last"]), label).toEqual([
        "C:\\iperf3\\iperf3.exe",
        value,
        "last",
      ]);
      expect(throughCmd(["C:\\Program Files (x86)\\iperf3\\iperf3.exe", value]), label).toEqual([
        "C:\\Program Files (x86)\\iperf3\\iperf3.exe",
        value,
      ]);
    }
    // Most of the table is carried, not refused: the quoting does its job rather than saying no.
    expect(passed).toBeGreaterThan(HOSTILE.length / 2);
  });

  it("says what is wrong: line breaks, NUL, !, PowerShell's $ ` and typographic quotes, and lines over cmd.exe's limit", () => {
    expect(() => agent.quote(["x", "a\nb"])).toThrow(/line break or NUL/);
    expect(() => agent.quote(["x", "a!b"])).toThrow(/delayed expansion/);
    expect(() => agent.quote(["x", "$(calc)"])).toThrow(/PowerShell/);
    expect(() => agent.quote(["x", "a`b"])).toThrow(/PowerShell/);
    expect(() => agent.quote(["x", "\u201C; calc; \u201D"])).toThrow(/PowerShell/);
    expect(() => agent.quote(["x", "y".repeat(8200)])).toThrow(/at most 8191/);
    expect(agent.quote(["x", "y".repeat(8000)])).toHaveLength(8002);
  });

  it("runs commands through the same quoting", () => {
    const command = agent.clientCommand({
      iperf3Path: "C:\\iperf3\\iperf3.exe",
      args: ["-c", "198.18.0.2", "-B", "198.18.0.1"],
    });
    expect(command.quote(command.argv)).toBe("C:\\iperf3\\iperf3.exe -c 198.18.0.2 -B 198.18.0.1");
    expect(() => command.quote(["C:\\iperf3\\iperf3.exe", "-c", "$(calc)"])).toThrow(UnquotableArgumentError);
  });
});

describe("the shells this test needs", () => {
  it("are installed (dash as sh, bash, BusyBox)", () => {
    for (const shell of SHELLS) {
      const result = spawnSync(shell[0]!, [...shell.slice(1), "exit 0"]);
      expect(result.status, `${shell.join(" ")}: ${result.error?.message ?? ""}`).toBe(0);
    }
  });
});
