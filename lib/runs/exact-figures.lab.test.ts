// Exact run figures on the lab: real sshd, real iperf3 3.12 (a text client, so a -J server), real
// SQLite. The stored figures are checked against the server's own -J document, kept as the run's
// server output and read here with JSON.parse alone.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { labHost, labLink, processesInHost, waitFor } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";
import { runToEnd } from "@/testing/run-to-end";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";
import { RunEventBus } from "./bus";
import { parseRunRequest } from "./request";

const { db, state, linkIds } = await openLabDatabase();
const bus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, bus);

type JsonSide = {
  start: number;
  end: number;
  seconds: number;
  bytes: number;
  bits_per_second: number;
  retransmits?: number;
  jitter_ms?: number;
  lost_packets?: number;
  packets?: number;
  lost_percent?: number;
};
type JsonEnd = Partial<
  Record<"sum_sent" | "sum_received" | "sum_sent_bidir_reverse" | "sum_received_bidir_reverse", JsonSide>
>;

/** The last -J document of a server's output (an earlier one may be a busy port's error). */
function lastDocument(output: string): {
  end: JsonEnd;
  error?: string;
  start: { test_start: { num_streams: number } };
} {
  const lines = output.split("\n");
  const first = lines.lastIndexOf("{");
  const last = lines.indexOf("}", first);
  expect(first).toBeGreaterThanOrEqual(0);
  return JSON.parse(lines.slice(first, last + 1).join("\n")) as ReturnType<typeof lastDocument>;
}

/**
 * A stored rate is iperf3's double, or one a few units in the last place from it: Prisma 6.19 hands
 * Float parameters to its query compiler as JSON text and reads them back slightly off (in 3000 random
 * doubles: 26% off by 1 to 4 units, at most 4.6e-16 of the value). Bytes are whole numbers: exact.
 */
function expectSameDouble(stored: number | null, expected: number): void {
  expect(stored).not.toBeNull();
  expect(Math.abs(stored! - expected)).toBeLessThanOrEqual(1e-15 * Math.abs(expected));
}

/** The side as stored equals the document's: bytes to the byte, the rate, and so the seconds to the microsecond. */
function expectSide(stored: { bytes: number | null; bitsPerSecond: number | null }, json: JsonSide): void {
  expect(json.bytes).toBeGreaterThan(0);
  expect(stored.bytes).toBe(json.bytes);
  expectSameDouble(stored.bitsPerSecond, json.bits_per_second);
  const seconds = (stored.bytes! * 8) / stored.bitsPerSecond!;
  expect(Math.abs(seconds - json.seconds)).toBeLessThan(0.5e-6);
}

/**
 * The side a text client measured itself, as it printed it on its summary line: with -f k, a whole
 * number of kbit/s (7 significant digits at 1 Gbit/s, not the 3 of "933 Mbits/sec").
 */
function expectClientKbits(
  clientOutput: string,
  bitsPerSecond: number | null,
  role: "sender" | "receiver",
  tag = "",
): void {
  expect(bitsPerSecond).not.toBeNull();
  expect(bitsPerSecond! % 1000).toBe(0);
  expect(bitsPerSecond!).toBeGreaterThan(10_000_000);
  const summary = clientOutput
    .split("\n")
    .filter((line) => line.includes(tag) && new RegExp(`\\s${role}\\s*$`).test(line));
  expect(
    summary.some((line) => line.includes(` ${bitsPerSecond! / 1000} Kbits/sec `)),
    summary.join("\n"),
  ).toBe(true);
}

/** Both sides of one direction, one measured by each end, agree within what a TCP test's start and end shift. */
function expectClose(a: number | null, b: number | null, share = 0.03): void {
  expect(a).not.toBeNull();
  expect(Math.abs(a! - b!)).toBeLessThanOrEqual(share * b!);
}

/** A run through the engine, with the time each of its samples reached the bus. */
async function runOn(link: string, body: Record<string, unknown>) {
  const arrivals: number[] = [];
  const id = await runToEnd(engine, linkIds[link]!, body, (runId) =>
    bus.subscribe(runId, 0, (event) => event.type === "sample" && arrivals.push(Date.now())),
  );
  const run = await db.run.findUniqueOrThrow({
    where: { id },
    include: { samples: { orderBy: { seq: "asc" } } },
  });
  expect(run.errorMessage).toBeNull();
  expect(run.status).toBe("succeeded");
  expect(run.serverCommand).toMatch(/ -J -i 0$/);
  return { run, arrivals, document: lastDocument(run.serverOutput) };
}

/** The intervals came one by one while the test ran, not in a block at its end. */
function expectLive({ run, arrivals }: Awaited<ReturnType<typeof runOn>>, seconds: number, directions = 1): void {
  expect(run.samples.length).toBeGreaterThanOrEqual(seconds * directions);
  expect(arrivals).toHaveLength(run.samples.length);
  const forward = run.samples.filter((sample) => sample.direction === "forward");
  expect(forward.slice(0, seconds).map((sample) => Math.round(sample.start))).toEqual([...Array(seconds).keys()]);
  // Output held back until the end would come in one burst; these came a second apart, give or take a loaded machine.
  expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan((seconds - 2.5) * 1000);
  expect(run.endedAt!.getTime() - arrivals[0]!).toBeGreaterThan((seconds - 2) * 1000);
}

describe("exact figures from iperf3 3.12 on the lab", () => {
  it("stores the receiver of a TCP run as the server's document has it", async () => {
    const result = await runOn("ab-1g", { duration: 4 });
    const { run, document } = result;
    expectSide({ bytes: run.receivedBytes, bitsPerSecond: run.receivedBitsPerSecond }, document.end.sum_received!);
    // The sender's side: only the client's text knows it, in kbit/s.
    expect(document.end.sum_sent!.bytes).toBe(0);
    expectClientKbits(run.clientOutput, run.sentBitsPerSecond, "sender");
    expectClose(run.sentBitsPerSecond, run.receivedBitsPerSecond);
    expectLive(result, 4);
  });

  it("stores the sender of -R, with its retransmits, as the sending server's document has it", async () => {
    const result = await runOn("ab-1g", { duration: 4, direction: "b-to-a" });
    const { run, document } = result;
    expect(run.clientCommand).toContain(" -R ");
    expectSide({ bytes: run.sentBytes, bitsPerSecond: run.sentBitsPerSecond }, document.end.sum_sent!);
    expect(run.retransmits).toBe(document.end.sum_sent!.retransmits);
    expectClientKbits(run.clientOutput, run.receivedBitsPerSecond, "receiver");
    expectClose(run.receivedBitsPerSecond, run.sentBitsPerSecond);
    expectLive(result, 4);
  });

  it("stores the forward receiver and the reverse sender of --bidir from the server's document", async () => {
    const result = await runOn("ab-1g", { duration: 4, direction: "bidir" });
    const { run, document } = result;
    expectSide({ bytes: run.receivedBytes, bitsPerSecond: run.receivedBitsPerSecond }, document.end.sum_received!);
    expectSide(
      { bytes: run.reverseSentBytes, bitsPerSecond: run.reverseSentBitsPerSecond },
      document.end.sum_sent_bidir_reverse!,
    );
    expect(run.reverseRetransmits).toBe(document.end.sum_sent_bidir_reverse!.retransmits);
    // The other two, the client's own: the forward sender and the reverse receiver, as it printed them.
    expect(document.end.sum_sent!.bytes).toBe(0);
    expect(document.end.sum_received_bidir_reverse!.bytes).toBe(0);
    expectClientKbits(run.clientOutput, run.sentBitsPerSecond, "sender", "[TX-C]");
    expectClientKbits(run.clientOutput, run.reverseReceivedBitsPerSecond, "receiver", "[RX-C]");
    expectClose(run.sentBitsPerSecond, run.receivedBitsPerSecond);
    expectClose(run.reverseReceivedBitsPerSecond, run.reverseSentBitsPerSecond);
    expectLive(result, 4, 2);
  });

  it("stores the UDP receiver with its jitter, loss and datagrams as the server counted them", async () => {
    const result = await runOn("ab-2g5", { duration: 4, protocol: "udp", bitrate: 100_000_000 });
    const { run, document } = result;
    const received = document.end.sum_received!;
    expectSide({ bytes: run.receivedBytes, bitsPerSecond: run.receivedBitsPerSecond }, received);
    expectSameDouble(run.jitterMs, received.jitter_ms!);
    expect(run).toMatchObject({ lostPackets: received.lost_packets, packets: received.packets });
    if (received.lost_percent === 0) expect(run.lostPercent).toBe(0);
    else expectSameDouble(run.lostPercent, received.lost_percent!);
    expectLive(result, 4);
  });

  it("stores UDP -R: the sending server's side from its document, the client's receiver with its loss as lost ÷ datagrams", async () => {
    // More than ab-1g carries, so that datagrams are lost.
    const result = await runOn("ab-1g", { duration: 4, protocol: "udp", bitrate: 1_400_000_000, direction: "b-to-a" });
    const { run, document } = result;
    const sent = document.end.sum_sent!;
    expectSide({ bytes: run.sentBytes, bitsPerSecond: run.sentBitsPerSecond }, sent);
    // The client received: its own counts, exact as printed, and the loss from them.
    expectClientKbits(run.clientOutput, run.receivedBitsPerSecond, "receiver");
    // The receiver counts up to the last datagram it saw: those still on the way at the end are not in it.
    expect(run.packets).toBeLessThanOrEqual(sent.packets!);
    expect(run.packets).toBeGreaterThan(0.99 * sent.packets!);
    expect(run.lostPackets).toBeGreaterThan(0);
    expectSameDouble(run.lostPercent, (100 * run.lostPackets!) / run.packets!);
    expect(run.clientOutput).toMatch(new RegExp(` ${run.lostPackets}/${run.packets} \\(\\S+%\\)\\s+receiver`));
    expect(run.jitterMs).toBeGreaterThan(0);
    expectLive(result, 4);
  });

  it("stores the sum of two streams", async () => {
    const result = await runOn("ab-2g5", { duration: 4, parallel: 2 });
    const { run, document } = result;
    expect(document.start.test_start.num_streams).toBe(2);
    expectSide({ bytes: run.receivedBytes, bitsPerSecond: run.receivedBitsPerSecond }, document.end.sum_received!);
    expect((run.samples[0]!.streams as unknown[]).length).toBe(2);
    expectLive(result, 4);
  });

  it("fails with listener-failed when the run's own port is taken on the server's host", async () => {
    const beta = labHost(state, "beta");
    const address = labLink(state, "ab-1g").b.address;
    const squatter = spawn("ip", ["netns", "exec", beta.netns, "iperf3", "-s", "-B", address, "-p", "5391"], {
      stdio: "ignore",
    });
    try {
      await waitFor(() => processesInHost(beta, "-p 5391").length > 0, 5000, "the squatter to start");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const request = parseRunRequest({ duration: 2, port: 5391 });
      const started = await engine.startRun({ linkId: linkIds["ab-1g"]!, options: request.options, clientSide: "a" });
      await engine.waitForRun(started.id);
      const run = await db.run.findUniqueOrThrow({ where: { id: started.id } });
      expect(run).toMatchObject({ status: "failed", errorKind: "listener-failed" });
      expect(run.errorMessage).toMatch(/Address already in use/);
      expect(lastDocument(run.serverOutput).error).toMatch(/unable to start listener/);
      expect(run.clientOutput).toBe("");
    } finally {
      squatter.kill();
    }
  });
});
