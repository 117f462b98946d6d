import { describe, expect, it } from "vitest";
import { formatCell, formatDifference } from "./cells";

describe("formatCell", () => {
  it("writes rates in the viewer's unit", () => {
    expect(formatCell(4.7e9, "bitsPerSecond")).toBe("4.70 Gbit/s");
    expect(formatCell(940e6, "bitsPerSecond")).toBe("940 Mbit/s");
    expect(formatCell(8e9, "bitsPerSecond", "bytes")).toBe("1.00 GB/s");
  });

  it("writes percents to a tenth, and small ones to a hundredth", () => {
    expect(formatCell(94.27, "percent")).toBe("94.3 %");
    expect(formatCell(0.05, "percent")).toBe("0.05 %");
    expect(formatCell(0, "percent")).toBe("0.0 %");
  });

  it("writes counts whole with separators, and milliseconds", () => {
    expect(formatCell(12345, "count")).toBe("12,345");
    expect(formatCell(0.031, "ms")).toBe("0.03 ms");
    expect(formatCell(12.34, "ms")).toBe("12.3 ms");
  });

  it("writes text as is, booleans as yes or no, run ids with #, and – where nothing is", () => {
    expect(formatCell("TCP", "text")).toBe("TCP");
    expect(formatCell(true, "text")).toBe("yes");
    expect(formatCell([3, 4], "runs")).toBe("#3, #4");
    expect(formatCell([], "runs")).toBe("–");
    expect(formatCell(null, "bitsPerSecond")).toBe("–");
    expect(formatCell(undefined, "count")).toBe("–");
    expect(formatCell(Number.NaN, "ms")).toBe("–");
  });
});

describe("formatDifference", () => {
  it("signs the difference and rounds it to a tenth", () => {
    expect(formatDifference(12.54)).toBe("+12.5 %");
    expect(formatDifference(-3)).toBe("−3.0 %");
    expect(formatDifference(0.04)).toBe("0.0 %");
    expect(formatDifference(null)).toBe("–");
  });
});

