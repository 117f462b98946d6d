// The Wirespeed command line: `npm run --silent wirespeed -- <command> ...`.
// A thin dispatcher: each command is one function in COMMANDS; add new ones there.
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { createIperfParser, type IperfPlatform } from "../lib/iperf";

export type CommandIo = { stdin: Readable; stdout: Writable; stderr: Writable };
type Command = { usage: string; summary: string; run: (args: string[], io: CommandIo) => Promise<number> };

const PLATFORMS: IperfPlatform[] = ["linux", "esxi", "windows", "macos", "freebsd", "unknown"];

async function feedLines(input: Readable, onLine: (line: string) => void): Promise<void> {
  // line by line: a long log is never held in memory as a whole
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) onLine(line);
}

async function runParse(args: string[], io: CommandIo): Promise<number> {
  let file: string | undefined;
  let stderrFile: string | undefined;
  let platform: IperfPlatform = "unknown";
  let isCompact = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === "--stderr") stderrFile = args[++index];
    else if (arg === "--platform") platform = args[++index] as IperfPlatform;
    else if (arg === "--compact") isCompact = true;
    else if (file === undefined && (arg === "-" || !arg.startsWith("-"))) file = arg;
    else return usageError(io, `unknown argument "${arg}"`);
  }
  if (file === undefined) return usageError(io, "parse needs a FILE, or - for stdin");
  if (stderrFile === "" || (args.includes("--stderr") && stderrFile === undefined)) return usageError(io, "--stderr needs a FILE");
  if (!PLATFORMS.includes(platform)) return usageError(io, `--platform must be one of ${PLATFORMS.join(", ")}`);
  for (const path of [file, stderrFile]) {
    if (path === undefined || path === "-") continue;
    try {
      await access(path);
    } catch {
      io.stderr.write(`wirespeed parse: cannot read ${path}\n`);
      return 1;
    }
  }

  const parser = createIperfParser({ keepIntervals: true, platform });
  await feedLines(file === "-" ? io.stdin : createReadStream(file), (line) => parser.push(line));
  if (stderrFile !== undefined) {
    await feedLines(stderrFile === "-" ? io.stdin : createReadStream(stderrFile), (line) => parser.push(line));
  }
  const result = parser.end();
  io.stdout.write(`${JSON.stringify(result, null, isCompact ? undefined : 2)}\n`);
  return 0;
}

const COMMANDS: Record<string, Command> = {
  parse: {
    usage: "parse FILE|- [--stderr FILE] [--platform linux|esxi|windows|macos|freebsd] [--compact]",
    summary: "print iperf3 output (text, -J or --json-stream) as normalized JSON",
    run: runParse,
  },
};

function usageText(): string {
  const lines = Object.values(COMMANDS).map((command) => `  wirespeed ${command.usage}\n      ${command.summary}`);
  return `usage: npm run --silent wirespeed -- <command>\n\n${lines.join("\n")}\n`;
}

function usageError(io: CommandIo, message: string): number {
  io.stderr.write(`wirespeed: ${message}\n\n${usageText()}`);
  return 2;
}

export async function runWirespeed(args: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout.write(usageText());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) return usageError(io, `unknown command "${name}"`);
  return command.run(rest, io);
}

// run only when started as a script, not when a test imports it
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWirespeed(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`wirespeed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
