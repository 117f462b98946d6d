import { describe, expect, it } from "vitest";
import type { RunEndpoint } from "./remote";
import { agentRunRemote } from "./remote-agents";

// The counters around a process on this machine (a `local` target: argv spawned as is, the POSIX
// start command in `sh`): the readings come out of the output, the program's lines go on as they were.
const endpoint = (nicName: string): RunEndpoint => ({
  access: "ssh",
  hostId: 1,
  hostName: "this machine",
  platform: "linux",
  target: {
    name: "this machine",
    address: "127.0.0.1",
    port: 22,
    username: "",
    auth: { method: "local" },
    pinnedFingerprint: null,
  },
  iperf3Path: null,
  portRange: { min: 5201, max: 5210 },
  address: "127.0.0.1",
  nicName,
  openFirewall: false,
});

async function runWithCounters(nicName: string) {
  const lines: string[] = [];
  const process = agentRunRemote.startIperf(
    endpoint(nicName),
    "client",
    "sh",
    ["-c", "echo '[  5]   0.00-1.00   sec  1.00 MBytes'"],
    { onStdoutLine: (line) => lines.push(line), onStderrLine: (line) => lines.push(line) },
    { gated: true, counters: true },
  );
  await process.ready;
  process.release();
  const { exitCode } = await process.done;
  return { exitCode, lines, counters: await process.counters };
}

describe("agentRunRemote's counters", () => {
  it("reads the NIC's counters before and after the process in its own command, out of the program's output", async () => {
    const { exitCode, lines, counters } = await runWithCounters("lo");
    expect(exitCode).toBe(0);
    expect(lines).toEqual(["[  5]   0.00-1.00   sec  1.00 MBytes"]);
    expect(counters).toEqual({
      nic: "lo",
      before: { txBytes: expect.any(Number) as number, rxBytes: expect.any(Number) as number },
      after: { txBytes: expect.any(Number) as number, rxBytes: expect.any(Number) as number },
    });
    expect(counters!.after!.txBytes).toBeGreaterThanOrEqual(counters!.before!.txBytes);
  });

  it("has null readings for a NIC that is not there, and none asked for a NIC without a name", async () => {
    expect((await runWithCounters("wirespeed-none0")).counters).toEqual({
      nic: "wirespeed-none0",
      before: null,
      after: null,
    });
    const unnamed = await runWithCounters(" ");
    expect(unnamed.lines).toEqual(["[  5]   0.00-1.00   sec  1.00 MBytes"]);
    expect(unnamed.counters).toBeUndefined();
  });
});
