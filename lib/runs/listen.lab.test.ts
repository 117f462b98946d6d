// A device's run on the lab: the phone namespace has no sshd, so the test plays the phone itself,
// running `iperf3 -c` there with `ip netns exec`, against the server Wirespeed starts over SSH on beta.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { labHost, labLink, processesInHost, waitFor } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";
import { closeAll } from "@/lib/ssh";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";
import { RunEventBus } from "./bus";
import { directionOf, parseStoredOptions, parseStoredPathCheck } from "./contract";

const database = await openLabDatabase();
const { db, state, linkIds } = database;
const bus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, bus);
const phone = labHost(state, "phone");
const link = labLink(state, "b-phone");
// beta is the link's a end, the phone its b end.
const betaAddress = link.a.address;

/** The phone's iperf3 client, as its app would run it; resolves with its exit code and output. */
function phoneClient(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("ip", ["netns", "exec", phone.netns, "iperf3", ...args]);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

const iperfInBeta = () => processesInHost(labHost(state, "beta"), "iperf3").map((process) => process.pid);

async function stored(runId: number) {
  return db.run.findUniqueOrThrow({ where: { id: runId }, include: { samples: { orderBy: { seq: "asc" } } } });
}

describe("listening for the lab's phone", () => {
  it("measures the phone's upload near 1 Gbit/s, live, as a b-to-a run", async () => {
    const run = await engine.listenForDevice({ linkId: linkIds["b-phone"]!, timeoutSeconds: 60 });
    expect(run.status).toBe("listening");
    expect(run.listen).toMatchObject({
      address: betaAddress,
      command: `iperf3 -c ${betaAddress} -p ${run.listen!.port}`,
    });
    let live = 0;
    bus.subscribe(run.id, 0, (event) => void (event.type === "sample" && (live += 1)));
    const client = await phoneClient(["-c", betaAddress, "-p", String(run.listen!.port), "-t", "3"]);
    expect(client.code, client.output).toBe(0);
    await engine.waitForRun(run.id);
    const result = await stored(run.id);
    expect(result.errorMessage).toBeNull();
    expect(result.status).toBe("succeeded");
    expect(result.peerAddress).toBe(link.b.address);
    expect(result.serverOutput).not.toContain("[Wirespeed:");
    expect(result.receivedBitsPerSecond).toBeGreaterThan(0.9e9);
    expect(result.receivedBitsPerSecond).toBeLessThan(1.05e9);
    expect(result.samples.length).toBeGreaterThanOrEqual(3);
    expect(live).toBe(result.samples.length);
    const options = parseStoredOptions(result.options);
    expect(directionOf(options, result.clientSide === "b" ? "b" : "a")).toBe("b-to-a");
    // The phone sends, and has no counters Wirespeed can read: nothing proves where its bytes went.
    expect(parseStoredPathCheck(result.pathCheck)).toMatchObject({ client: null, verdict: "unknown" });
    console.log(
      `phone → beta: ${(result.receivedBitsPerSecond! / 1e9).toFixed(3)} Gbit/s; samples ${result.samples.map((s) => (s.bitsPerSecond / 1e6).toFixed(0)).join(", ")} Mbit/s`,
    );
  }, 60_000);

  it("stores the phone's -R as the other direction, with beta's sender figures", async () => {
    const run = await engine.listenForDevice({ linkId: linkIds["b-phone"]!, timeoutSeconds: 60 });
    const client = await phoneClient(["-c", betaAddress, "-p", String(run.listen!.port), "-t", "3", "-R"]);
    expect(client.code, client.output).toBe(0);
    await engine.waitForRun(run.id);
    const result = await stored(run.id);
    expect(result.status).toBe("succeeded");
    const options = parseStoredOptions(result.options);
    expect(options.reverse).toBe(true);
    expect(directionOf(options, "b")).toBe("a-to-b");
    expect(result.sentBitsPerSecond).toBeGreaterThan(0.9e9);
    expect(result.sentBitsPerSecond).toBeLessThan(1.05e9);
    expect(result.samples.length).toBeGreaterThanOrEqual(3);
    // beta sends: its NIC's counter proves the path; the phone has none Wirespeed can read.
    expect(parseStoredPathCheck(result.pathCheck)).toMatchObject({
      client: null,
      server: { nic: link.a.nic },
      verdict: "on-link",
      sender: "server",
    });
    console.log(`beta → phone (-R): ${(result.sentBitsPerSecond! / 1e9).toFixed(3)} Gbit/s sent`);
  }, 60_000);

  it("fails with no-client when the phone never connects, and leaves no iperf3 on beta", async () => {
    const started = Date.now();
    const run = await engine.listenForDevice({ linkId: linkIds["b-phone"]!, timeoutSeconds: 10 });
    await engine.waitForRun(run.id);
    const result = await stored(run.id);
    expect(result).toMatchObject({ status: "failed", errorKind: "no-client" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    await waitFor(() => iperfInBeta().length === 0, 5_000, "no iperf3 in beta");
  }, 40_000);

  it("cancels while listening and leaves no iperf3 on beta", async () => {
    const run = await engine.listenForDevice({ linkId: linkIds["b-phone"]!, timeoutSeconds: 300 });
    expect(iperfInBeta().length).toBeGreaterThan(0);
    expect(await engine.cancelRun(run.id)).toBe("cancelled");
    await waitFor(() => iperfInBeta().length === 0, 5_000, "no iperf3 in beta");
    await closeAll();
  }, 40_000);
});
