import { describe, expect, it } from "vitest";
import { parseIntervalLine } from "./text-output";

const MiB = 1024 ** 2;

describe("parseIntervalLine", () => {
  it("reads a TCP sender interval with Retr and Cwnd", () => {
    expect(
      parseIntervalLine("[  5]   2.00-3.00   sec  1.20 GBytes  10.3 Gbits/sec    4    895 KBytes       "),
    ).toMatchObject({
      isSum: false,
      id: 5,
      start: 2,
      end: 3,
      bytes: Math.round(1.2 * 1024 ** 3),
      bitsPerSecond: 10.3e9,
      retransmits: 4,
      cwndBytes: 895 * 1024,
      side: undefined,
      omitted: false,
    });
  });

  it("reads [SUM] lines, role tags and sender/receiver tags", () => {
    expect(
      parseIntervalLine("[SUM][RX-C]   0.00-3.01   sec  3.28 GBytes  9.37 Gbits/sec                  receiver"),
    ).toMatchObject({
      isSum: true,
      roleTag: "RC",
      end: 3.01,
      bitsPerSecond: 9.37e9,
      side: "receiver",
      retransmits: undefined,
    });
    expect(
      parseIntervalLine("[  8][TX-S]   0.00-3.00   sec  1.90 GBytes  5.44 Gbits/sec    1             sender"),
    ).toMatchObject({
      id: 8,
      roleTag: "TS",
      retransmits: 1,
      side: "sender",
    });
  });

  it("gives a UDP loss as iperf3 computes it, 100 × lost ÷ total, from the exact counts and not the printed 2 digits", () => {
    // iperf3 3.12, a -R test at 600 Mbit/s over a slower link (lib/runs/fixtures/exact/udp-reverse-loss.client.txt)
    const line = parseIntervalLine(
      "[  5]   0.00-2.00   sec  59.2 MBytes   248 Mbits/sec  0.079 ms  23859/66696 (36%)  receiver",
      "udp",
    );
    expect(line).toMatchObject({ lostPackets: 23859, packets: 66696, jitterMs: 0.079 });
    expect(line?.lostPercent).toBe((100 * 23859) / 66696);
    // the same expression as iperf3's `100.0 * lost / total`, so a -J document's lost_percent to the last bit (fixtures/exact/udp.server.txt)
    expect(
      parseIntervalLine(
        "[  5]   0.00-2.00   sec  47.0 MBytes   197 Mbits/sec  0.015 ms  23/1526 (1.5%)  receiver",
        "udp",
      )?.lostPercent,
    ).toBe(1.5072083879423328);
  });

  it("reads UDP receiver and sender tails", () => {
    expect(
      parseIntervalLine(
        "[  5]   0.00-3.00   sec  35.7 MBytes  99.9 Mbits/sec  0.016 ms  2/1145 (0.17%)  receiver",
        "udp",
      ),
    ).toMatchObject({
      bytes: Math.round(35.7 * MiB),
      jitterMs: 0.016,
      lostPackets: 2,
      packets: 1145,
      lostPercent: (100 * 2) / 1145,
      side: "receiver",
    });
    expect(
      parseIntervalLine("[  5][TX-C]   0.00-1.00   sec  11.9 MBytes   100 Mbits/sec            382  ", "udp"),
    ).toMatchObject({ packets: 382 });
    // a jitter column tells UDP apart even before any header said so
    expect(
      parseIntervalLine("[  5]   0.00-1.00   sec  11.9 MBytes   100 Mbits/sec  0.309 ms  0/382 (0%)  ", "tcp"),
    ).toMatchObject({
      jitterMs: 0.309,
      retransmits: undefined,
    });
  });

  it("reads (omitted), zero-length intervals and -f M rates", () => {
    expect(
      parseIntervalLine("[  5]   0.00-1.00   sec  1.19 GBytes  10.2 Gbits/sec    2   3.37 MBytes       (omitted)")
        ?.omitted,
    ).toBe(true);
    expect(parseIntervalLine("[  5]   3.00-3.00   sec   896 KBytes  10.7 Gbits/sec                  ")).toMatchObject({
      start: 3,
      end: 3,
      bytes: 896 * 1024,
    });
    expect(
      parseIntervalLine("[  5]   0.00-1.00   sec  1.02 GBytes  1045 MBytes/sec    2   1.50 MBytes")?.bitsPerSecond,
    ).toBe(1045 * MiB * 8);
  });

  it("finds the line after a prefix and in collapsed whitespace", () => {
    expect(parseIntervalLine("Mon Nov 30 02:38:16 2026 [ 4] 0.00-1.00 sec 110 MBytes 923 Mbits/sec")?.bytes).toBe(
      110 * MiB,
    );
    expect(parseIntervalLine("nas1: [ID 7] text [  5]   0.00-1.00   sec  1.00 KBytes  8.19 Kbits/sec")?.id).toBe(5);
  });

  it("reads each line on its own: nothing of a longer line before it is left to be read", () => {
    expect(
      parseIntervalLine("[  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec    0   3.12 MBytes       ")?.cwndBytes,
    ).toBe(Math.round(3.12 * MiB));
    // cut off inside its units, where the longer line had "GBytes" and "Gbits/sec"
    expect(parseIntervalLine("[  5]   1.00-2.00   sec  1.36 G")).toBeNull();
    expect(parseIntervalLine("[  5]   1.00-2.00   sec  1.36 GBytes  11.7 Gb")).toBeNull();
    expect(parseIntervalLine("[  5]   1.00-2.00   sec  1.36 GBytes  11.7 Gbits/sec    0   3.12 M")).toMatchObject({
      retransmits: 0,
      cwndBytes: undefined,
    });
  });

  it("reads lines with characters outside ASCII, and takes none of them for a space, digit or unit", () => {
    expect(
      parseIntervalLine("déc. 30 02:38:16 2026 « débit » [  5]   0.00-1.00   sec   110 MBytes   923 Mbits/sec")?.bytes,
    ).toBe(110 * MiB);
    // U+0120, U+0131 and U+0142 end in the bytes of " ", "1" and "B": they must stay what they are
    for (const line of [
      "[  5]   0.00-1.00\u0120  sec   110 MBytes   923 Mbits/sec",
      "[  5]   0.00-\u01311.00   sec   110 MBytes   923 Mbits/sec",
      "[  5]   0.00-1.00   sec   110 M\u0142ytes   923 Mbits/sec",
    ]) {
      expect(parseIntervalLine(line), line).toBeNull();
    }
  });

  it("reads an interval after a prefix of any length", () => {
    const title = `${"x".repeat(5000)}é:`;
    expect(
      parseIntervalLine(`${title} [  5]   0.00-1.00   sec   110 MBytes   923 Mbits/sec    3   1.50 MBytes       `),
    ).toMatchObject({
      id: 5,
      bytes: 110 * MiB,
      retransmits: 3,
      cwndBytes: 1.5 * MiB,
    });
    expect(parseIntervalLine(`${title} [  5]   0.00-1.00   sec   110 MBytes   923 M`)).toBeNull();
  });

  it("returns null for every other line", () => {
    for (const line of [
      "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
      "[  5] local 127.0.0.1 port 60462 connected to 127.0.0.1 port 5301",
      "- - - - - - - - - - - - - - - - - - - - - - - - -",
      "[  4] Sent 22782 datagrams",
      "iperf Done.",
      "[  5]   0.00-1.00   sec  1.36 Gbytes  11.7 Gbits/sec",
      "[  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbit/s",
      "",
    ]) {
      expect(parseIntervalLine(line), line).toBeNull();
    }
  });
});
