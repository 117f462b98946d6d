// Runs against an iperf3 server Wirespeed does not manage, on the lab: `appl` has no sshd, only the
// iperf3 servers this file starts in its namespace (ports 5201 and 5202, its host's whole range), and
// alpha's namespace keeps one or both busy with a slow client of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labHost, labLink, waitFor } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";
import { runToEnd } from "@/testing/run-to-end";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";
import { RunEventBus } from "./bus";

const database = await openLabDatabase();
const { db, state, linkIds, hostIds } = database;
const engine = new RunEngine(agentRunRemote, new RunEventBus());
const link = labLink(state, "a-appl");
const appl = labHost(state, "appl");
const alpha = labHost(state, "alpha");
const started: ChildProcess[] = [];

/** iperf3 in a lab host's namespace (--forceflush: its stdout is a pipe), stopped when the file ends; resolves once it printed `ready`. */
async function iperf3In(netns: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn("ip", ["netns", "exec", netns, "iperf3", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => ready.test(output), 10_000, `iperf3 ${args.join(" ")} in ${netns}: ${output}`);
  return child;
}

/** A slow client from alpha that holds the server on `port` for the rest of the file. */
const keepBusy = (port: number) =>
  iperf3In(
    alpha.netns,
    ["-c", link.b.address, "-p", String(port), "-t", "300", "-b", "1M", "-i", "1", "--forceflush"],
    /sec/,
  );

async function runOnAppl(body: Record<string, unknown>) {
  const id = await runToEnd(engine, linkIds["a-appl"]!, body);
  return db.run.findUniqueOrThrow({ where: { id }, include: { samples: { orderBy: { seq: "asc" } } } });
}

beforeAll(async () => {
  await db.host.update({ where: { id: hostIds.appl! }, data: { iperfPortMin: 5201, iperfPortMax: 5202 } });
  for (const port of [5201, 5202])
    await iperf3In(appl.netns, ["-s", "-p", String(port), "-B", link.b.address, "--forceflush"], /Server listening/);
  await keepBusy(5201);
}, 30_000);

afterAll(() => {
  for (const child of started) child.kill("SIGTERM");
});

describe("a link to an iperf3 server Wirespeed does not manage", () => {
  it.each([
    ["alpha → appl", "a-to-b"],
    ["appl → alpha (-R)", "b-to-a"],
  ])(
    "measures %s near 1 Gbit/s on the free port, after the busy one",
    async (_name, direction) => {
      const run = await runOnAppl({ duration: 4, direction });
      expect(run.errorMessage).toBeNull();
      expect(run.status).toBe("succeeded");
      expect(run.serverTries).toBe(2);
      expect(run.port).toBe(5202);
      expect(run.serverCommand).toBeNull();
      expect(run.serverPid).toBeNull();
      expect(run.clientCommand).toContain(`-c ${link.b.address} -p 5202`);
      expect(run.clientCommand).toContain("--get-server-output");
      expect(run.clientOutput).toMatch(/the server is busy/);
      // What the server printed itself, fetched by the client, kept as the server's output.
      expect(run.serverOutput).toMatch(/Accepted connection from/);
      expect(run.clientOutput).not.toMatch(/Accepted connection from/);
      expect(run.receivedBitsPerSecond).toBeGreaterThan(0.9e9);
      expect(run.receivedBitsPerSecond).toBeLessThan(1.05e9);
      expect(run.samples.length).toBeGreaterThanOrEqual(4);
      const median = run.samples.map((sample) => sample.bitsPerSecond).sort((a, b) => a - b)[2]!;
      expect(median).toBeGreaterThan(0.9e9);
      console.log(
        `[lab] ${direction}: ${(run.receivedBitsPerSecond! / 1e9).toFixed(3)} Gbit/s received, samples ${run.samples
          .map((sample) => (sample.bitsPerSecond / 1e9).toFixed(3))
          .join(" ")}`,
      );
    },
    60_000,
  );

  it("fails server-busy once every port stayed busy for busyRetrySeconds, with its tries stored", async () => {
    await keepBusy(5202);
    const before = Date.now();
    const run = await runOnAppl({ duration: 4, busyRetrySeconds: 3 });
    expect(run.status).toBe("failed");
    expect(run.errorKind).toBe("server-busy");
    expect(run.errorHint).toMatch(/busyRetrySeconds/);
    expect(run.serverTries).toBeGreaterThan(1);
    expect(run.samples).toHaveLength(0);
    expect(Date.now() - before).toBeLessThan(15_000);
    console.log(`[lab] all busy: ${run.serverTries} tries, ${run.errorMessage}`);
  }, 60_000);
});
