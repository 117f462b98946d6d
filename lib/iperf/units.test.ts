import { describe, expect, it } from "vitest";
import { formatBytes, formatRate, parseBytes, parseRate, printedUncertainty } from "./units";

describe("parseBytes", () => {
  it("reads 1024-based byte units", () => {
    expect(parseBytes("1000 MBytes")).toBe(1_048_576_000);
    expect(parseBytes("0.00 Bytes")).toBe(0);
    expect(parseBytes("512 Bytes")).toBe(512);
    expect(parseBytes("896 KBytes")).toBe(896 * 1024);
    expect(parseBytes("4.88 GBytes")).toBe(Math.round(4.88 * 1024 ** 3));
    expect(parseBytes("1.5 TBytes")).toBe(1.5 * 1024 ** 4);
  });

  it("tolerates missing or extra whitespace", () => {
    expect(parseBytes("16.0MBytes")).toBe(16 * 1024 * 1024);
    expect(parseBytes("  110   MBytes ")).toBe(110 * 1024 * 1024);
  });

  it("refuses rates and garbage", () => {
    expect(() => parseBytes("923 Mbits/sec")).toThrow(/not an iperf3 byte count/);
    expect(() => parseBytes("10 MB")).toThrow();
    expect(() => parseBytes("")).toThrow();
  });
});

describe("parseRate", () => {
  it("reads 1000-based bit rates", () => {
    expect(parseRate("923 Mbits/sec")).toBe(923_000_000);
    expect(parseRate("2.05 Gbits/sec")).toBe(2_050_000_000);
    expect(parseRate("0.00 bits/sec")).toBe(0);
    expect(parseRate("983 Kbits/sec")).toBe(983_000);
    expect(parseRate("1.2 Tbits/sec")).toBe(1.2e12);
  });

  it("reads -f byte rates (1024-based bytes per second) as bits per second", () => {
    expect(parseRate("1350 MBytes/sec")).toBe(1350 * 1024 * 1024 * 8);
    expect(parseRate("1.00 GBytes/sec")).toBe(1024 ** 3 * 8);
    expect(parseRate("100 KBytes/sec")).toBe(100 * 1024 * 8);
  });

  it("refuses byte counts", () => {
    expect(() => parseRate("110 MBytes")).toThrow(/not an iperf3 rate/);
  });
});

describe("printedUncertainty", () => {
  it("is half a unit of the last printed digit", () => {
    expect(printedUncertainty("110 MBytes")).toBe(0.5 * 1024 ** 2);
    expect(printedUncertainty("4.88 GBytes")).toBeCloseTo(0.005 * 1024 ** 3);
    expect(printedUncertainty("52.1 MBytes")).toBeCloseTo(0.05 * 1024 ** 2);
    expect(printedUncertainty("917 Mbits/sec")).toBe(0.5e6);
  });
});

describe("formatBytes and formatRate", () => {
  it("print the way iperf3 does", () => {
    expect(formatBytes(1_048_576_000)).toBe("1000 MBytes");
    expect(formatBytes(16 * 1024 * 1024)).toBe("16.0 MBytes");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5.00 GBytes");
    expect(formatBytes(100)).toBe("100 Bytes");
    expect(formatRate(917e6)).toBe("917 Mbits/sec");
    expect(formatRate(2.19e9)).toBe("2.19 Gbits/sec");
    expect(formatRate(0)).toBe("0.00 bits/sec");
  });

  it("round-trip through the parsers within the printed precision", () => {
    for (const bytes of [1, 999, 123_456, 987_654_321, 5_239_860_101]) {
      const printed = formatBytes(bytes);
      expect(Math.abs(parseBytes(printed) - bytes)).toBeLessThanOrEqual(printedUncertainty(printed) + 1);
    }
  });
});
