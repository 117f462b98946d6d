import { describe, expect, it } from "vitest";
import { bracketIndexes, formatBitRate, formatPercentWord, formatSize, median, percentOf } from "./figures";

describe("figures", () => {
  it("takes the median of what was measured", () => {
    expect(median([3, null, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([null, undefined])).toBeNull();
  });

  it("gives a percent to 0.1, or null without a positive whole", () => {
    expect(percentOf(14.4e9, 19.8e9)).toBe(72.7);
    expect(percentOf(1, 0)).toBeNull();
    expect(percentOf(null, 1)).toBeNull();
  });

  it("says rates with three digits and no trailing zeros", () => {
    expect([4.7e9, 2.2e9, 941e6, 1.41e9, 94.4e9, 1e9, 999.6e6, 512e3].map(formatBitRate)).toEqual([
      "4.7 Gbit/s",
      "2.2 Gbit/s",
      "941 Mbit/s",
      "1.41 Gbit/s",
      "94.4 Gbit/s",
      "1 Gbit/s",
      "1 Gbit/s",
      "512 kbit/s",
    ]);
  });

  it("says percents whole, with a decimal when small or just short of 100", () => {
    expect([71.4, 0.1, 99.5, 100, 23].map(formatPercentWord)).toEqual(["71%", "0.1%", "99.5%", "100%", "23%"]);
  });

  it("says sizes in KiB and MiB when they are whole", () => {
    expect([262144, 4194304, 1500].map(formatSize)).toEqual(["256 KiB", "4 MiB", "1500 bytes"]);
  });

  it("names list items with brackets", () => {
    expect(bracketIndexes("values.2")).toBe("values[2]");
    expect(bracketIndexes("options.parallel")).toBe("options.parallel");
  });
});
