import { describe, expect, it } from "vitest";
import { bracketIndexes, formatSize, median, percentOf } from "./figures";

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

  it("says sizes in KiB and MiB when they are whole", () => {
    expect([262144, 4194304, 1500].map(formatSize)).toEqual(["256 KiB", "4 MiB", "1500 bytes"]);
  });

  it("names list items with brackets", () => {
    expect(bracketIndexes("values.2")).toBe("values[2]");
    expect(bracketIndexes("options.parallel")).toBe("options.parallel");
  });
});
