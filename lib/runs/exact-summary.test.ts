import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createIperfParser, parseIperfOutput, type IperfResult, type IperfSideSummary } from "@/lib/iperf";
import { exactSummaries, isCompleteServerReport } from "./exact-summary";

// Real pairs from iperf3 3.12 (and 3.19.1 for --json-stream), made by fixtures/exact/generate.sh:
// a text client as Wirespeed runs it, and the -J server it ran against. The expected figures are
// read from the server's document with JSON.parse, apart from our parser.

const FIXTURES = path.resolve(__dirname, "fixtures/exact");
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const client = (name: string) => parseIperfOutput(read(`${name}.client.txt`));
const server = (name: string) => parseIperfOutput(read(`${name}.server.txt`));

type JsonSide = {
  start: number;
  end: number;
  bytes: number;
  bits_per_second: number;
  retransmits?: number;
  jitter_ms?: number;
  lost_packets?: number;
  packets?: number;
  lost_percent?: number;
};
const serverEnd = (name: string) => (JSON.parse(read(`${name}.server.txt`)) as { end: Record<string, JsonSide> }).end;

/** The side as the server's document has it, in our model's names. */
function sideOf(json: JsonSide, extra: Array<"retransmits" | "udp-receiver" | "packets"> = []): IperfSideSummary {
  const side: IperfSideSummary = {
    start: json.start,
    end: json.end,
    bytes: json.bytes,
    bitsPerSecond: json.bits_per_second,
  };
  if (extra.includes("retransmits")) side.retransmits = json.retransmits;
  if (extra.includes("packets")) side.packets = json.packets;
  if (extra.includes("udp-receiver"))
    Object.assign(side, {
      jitterMs: json.jitter_ms,
      lostPackets: json.lost_packets,
      packets: json.packets,
      lostPercent: json.lost_percent,
    });
  return side;
}

/** The merge of a fixture pair; the client's own summaries are checked to be the rounded text ones. */
function merged(name: string) {
  const text = client(name);
  expect(text.format).toBe("text");
  return { text, result: exactSummaries(text, server(name)) };
}

describe("exactSummaries: the server's -J figures into a text client's summary", () => {
  it("takes the receiver of a normal TCP test from the server, to the byte and the microsecond", () => {
    const { text, result } = merged("tcp");
    const end = serverEnd("tcp");
    expect(result.summary?.receiver).toEqual(sideOf(end.sum_received!));
    // The text said the same to 3 significant digits ("1.76 GBytes  7.46 Gbits/sec"), and 1/100 s.
    expect(text.summary?.receiver?.bytes).not.toBe(end.sum_received!.bytes);
    expect(Math.abs(text.summary!.receiver!.bitsPerSecond / end.sum_received!.bits_per_second - 1)).toBeLessThan(0.01);
    expect(text.summary!.receiver!.end).toBeCloseTo(end.sum_received!.end, 1);
    expect(result.summary?.receiver?.bytes).toBe(end.sum_received!.bytes);
    expect(Number.isInteger(result.summary!.receiver!.bytes)).toBe(true);
    // The client's own side: only its text knows it (the 3.12 server's document has 0 sent bytes).
    expect(end.sum_sent!.bytes).toBe(0);
    expect(result.summary?.sender).toEqual(text.summary?.sender);
    expect(result.reverseSummary).toBeNull();
  });

  it("takes the sender of -R (with its retransmits) from the sending server; the client's receiver stays", () => {
    const { text, result } = merged("tcp-reverse");
    const end = serverEnd("tcp-reverse");
    expect(result.summary?.sender).toEqual(sideOf(end.sum_sent!, ["retransmits"]));
    expect(result.summary?.receiver).toEqual(text.summary?.receiver);
  });

  it("takes both of the server's sides of --bidir: the forward receiver and the reverse sender", () => {
    const { text, result } = merged("tcp-bidir");
    const end = serverEnd("tcp-bidir");
    expect(result.summary).toEqual({ sender: text.summary?.sender, receiver: sideOf(end.sum_received!) });
    expect(result.reverseSummary).toEqual({
      sender: sideOf(end.sum_sent_bidir_reverse!, ["retransmits"]),
      receiver: text.reverseSummary?.receiver,
    });
  });

  it("takes the UDP receiver with its jitter, loss and datagram count", () => {
    const { text, result } = merged("udp");
    const end = serverEnd("udp");
    expect(result.summary?.receiver).toEqual(sideOf(end.sum_received!, ["udp-receiver"]));
    expect(result.summary?.receiver?.jitterMs).not.toBe(text.summary?.receiver?.jitterMs);
    expect(result.summary?.sender).toEqual(text.summary?.sender);
  });

  it("takes the UDP sender of -R from the server; the client's jitter and loss stay", () => {
    const { text, result } = merged("udp-reverse");
    const end = serverEnd("udp-reverse");
    expect(result.summary?.sender).toEqual(sideOf(end.sum_sent!, ["packets"]));
    expect(result.summary?.receiver).toEqual(text.summary?.receiver);
  });

  it("gives the client's own UDP receiver of -R its loss as lost ÷ datagrams, and keeps its jitter: the server's side has none", () => {
    // A 600 Mbit/s -R test over a loopback shaped to 520 Mbit/s: the client prints "23859/66696 (36%)".
    const { text, result } = merged("udp-reverse-loss");
    const end = serverEnd("udp-reverse-loss");
    expect(result.summary?.sender).toEqual(sideOf(end.sum_sent!, ["packets"]));
    const receiver = result.summary!.receiver!;
    expect(read("udp-reverse-loss.client.txt")).toMatch(
      new RegExp(` ${receiver.lostPackets}/${receiver.packets} \\(\\d+%\\)\\s+receiver`),
    );
    expect(receiver.lostPackets).toBeGreaterThan(0);
    expect(receiver.lostPercent).toBe((100 * receiver.lostPackets!) / receiver.packets!);
    expect(Number.isInteger(receiver.lostPercent)).toBe(false);
    // Jitter: only the receiver measures it, and the sending server's document says 0; the client's 3 decimals of a ms stay.
    expect(end.sum_sent!.jitter_ms).toBe(0);
    expect(receiver.jitterMs).toBe(text.summary?.receiver?.jitterMs);
    expect(receiver.jitterMs).toBeGreaterThan(0);
    // Every interval the client printed, too.
    const lossy = text.intervals.filter((interval) => (interval.lostPackets ?? 0) > 0);
    expect(lossy.length).toBeGreaterThan(0);
    for (const interval of lossy) expect(interval.lostPercent).toBe((100 * interval.lostPackets!) / interval.packets!);
  });

  it("takes the sum of four streams", () => {
    const { result } = merged("tcp-4");
    expect(result.summary?.receiver).toEqual(sideOf(serverEnd("tcp-4").sum_received!));
  });

  it("keeps the client's summary when the server failed, was stopped mid-test, or its document is cut off", () => {
    const text = client("tcp");
    const unchanged = { summary: text.summary, reverseSummary: text.reverseSummary };
    // A listener that failed: {"error": "error - unable to start listener ...: Address already in use"}.
    const busy = server("busy");
    expect(busy.error?.kind).toBe("listener-failed");
    expect(exactSummaries(text, busy)).toEqual(unchanged);
    // A client stopped mid-test: the 3.12 server's document says it lasted 1431 s.
    const interrupted = server("interrupted");
    expect(interrupted.error?.message).toMatch(/client has terminated/);
    expect(serverEnd("interrupted").sum_received!.end).toBeGreaterThan(100);
    expect(exactSummaries(client("interrupted"), interrupted).summary).toEqual(client("interrupted").summary);
    // The document cut in half (a connection that dropped while it was printed).
    const document = read("tcp.server.txt");
    const cut = parseIperfOutput(document.slice(0, document.length / 2));
    expect(cut.error?.message).toMatch(/cut off or invalid/);
    expect(exactSummaries(text, cut)).toEqual(unchanged);
    // No server report, or a text one (a --json-stream client's server): nothing to take.
    expect(exactSummaries(text, null)).toEqual(unchanged);
    expect(isCompleteServerReport(parseIperfOutput(read("json-stream-tcp.server.txt")))).toBe(false);
    expect(isCompleteServerReport(server("tcp"))).toBe(true);
  });

  it("keeps the client's side where the server left it at 0 bytes, and adds nothing to a client without a summary", () => {
    const text = client("udp");
    const report = server("udp");
    // As 3.1.x UDP servers print their `sum`: the receiver's jitter and loss, but the (zero) sent bytes.
    const zeroed: IperfResult = {
      ...report,
      summary: { sender: null, receiver: { ...report.summary!.receiver!, bytes: 0, bitsPerSecond: 0 } },
    };
    expect(exactSummaries(text, zeroed).summary?.receiver).toEqual(text.summary?.receiver);
    const failedClient = parseIperfOutput("", "iperf3: error - unable to connect to server: Connection refused");
    expect(failedClient.summary).toBeNull();
    expect(exactSummaries(failedClient, report).summary).toBeNull();
  });
});

describe("a --json-stream client (3.17+): its end event is exact already", () => {
  /** The end event of a fixture, read with JSON.parse alone. */
  function endEvent(name: string): Record<string, JsonSide> {
    const line = read(name)
      .split("\n")
      .find((l) => l.startsWith('{"event":"end"'));
    return (JSON.parse(line!) as { data: Record<string, JsonSide> }).data;
  }

  /** What the engine gets: the events as the lines arrive, then the result. */
  function streamed(name: string): IperfResult {
    const parser = createIperfParser();
    for (const line of read(name).split("\n")) parser.push(line);
    return parser.end();
  }

  it("keeps both sides of a TCP test as iperf3 3.19.1 computed them", () => {
    const result = streamed("json-stream-tcp.client.txt");
    const end = endEvent("json-stream-tcp.client.txt");
    expect(result.format).toBe("json-stream");
    expect(result.summary).toEqual({
      sender: sideOf(end.sum_sent!, ["retransmits"]),
      receiver: sideOf(end.sum_received!),
    });
  });

  it("keeps the UDP receiver's jitter and loss, and both directions of --bidir", () => {
    const udp = endEvent("json-stream-udp.client.txt");
    expect(streamed("json-stream-udp.client.txt").summary).toEqual({
      sender: sideOf(udp.sum_sent!, ["packets"]),
      receiver: sideOf(udp.sum_received!, ["udp-receiver"]),
    });
    const bidir = endEvent("json-stream-bidir.client.txt");
    const result = streamed("json-stream-bidir.client.txt");
    expect(result.summary).toEqual({
      sender: sideOf(bidir.sum_sent!, ["retransmits"]),
      receiver: sideOf(bidir.sum_received!),
    });
    expect(result.reverseSummary).toEqual({
      sender: sideOf(bidir.sum_sent_bidir_reverse!, ["retransmits"]),
      receiver: sideOf(bidir.sum_received_bidir_reverse!),
    });
  });
});
