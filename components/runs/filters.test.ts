import { describe, expect, it } from "vitest";
import { filterQuery, parseRunFilters } from "./filters";

describe("parseRunFilters", () => {
  it("reads allowed values", () => {
    expect(parseRunFilters({ protocol: "udp", direction: "bidir", streams: "8", status: "failed", link: "12", page: "3" })).toEqual({
      protocol: "udp",
      direction: "bidir",
      parallel: 8,
      status: "failed",
      linkId: 12,
      page: 3,
    });
    expect(parseRunFilters({ link: ["4", "5"] }).linkId).toBe(4);
    expect(parseRunFilters({ link: "2147483647" }).linkId).toBe(2_147_483_647);
  });

  it("ignores hostile and out-of-range values instead of passing them to a query", () => {
    const hostile = ["$(id)", "; touch /tmp/x", "'", '"', "a\nb", "\u0000", "x".repeat(100_000), "\u202E1", "🚀", "-1", "0", "1.5", "1e3", "0x10", " 5", "5 ", "+5", "NaN", "Infinity", "2147483648", "99999999999", "\uFF15", ""];
    for (const value of hostile) {
      expect(parseRunFilters({ protocol: value, direction: value, streams: value, status: value, link: value, page: value }), JSON.stringify(value.slice(0, 20))).toEqual({
        protocol: undefined,
        direction: undefined,
        parallel: undefined,
        status: undefined,
        linkId: undefined,
        page: 1,
      });
    }
    expect(parseRunFilters({ streams: "129", page: "1000001" })).toMatchObject({ parallel: undefined, page: 1 });
    expect(parseRunFilters({ protocol: "TCP", status: "Running" })).toMatchObject({ protocol: undefined, status: undefined });
  });

  it("writes back only what it read", () => {
    expect(filterQuery(parseRunFilters({ protocol: "tcp", link: "$(id)", page: "2" }))).toBe("?protocol=tcp&page=2");
  });
});
