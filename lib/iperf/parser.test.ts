import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { IperfEvent } from "./model";
import { createIperfParser, parseIperfOutput } from "./parser";

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

function fixture(file: string): string {
  return readFileSync(new URL(`./fixtures/${file}`, import.meta.url), "utf8");
}

/** Pushes each line and records after which line each event came. */
function feed(text: string, keepIntervals = false) {
  const parser = createIperfParser({ keepIntervals });
  const lines = text.split("\n");
  const log: { lineIndex: number; event: IperfEvent }[] = [];
  lines.forEach((line, lineIndex) => {
    for (const event of parser.push(line)) log.push({ lineIndex, event });
  });
  return { lines, log, result: parser.end() };
}

describe("createIperfParser, streaming text", () => {
  it("reports a one-stream interval on its own line, not one line later", () => {
    const { lines, log } = feed(fixture("real/tcp-1.client.stdout.txt"));
    const intervals = log.filter((entry) => entry.event.type === "interval");
    expect(intervals).toHaveLength(3);
    for (const { lineIndex } of intervals) expect(lines[lineIndex]).toMatch(/^\[\s+5\]\s+\d\.00-\d\.00\s+sec/);
  });

  it("reports a -P 4 interval on its [SUM] line, with the four streams", () => {
    const { lines, log } = feed(fixture("real/tcp-4.client.stdout.txt"));
    const intervals = log.filter((entry) => entry.event.type === "interval");
    expect(intervals).toHaveLength(3);
    for (const { lineIndex, event } of intervals) {
      expect(lines[lineIndex]).toMatch(/^\[SUM\]/);
      expect(event.type === "interval" && event.interval.streams.map((stream) => stream.id)).toEqual([5, 7, 9, 12]);
    }
  });

  it("reports start before the first interval, and the summary on iperf Done.", () => {
    const { lines, log } = feed(fixture("real/udp-2.client.stdout.txt"));
    const types = log.map((entry) => entry.event.type);
    expect(types[0]).toBe("start");
    expect(types.filter((type) => type === "start")).toHaveLength(1);
    const start = log[0]?.event;
    expect(start?.type === "start" && start.start).toMatchObject({
      format: "text",
      role: "client",
      protocol: "udp",
      streams: 2,
      remoteHost: "127.0.0.1",
    });
    const summary = log.find((entry) => entry.event.type === "summary");
    expect(lines[summary?.lineIndex ?? -1]).toBe("iperf Done.");
    expect(summary?.event.type === "summary" && summary.event.summary?.receiver?.packets).toBe(1146);
  });

  it("keeps no intervals unless asked, so memory stays flat", () => {
    const text = fixture("real/tcp-4.client.stdout.txt");
    expect(feed(text, false).result.intervals).toEqual([]);
    // [SUM] 0.00-3.00 sec 4.57 GBytes 13.1 Gbits/sec 13 sender, and the receiver line without Retr
    expect(feed(text, false).result.summary).toEqual({
      sender: { start: 0, end: 3, bytes: Math.round(4.57 * GiB), bitsPerSecond: 13.1e9, retransmits: 13 },
      receiver: { start: 0, end: 3, bytes: Math.round(4.57 * GiB), bitsPerSecond: 13.1e9 },
    });
    expect(feed(text, true).result.intervals).toHaveLength(3);
  });

  it("reports the summary on flush() when iperf Done. never came (interrupted)", () => {
    const parser = createIperfParser();
    const events = fixture("real/interrupted-tcp.client.stdout.txt")
      .split("\n")
      .flatMap((line) => parser.push(line));
    expect(events.some((event) => event.type === "summary")).toBe(false);
    const last = parser.flush();
    expect(last).toEqual([expect.objectContaining({ type: "summary", interrupted: true })]);
    expect(parser.flush()).toEqual([]);
    const result = parser.end();
    expect(result.interrupted).toBe(true);
    expect(parser.end()).toBe(result);
    expect(() => parser.push("more")).toThrow(/after end/);
  });

  it("reports an error event as soon as the line comes", () => {
    const parser = createIperfParser({ platform: "linux" });
    expect(parser.push("Connecting to host 10.0.0.40, port 5201")).toEqual([]);
    const events = parser.push("iperf3: error - unable to connect to server: Connection refused");
    expect(events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          kind: "connection-refused",
          message: "iperf3: error - unable to connect to server: Connection refused",
        }),
      },
    ]);
    expect(parser.end().error?.kind).toBe("connection-refused");
  });

  it("keeps the first error as the cause", () => {
    const result = parseIperfOutput(
      "",
      "iperf3: error - unable to start listener for connections: Address already in use\niperf3: exiting\n",
    );
    expect(result.error?.message).toBe(
      "iperf3: error - unable to start listener for connections: Address already in use",
    );
  });

  it("uses the install hint of the given platform", () => {
    const parser = createIperfParser({ platform: "windows" });
    parser.push("'iperf3' is not recognized as an internal or external command,\r");
    expect(parser.end().error).toMatchObject({
      kind: "not-found",
      message: "'iperf3' is not recognized as an internal or external command,",
    });
    expect(parser.end().error?.hint).toContain("iperf3.exe");
  });
});

describe("text lines", () => {
  const header = "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd";

  it("reads collapsed whitespace, CRLF, --timestamps and -T prefixes alike", () => {
    const variants = [
      "[  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec    0   1.12 MBytes       ",
      "[ 5] 0.00-1.00 sec 1.36 GBytes 11.7 Gbits/sec 0 1.12 MBytes\r",
      "Mon Nov 30 02:38:16 2026 [  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec    0   1.12 MBytes",
      "nas1:  [  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec    0   1.12 MBytes",
      "2026-11-30T02:38:16Z [  5]  0.00-1.00 sec  1.36 GBytes  11.7 Gbits/sec  0  1.12 MBytes",
    ];
    for (const line of variants) {
      const result = parseIperfOutput(
        ["[  5] local 10.0.0.1 port 1 connected to 10.0.0.2 port 5201", header, line].join("\n"),
      );
      expect(result.intervals, line).toEqual([
        {
          start: 0,
          end: 1,
          bytes: Math.round(1.36 * 1024 ** 3),
          bitsPerSecond: 11.7e9,
          retransmits: 0,
          omitted: false,
          streams: [
            {
              id: 5,
              bytes: Math.round(1.36 * 1024 ** 3),
              bitsPerSecond: 11.7e9,
              retransmits: 0,
              cwndBytes: Math.round(1.12 * MiB),
            },
          ],
        },
      ]);
    }
  });

  it("reads UDP loss percentages iperf3 prints with %g, and 0/0 (nan%)", () => {
    const udpHeader = "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams";
    const lines = [
      "[  5]   0.00-1.00   sec  1.16 GBytes  9.93 Gbits/sec  0.004 ms  1/838600 (0.00012%)  ",
      "[  5]   1.00-2.00   sec  1.16 GBytes  9.93 Gbits/sec  0.003 ms  1/7630000 (1.3e-05%)  ",
      "[  5]   2.00-3.00   sec  0.00 Bytes  0.00 bits/sec  0.003 ms  0/0 (nan%)  ",
      "[  5]   3.00-4.00   sec  0.00 Bytes  0.00 bits/sec  0.003 ms  0/0 (-nan%)  ",
    ];
    const result = parseIperfOutput(["Accepted connection from 10.0.0.1, port 40000", udpHeader, ...lines].join("\n"));
    expect(result.role).toBe("server");
    expect(result.protocol).toBe("udp");
    // iperf3's own figure, 100 × lost ÷ total, not the 2 digits of %g.
    expect(result.intervals.map((interval) => interval.lostPercent)).toEqual([
      100 / 838_600,
      100 / 7_630_000,
      undefined,
      undefined,
    ]);
    expect(result.intervals[1]).toMatchObject({ jitterMs: 0.003, lostPackets: 1, packets: 7_630_000 });
  });

  it("reads the old Bandwidth header and [  4] sockets", () => {
    const result = parseIperfOutput(fixture("seed/000-windows-n5000M.client.stdout.txt"));
    expect(result.intervals[0]?.streams[0]?.id).toBe(4);
  });

  it("adds up streams of an interval whose [SUM] line is missing (a cut-off paste)", () => {
    const text = [
      "[  5] local 10.0.0.1 port 1 connected to 10.0.0.2 port 5201",
      "[  7] local 10.0.0.1 port 2 connected to 10.0.0.2 port 5201",
      "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
      "[  5]   0.00-1.00   sec   291 MBytes  2.44 Gbits/sec    1    895 KBytes",
      "[  7]   0.00-1.00   sec   290 MBytes  2.42 Gbits/sec    2    895 KBytes",
    ].join("\n");
    const parser = createIperfParser();
    const pushed = text.split("\n").flatMap((line) => parser.push(line));
    expect(pushed.filter((event) => event.type === "interval")).toEqual([]);
    // the interval waits for a [SUM] line that never comes: flush() hands it over
    expect(parser.flush().filter((event) => event.type === "interval")).toHaveLength(1);
    const result = parseIperfOutput(text);
    expect(result.streams).toBe(2);
    expect(result.intervals).toHaveLength(1);
    expect(result.intervals[0]).toMatchObject({ bytes: 581 * MiB, bitsPerSecond: 4.86e9, retransmits: 3 });
    expect(result.intervals[0]?.streams).toHaveLength(2);
  });

  it("ignores lines that are not iperf3's (prose around a paste, usage text)", () => {
    const text = `some blog text\n${fixture("seed/000-windows-n1000M.client.stdout.txt")}\nmore text 1.00-2.00 sec nothing`;
    const result = parseIperfOutput(text);
    expect(result.intervals).toHaveLength(10);
    expect(result.error).toBeNull();
  });

  it("reads `iperf 3.x` at the top of -V output as the version", () => {
    expect(
      parseIperfOutput(`iperf 3.12\nLinux vm 6.1.0 x86_64\n${fixture("real/tcp-1.client.stdout.txt")}`).version,
    ).toBe("3.12");
  });

  it("reads the -V CPU line in collapsed whitespace, CRLF, after a -T title and a --timestamps stamp", () => {
    const text = fixture("real/verbose-tcp.client.stdout.txt");
    const variants = [
      text.split("\n").map((line) => line.replace(/\s+/g, " ")),
      text.split("\n").map((line) => `${line}\r`),
      text.split("\n").map((line) => `nas1:  ${line}`),
      text.split("\n").map((line) => `Mon Nov 30 19:38:14 2026 ${line}`),
    ];
    for (const lines of variants) {
      const result = parseIperfOutput(lines.join("\n"));
      // CPU Utilization: local/sender 26.4% (1.7%u/24.8%s), remote/receiver 34.4% (2.6%u/31.9%s)
      expect(result.cpu, lines[0]).toEqual({ clientPercent: 26.4, serverPercent: 34.4 });
      expect(result.summary, lines[0]).toEqual(parseIperfOutput(text).summary);
    }
  });

  it("keeps the client's own CPU but not the server's when the client was interrupted", () => {
    const lines = fixture("real/interrupted-tcp.client.stdout.txt").split("\n");
    // what a -V client prints after SIGINT: the server's figures never came
    const at = lines.findIndex((line) => line.endsWith("receiver")) + 1;
    lines.splice(at, 0, "CPU Utilization: local/sender 48.2% (1.9%u/46.3%s), remote/receiver 0.0% (0.0%u/0.0%s)");
    const result = parseIperfOutput(lines.join("\n"));
    expect(result.interrupted).toBe(true);
    expect(result.cpu).toEqual({ clientPercent: 48.2, serverPercent: null });
  });

  it("knows a server is the sender of a -R test from its Retr header", () => {
    const result = parseIperfOutput(fixture("real/tcp-reverse.server.stdout.txt"));
    expect(result.direction).toBe("reverse");
    expect(result.summary?.receiver).toBeNull();
    // [  5] 0.00-3.00 sec 3.94 GBytes 11.3 Gbits/sec 43 sender
    expect(result.summary?.sender).toEqual({
      start: 0,
      end: 3,
      bytes: Math.round(3.94 * GiB),
      bitsPerSecond: 11.3e9,
      retransmits: 43,
    });
  });
});

describe("JSON", () => {
  it("reports a -J document's events when its closing brace comes", () => {
    const { lines, log, result } = feed(fixture("real/json-tcp-4.client.stdout.txt"), true);
    const closing = lines.lastIndexOf("}");
    expect(log.every((entry) => entry.lineIndex === closing)).toBe(true);
    expect(log.map((entry) => entry.event.type)).toEqual(["start", "interval", "interval", "interval", "summary"]);
    expect(result.intervals[0]?.streams).toHaveLength(4);
    // the first stream of the first interval, as -J printed it (socket 5, snd_cwnd 785796)
    expect(result.intervals[0]?.streams[0]).toEqual({
      id: 5,
      bytes: 387_973_120,
      bitsPerSecond: 3100907180.7067251,
      retransmits: 1,
      cwndBytes: 785_796,
    });
  });

  it("reports --json-stream events line by line", () => {
    const { lines, log } = feed(fixture("hand-written/3.17-json-stream-bidir.client.stdout.txt"));
    const intervalLines = lines.flatMap((line, index) => (line.includes('"event":"interval"') ? [index] : []));
    const intervalEvents = log.filter((entry) => entry.event.type === "interval");
    // each interval line gives two intervals: forward and reverse
    expect(intervalEvents.map((entry) => entry.lineIndex)).toEqual(intervalLines.flatMap((index) => [index, index]));
    expect(intervalEvents.map((entry) => entry.event.type === "interval" && entry.event.interval.direction)).toEqual([
      "forward",
      "reverse",
      "forward",
      "reverse",
      "forward",
      "reverse",
    ]);
  });

  it("reports a cut-off -J document as an error instead of throwing", () => {
    const text = fixture("real/json-tcp.client.stdout.txt");
    const result = parseIperfOutput(text.slice(0, text.length / 2));
    expect(result.format).toBe("json");
    expect(result.error?.kind).toBe("unknown");
    expect(result.error?.message).toMatch(/cut off/);
  });

  it("takes stderr after a -J document", () => {
    const result = parseIperfOutput(
      fixture("real/interrupted-json.client.stdout.txt"),
      "iperf3: interrupt - the client has terminated\n",
    );
    expect(result.error?.kind).toBe("interrupted");
    expect(result.interrupted).toBe(true);
  });

  it("reads exact JSON numbers, including retransmits and UDP loss", () => {
    const udp = parseIperfOutput(fixture("real/json-udp.client.stdout.txt"));
    const document = JSON.parse(fixture("real/json-udp.client.stdout.txt")) as {
      end: { sum_received: { jitter_ms: number; packets: number; lost_packets: number; bytes: number } };
    };
    expect(udp.summary?.receiver).toMatchObject({
      bytes: document.end.sum_received.bytes,
      jitterMs: document.end.sum_received.jitter_ms,
      packets: document.end.sum_received.packets,
      lostPackets: document.end.sum_received.lost_packets,
    });
  });
});

describe("JSON on one line", () => {
  it("reads a -J document compacted onto one line", () => {
    const document = JSON.parse(fixture("real/json-udp.client.stdout.txt")) as unknown;
    const result = parseIperfOutput(JSON.stringify(document));
    expect(result).toMatchObject({ format: "json", protocol: "udp", version: "3.12" });
    expect(result.intervals).toHaveLength(3);
    expect(result.summary).toEqual(parseIperfOutput(fixture("real/json-udp.client.stdout.txt")).summary);
  });
});

describe("the streams of one interval printing different times", () => {
  // iperf3 3.12, -P 32 -i 0.1 on a busy host (captured on loopback): the streams of one interval
  // do not all print the same times; the [SUM] line closes the interval with the first stream's.
  const HEADER = [
    "Connecting to host 127.0.0.1, port 5999",
    ...Array.from(
      { length: 32 },
      (_, index) =>
        `[${String(5 + 2 * index).padStart(3)}] local 127.0.0.1 port ${40000 + index} connected to 127.0.0.1 port 5999`,
    ),
    "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
  ];
  const interval = (start: string, ends: [string, string], firstOfSecond: number, megabytes: string, sum: string) => [
    ...Array.from(
      { length: 32 },
      (_, index) =>
        `[${String(5 + 2 * index).padStart(3)}]   ${index < firstOfSecond ? ends[0] : ends[1]}   sec  ${megabytes} MBytes   427 Mbits/sec    0   1.12 MBytes       `,
    ),
    `[SUM]   ${ends[0]}   sec   ${sum} MBytes  13.7 Gbits/sec    0             `,
    "- - - - - - - - - - - - - - - - - - - - - - - - -",
  ];
  const text = [
    ...HEADER,
    ...interval("2.61", ["2.61-2.70", "2.61-2.71"], 6, "5.00", "160"),
    ...interval("2.70", ["2.70-2.83", "2.71-2.83"], 6, "6.25", "200"),
  ].join("\n");

  it("makes one interval of each, with every stream and the [SUM] line's totals", () => {
    const result = parseIperfOutput(text);
    expect(result.intervals).toHaveLength(2);
    expect(result.intervals.map((entry) => [entry.start, entry.end, entry.streams.length, entry.bytes])).toEqual([
      [2.61, 2.7, 32, 160 * 1024 ** 2],
      [2.7, 2.83, 32, 200 * 1024 ** 2],
    ]);
  });
});
