// The CPU use of both ends of real runs on the lab: real sshd, real iperf3, real SQLite.
import os from "node:os";
import { describe, expect, it } from "vitest";
import { openLabDatabase } from "@/testing/lab-database";
import { runToEnd } from "@/testing/run-to-end";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";
import { RunEventBus } from "./bus";
import { runJson } from "./serialize";

const { db, linkIds } = await openLabDatabase();
const engine = new RunEngine(agentRunRemote, new RunEventBus());
// iperf3's figure is user + system time over wall time: one core at most per thread, and the lab's hosts share this machine's cores
const MAX_PERCENT = 100 * os.cpus().length;

async function runOn(link: string, body: Record<string, unknown>) {
  const id = await runToEnd(engine, linkIds[link]!, body);
  return db.run.findUniqueOrThrow({ where: { id }, include: { link: true } });
}

/** Both figures are numbers iperf3 measured: above 0 and within what the machine's cores can give. */
function expectBothCpuFigures(run: Awaited<ReturnType<typeof runOn>>): void {
  expect(run.errorMessage).toBeNull();
  expect(run.status).toBe("succeeded");
  for (const percent of [run.clientCpuPercent, run.serverCpuPercent]) {
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThanOrEqual(MAX_PERCENT);
  }
  // the figures are the client's own CPU line, as its output kept it
  const line = /CPU Utilization: local\/\w+ ([\d.]+)%.*remote\/\w+ ([\d.]+)%/.exec(run.clientOutput ?? "");
  expect(line?.slice(1).map(Number)).toEqual([run.clientCpuPercent, run.serverCpuPercent]);
  expect(runJson(run, run.link).summary).toMatchObject({
    clientCpuPercent: run.clientCpuPercent,
    serverCpuPercent: run.serverCpuPercent,
  });
}

describe("the CPU use of both ends, on the lab", () => {
  it("is stored for a TCP run", async () => {
    const run = await runOn("ab-1g", { duration: 3 });
    expect(run.clientCommand?.split(" ")).toContain("-V");
    expectBothCpuFigures(run);
  });

  it("is stored for a UDP run", async () => {
    const run = await runOn("ab-1g", { protocol: "udp", bitrate: 500_000_000, duration: 3 });
    expectBothCpuFigures(run);
    expect(run.lostPercent).not.toBeNull();
  });

  it("is stored for a bidirectional run with two streams", async () => {
    expectBothCpuFigures(await runOn("ab-2g5", { direction: "bidir", parallel: 2, duration: 3 }));
  });

  it("is stored for a run pinned to core 0 on both ends with -A 0,0", async () => {
    const run = await runOn("ab-1g", { duration: 3, affinity: "0,0" });
    expect(run.clientCommand).toMatch(/ -A 0,0 /);
    expectBothCpuFigures(run);
    // one process on one core: at most that core, with a margin for iperf3's rounding and timing
    expect(run.clientCpuPercent).toBeLessThanOrEqual(105);
    expect(run.serverCpuPercent).toBeLessThanOrEqual(105);
  });
});
