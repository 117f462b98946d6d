import { describe, expect, it } from "vitest";
import { formatBitsPerSecond, formatLinkSpeed, formatPlatform } from "./format";

describe("formatLinkSpeed", () => {
  it("names speeds the way lab owners do", () => {
    expect(formatLinkSpeed(1000)).toBe("1G");
    expect(formatLinkSpeed(2500)).toBe("2.5G");
    expect(formatLinkSpeed(100_000)).toBe("100G");
    expect(formatLinkSpeed(100)).toBe("100M");
    expect(formatLinkSpeed(null)).toBe("unknown");
  });
});

describe("formatBitsPerSecond", () => {
  it("scales to the largest unit above 1", () => {
    expect(formatBitsPerSecond(917e6)).toBe("917 Mbit/s");
    expect(formatBitsPerSecond(2.19e9)).toBe("2.19 Gbit/s");
    expect(formatBitsPerSecond(37.3e9)).toBe("37.3 Gbit/s");
    expect(formatBitsPerSecond(null)).toBe("–");
  });
});

describe("formatPlatform", () => {
  it("labels known platforms and passes unknown ones through", () => {
    expect(formatPlatform("esxi")).toBe("ESXi");
    expect(formatPlatform("plan9")).toBe("plan9");
  });
});
