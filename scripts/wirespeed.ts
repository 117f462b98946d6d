// The Wirespeed command line: `npm run --silent wirespeed -- <command> ...`.
// A thin dispatcher: each command is one function in COMMANDS; add new ones there.
import { createReadStream, existsSync } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { resolveDatabase } from "../lib/config";
import { createIperfParser, type IperfPlatform } from "../lib/iperf";
import { HOST_PLATFORMS, PLATFORMS } from "../lib/platforms";

export type CommandIo = { stdin: Readable; stdout: Writable; stderr: Writable };
type Command = { usage: string; summary: string; run: (args: string[], io: CommandIo) => Promise<number> };

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
  if (stderrFile === "" || (args.includes("--stderr") && stderrFile === undefined))
    return usageError(io, "--stderr needs a FILE");
  if (!HOST_PLATFORMS.includes(platform))
    return usageError(io, `--platform must be one of ${HOST_PLATFORMS.join(", ")}`);
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

async function runRotateSecret(args: string[], io: CommandIo): Promise<number> {
  if (args.length > 0) return usageError(io, `rotate-secret takes no arguments (got "${args[0]}")`);
  const database = resolveDatabase();
  const databaseFile = database.kind === "sqlite" ? database.file : null;
  if (databaseFile !== null && !existsSync(databaseFile)) {
    io.stderr.write(
      `wirespeed rotate-secret: there is no database at ${databaseFile}: set WIRESPEED_DATA_DIR or DATABASE_URL as the app has them\n`,
    );
    return 1;
  }
  // Loaded here, not at the top: `parse` needs neither Prisma nor the database.
  const [
    { PrismaClient },
    { createSqliteAdapter },
    { rotateSecretKey },
    { SecretKeyConfigError },
    { ResealAbortedError },
  ] = await Promise.all([
    import("../lib/generated/prisma/client"),
    import("../lib/sqlite"),
    import("../lib/secrets/rotate"),
    import("../lib/secrets/keys"),
    import("../lib/secrets/reseal"),
  ]);
  // On Postgres, its own client (the same models, generated from the same schema: lib/db.ts).
  const client =
    database.kind === "postgres"
      ? (new (await import("../lib/generated/prisma-postgres/client")).PrismaClient({
          adapter: new (await import("@prisma/adapter-pg")).PrismaPg({ connectionString: database.url }),
        }) as unknown as InstanceType<typeof PrismaClient>)
      : new PrismaClient({ adapter: createSqliteAdapter(database.url) });
  try {
    const result = await rotateSecretKey(client, process.env);
    io.stdout.write(
      `re-encrypted ${result.resealed} secret(s) (host credentials and channel tokens) under the new key (key id ${result.keyId})\n`,
    );
    for (const note of result.notes) io.stdout.write(`${note}\n`);
    return 0;
  } catch (error) {
    // These messages name the variable, file or host and never contain a secret.
    if (error instanceof SecretKeyConfigError || error instanceof ResealAbortedError) {
      io.stderr.write(`wirespeed rotate-secret: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client.$disconnect();
  }
}

const COMMANDS: Record<string, Command> = {
  parse: {
    usage: `parse FILE|- [--stderr FILE] [--platform ${PLATFORMS.join("|")}] [--compact]`,
    summary: "print iperf3 output (text, -J or --json-stream) as normalized JSON",
    run: runParse,
  },
  "rotate-secret": {
    usage: "rotate-secret",
    summary: "re-encrypt every stored host credential under a new key (stop the app first; see README, Secrets)",
    run: runRotateSecret,
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
