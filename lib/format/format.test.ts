import { describe, expect, it } from "vitest";
import {
  decimalsOf,
  formatBitRate,
  formatBytes,
  formatDuration,
  formatDurationEstimate,
  formatFigure,
  formatLinkSpeed,
  formatLinkSpeedCompact,
  formatNumber,
  formatPercent,
  formatPercentWord,
  formatRate,
  formatRelativeTime,
  rateScale,
} from "./index";

describe("the rounding rule", () => {
  it("keeps three significant digits the way iperf3 prints them", () => {
    expect([4.7, 9.994, 9.996, 12.34, 99.94, 99.96, 941.2, 0.5].map(decimalsOf)).toEqual([2, 2, 1, 1, 1, 0, 0, 2]);
    expect([4.7, 9.996, 12.34, 99.96, 941.2, 0].map(formatNumber)).toEqual([
      "4.70",
      "10.0",
      "12.3",
      "100",
      "941",
      "0.00",
    ]);
    expect([4.7, 9.996, 12.34, 10, 941.2, 0].map(formatFigure)).toEqual(["4.7", "10", "12.3", "10", "941", "0"]);
  });

  it("moves to the next unit when the rounded number would reach 1000", () => {
    expect(rateScale(999.4e6).label).toBe("Mbit/s");
    expect(rateScale(999.6e6).label).toBe("Gbit/s");
    expect(rateScale(0).label).toBe("Mbit/s");
    expect(rateScale(0.5).label).toBe("bit/s");
    expect(rateScale(8e9, "bytes").label).toBe("GB/s");
    expect(rateScale(2.5e9, "bytes").label).toBe("MB/s");
  });
});

describe("bit rates", () => {
  it("print in tables with trailing zeros, in the viewer's unit", () => {
    expect(formatRate(4.7e9)).toBe("4.70 Gbit/s");
    expect(formatRate(917e6)).toBe("917 Mbit/s");
    expect(formatRate(2.19e9)).toBe("2.19 Gbit/s");
    expect(formatRate(37.3e9)).toBe("37.3 Gbit/s");
    expect(formatRate(999.6e6)).toBe("1.00 Gbit/s");
    expect(formatRate(8e9, "bytes")).toBe("1.00 GB/s");
    expect(formatRate(985e6, "bytes")).toBe("123 MB/s");
    expect(formatRate(0)).toBe("0.00 Mbit/s");
    expect(formatRate(2.5e9, "bits", rateScale(1e6))).toBe("2500 Mbit/s");
    expect(formatRate(null)).toBe("–");
    expect(formatRate(Number.NaN)).toBe("–");
  });

  it("say rates in sentences with three digits and no trailing zeros", () => {
    expect([4.7e9, 2.2e9, 941e6, 1.41e9, 94.4e9, 1e9, 999.6e6, 512e3, 0].map(formatBitRate)).toEqual([
      "4.7 Gbit/s",
      "2.2 Gbit/s",
      "941 Mbit/s",
      "1.41 Gbit/s",
      "94.4 Gbit/s",
      "1 Gbit/s",
      "1 Gbit/s",
      "512 kbit/s",
      "0 bit/s",
    ]);
  });
});

describe("link speeds", () => {
  it("write a link speed as a rate", () => {
    expect([100, 1000, 2500, 10_000, 25_000].map(formatLinkSpeed)).toEqual([
      "100 Mbit/s",
      "1 Gbit/s",
      "2.5 Gbit/s",
      "10 Gbit/s",
      "25 Gbit/s",
    ]);
    expect(formatLinkSpeed(null)).toBe("unknown");
  });

  it("name speeds the way lab owners do where space is short", () => {
    expect(formatLinkSpeedCompact(1000)).toBe("1G");
    expect(formatLinkSpeedCompact(2500)).toBe("2.5G");
    expect(formatLinkSpeedCompact(40_000)).toBe("40G");
    expect(formatLinkSpeedCompact(100_000)).toBe("100G");
    expect(formatLinkSpeedCompact(100)).toBe("100M");
    expect(formatLinkSpeedCompact(null)).toBe("unknown");
    expect(formatLinkSpeedCompact(undefined)).toBe("unknown");
  });
});

describe("sizes", () => {
  it("print bytes with decimal prefixes", () => {
    expect(formatBytes(1.2e10)).toBe("12.0 GB");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(null)).toBe("–");
  });
});

describe("percentages", () => {
  it("print in tables to a fixed number of decimals", () => {
    expect(formatPercent(94.27)).toBe("94.3 %");
    expect(formatPercent(0.123, 2)).toBe("0.12 %");
    expect(formatPercent(null)).toBe("–");
  });

  it("say percents whole, with a decimal when small or just short of 100", () => {
    expect([71.4, 0.1, 99.5, 100, 23].map(formatPercentWord)).toEqual(["71%", "0.1%", "99.5%", "100%", "23%"]);
  });
});

describe("durations", () => {
  it("print measured times to the second", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(300)).toBe("5 min");
    expect(formatDuration(3900)).toBe("1 h 05 min");
    expect(formatDuration(-3)).toBe("0 s");
  });

  it("round estimates to 5 s", () => {
    expect(formatDurationEstimate(39)).toBe("40 s");
    expect(formatDurationEstimate(1)).toBe("5 s");
    expect(formatDurationEstimate(78)).toBe("1 min 20 s");
    expect(formatDurationEstimate(120)).toBe("2 min");
    expect(formatDurationEstimate(3 * 3600 + 10 * 60)).toBe("3 h 10 min");
  });
});

describe("dates", () => {
  it("say how long ago or how soon", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(formatRelativeTime(new Date("2026-01-01T11:59:30Z"), now)).toBe("just now");
    expect(formatRelativeTime(new Date("2026-01-01T11:57:00Z"), now)).toBe("3 minutes ago");
    expect(formatRelativeTime(new Date("2026-01-01T14:00:00Z"), now)).toBe("in 2 hours");
  });
});
