// Shared set-up of the lab benchmarks (throughput, latency, samples, experiment, path-check): a lab of its
// own (instance 2 unless WIRESPEED_LAB_INSTANCE says otherwise), a fresh migrated SQLite
// database with the lab's inventory, and the real run engine on its own event bus.
// Everything is torn down in a finally, whatever the benchmark does.
// Nothing runs on import: the smoke tests read LAB_BENCHES from here.
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { LabLink, LabState } from "../testing/lab-state";
import { runProgram } from "../testing/run-program";

/**
 * The benchmarks that need the lab (root, network namespaces), by file name (bench/<name>.bench.ts):
 * bench/smoke.lab.test.ts smokes these, bench/smoke.test.ts the others, and scripts/bench.sh asks
 * for root before running them (it knows them by their import of this file).
 */
export const LAB_BENCHES = ["throughput", "latency", "samples", "experiment", "path-check"] as const;

/**
 * The options of a benchmark's command line: `--name value` when given, else under `--smoke` the
 * smoke run's value (a tiny run that takes seconds, still checked), else the full run's.
 */
export function benchOptions(args: string[]) {
  const isSmoke = args.includes("--smoke");
  const value = (name: string, full: string, smoke: string = full): string => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 && args[index + 1] !== undefined ? args[index + 1]! : isSmoke ? smoke : full;
  };
  return {
    isSmoke,
    value,
    number: (name: string, full: number, smoke: number = full) => Number(value(name, String(full), String(smoke))),
  };
}

/** A result that is wrong (not a goal missed): the benchmark stops and exits non-zero. */
export function check(condition: unknown, wrong: string): asserts condition {
  if (!condition) throw new Error(`wrong result: ${wrong}`);
}

export type BenchContext = {
  state: LabState;
  linkIds: Record<string, number>;
  db: typeof import("../lib/db").db;
  engine: InstanceType<typeof import("../lib/runs/engine").RunEngine>;
  bus: InstanceType<typeof import("../lib/runs/bus").RunEventBus>;
  parseRunRequest: typeof import("../lib/runs/request").parseRunRequest;
  openRunEventStream: typeof import("../lib/runs/events").openRunEventStream;
  iperfVersion: string;
};

/** Brings the lab up, runs the benchmark, and always brings the lab down again. */
export async function withLabEngine(name: string, body: (context: BenchContext) => Promise<void>): Promise<void> {
  const { labUp, labDown, labInstance } = await import("../testing/lab/lab");
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  // Instance 0 belongs to the test suite and whoever runs it: the benchmarks keep out of its way.
  process.env.WIRESPEED_LAB_INSTANCE ||= "2";
  const instance = labInstance();
  if (instance === 0) throw new Error("run the benchmarks on a lab instance of their own: WIRESPEED_LAB_INSTANCE=2");
  const database = createTestDatabase();
  // An app on this database: every module of lib/ reads and writes it (testing/database.ts).
  await connectAppDatabase(database.url);
  let closeAll: (() => Promise<void>) | null = null;
  let disconnect: (() => Promise<void>) | null = null;
  const started = Date.now();
  // Ctrl-C, or a smoke test out of time: the lab goes down all the same (a finally does not run on a signal).
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`${name}: ${signal}: tearing lab instance ${instance} down`);
    try {
      labDown();
      database.remove();
    } finally {
      process.exit(1);
    }
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const upStarted = Date.now();
    const state = await labUp();
    console.log(
      `${name}: lab instance ${instance} up in ${((Date.now() - upStarted) / 1000).toFixed(1)} s (default topology, ${state.dir})`,
    );
    const { db } = await import("../lib/db");
    disconnect = () => db.$disconnect();
    ({ closeAll } = await import("../lib/ssh"));
    const { seedLabInventory } = await import("../testing/lab-inventory");
    const { RunEngine } = await import("../lib/runs/engine");
    const { agentRunRemote } = await import("../lib/runs/remote-agents");
    const { RunEventBus } = await import("../lib/runs/bus");
    const { parseRunRequest } = await import("../lib/runs/request");
    const { openRunEventStream } = await import("../lib/runs/events");
    const { linkIds } = await seedLabInventory(state);
    const bus = new RunEventBus();
    const engine = new RunEngine(agentRunRemote, bus);
    const iperfVersion = spawnSync("iperf3", ["--version"], { encoding: "utf8" }).stdout.split("\n")[0]!.trim();
    console.log(
      `${name}: node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(" ")}, ${iperfVersion} on both lab hosts`,
    );
    await body({ state, linkIds, db, engine, bus, parseRunRequest, openRunEventStream, iperfVersion });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await closeAll?.().catch(() => undefined);
    await disconnect?.().catch(() => undefined);
    labDown();
    database.remove();
    console.log(`${name}: lab instance ${instance} down; ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
  }
}

/** Starts a run through the engine and waits for its end; times from the startRun call to the first sample on the bus. */
export async function engineRun(context: BenchContext, link: string, body: Record<string, unknown>) {
  const { engine, bus, db, parseRunRequest, linkIds } = context;
  const request = parseRunRequest(body);
  const calledAt = performance.now();
  const started = await engine.startRun({
    linkId: linkIds[link]!,
    options: request.options,
    clientSide: request.clientSide,
  });
  let firstSampleAt: number | null = null;
  // The listener runs inside publish(): the stamp is the moment the engine hands the sample out.
  const unsubscribe = bus.subscribe(started.id, 0, (event) => {
    if (event.type === "sample" && firstSampleAt === null) firstSampleAt = performance.now();
  });
  await engine.waitForRun(started.id);
  unsubscribe?.();
  const run = await db.run.findUniqueOrThrow({ where: { id: started.id } });
  if (run.status !== "succeeded")
    throw new Error(`run ${run.id} on ${link}: ${run.status}: ${run.errorKind} ${run.errorMessage}`);
  return { run, toFirstSampleMs: firstSampleAt === null ? null : firstSampleAt - calledAt };
}

const sshOptions = (state: LabState) => [
  "-i",
  state.clientKeyPath,
  "-o",
  "BatchMode=yes",
  "-o",
  "UserKnownHostsFile=/dev/null",
  "-o",
  "StrictHostKeyChecking=no",
  "-o",
  "LogLevel=ERROR",
];

/** One command on a lab host over `ssh`, to its end: stdout, stderr, exit code. */
export function sshRun(
  state: LabState,
  host: string,
  command: string,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const target = state.hosts.find((h) => h.name === host)!;
  return runProgram("ssh", [...sshOptions(state), `${target.username}@${target.sshHost}`, command]);
}

/** Waits until something listens on the port in the host's namespace (iperf3's own "listening" line is block-buffered over ssh). */
export async function waitForListener(state: LabState, host: string, port: number, timeoutMs = 10_000): Promise<void> {
  const netns = state.hosts.find((h) => h.name === host)!.netns;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = spawnSync("ip", ["netns", "exec", netns, "ss", "-Hltn", `sport = :${port}`], {
      encoding: "utf8",
    }).stdout;
    if (out.trim() !== "") return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The same test by hand: `iperf3 -s -1` on b, `iperf3 -c ... -J` on a, both over ssh with the
 * lab key; returns the receiver's bits per second from the client's JSON.
 */
export async function handRun(
  state: LabState,
  link: LabLink,
  port: number,
  seconds: number,
  extra: string[] = [],
): Promise<{ bitsPerSecond: number; serverCommand: string; clientCommand: string }> {
  const serverCommand = `iperf3 -s -1 -B ${link.b.address} -p ${port}`;
  const clientCommand = [
    "iperf3",
    "-c",
    link.b.address,
    "-B",
    link.a.address,
    "-p",
    String(port),
    "-t",
    String(seconds),
    ...extra,
    "-J",
  ].join(" ");
  const server = sshRun(state, link.b.host, serverCommand);
  await waitForListener(state, link.b.host, port);
  const client = await sshRun(state, link.a.host, clientCommand);
  const serverResult = await server;
  if (client.code !== 0)
    throw new Error(
      `by hand on ${link.name}: client exited ${client.code}: ${client.stderr}${client.stdout.slice(0, 500)}`,
    );
  if (serverResult.code !== 0)
    throw new Error(`by hand on ${link.name}: server exited ${serverResult.code}: ${serverResult.stderr}`);
  const json = JSON.parse(client.stdout) as { end?: { sum_received?: { bits_per_second?: number } } };
  const bitsPerSecond = json.end?.sum_received?.bits_per_second;
  if (typeof bitsPerSecond !== "number")
    throw new Error(`by hand on ${link.name}: no end.sum_received.bits_per_second`);
  return { bitsPerSecond, serverCommand, clientCommand };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const gbits = (bitsPerSecond: number) => `${(bitsPerSecond / 1e9).toFixed(3)} Gbit/s`;
export const ms = (milliseconds: number) => `${milliseconds.toFixed(1)} ms`;

/** Runs a benchmark's main and exits non-zero only when it could not measure or a result is wrong (never on a missed goal). */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}

/** What a benchmark run as its own process printed, and how it ended. */
export type BenchProcess = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  seconds: number;
};

/**
 * Runs bench/<name>.bench.ts as `npm run bench` does, in its own process (a benchmark exits
 * when done and may set process-wide state), with `args` and extra environment. For the smoke tests.
 */
export function runBenchProcess(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 170_000,
): Promise<BenchProcess> {
  const root = path.resolve(__dirname, "..");
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--require", "./testing/server-only.cjs", "--import", "tsx", `bench/${name}.bench.ts`, ...args],
      {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // SIGTERM, not SIGKILL: a lab benchmark tears its lab down on it.
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** A measured figure in a benchmark's output: a number with a unit of time, size, rate or share. */
export const FIGURE = /\d(?:[\d,.]*\d)? ?(?:ms|s|MB|KiB|MiB|kB|GB|B|lines\/s|Gbit\/s|Mbit\/s|samples\/s|%)(?![A-Za-z])/;
