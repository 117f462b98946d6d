import { describe, expect, it } from "vitest";
import { readPageFilters, readRunListQuery, runFilterParamNames, runListSearch } from "./filters";

const parseRunFilters = readPageFilters;
const filterQuery = (query: Parameters<typeof runListSearch>[0]) => runListSearch(query, "page");

describe("readPageFilters (the dashboard's URLs)", () => {
  it("reads allowed values", () => {
    expect(
      parseRunFilters({ protocol: "udp", direction: "bidir", streams: "8", status: "failed", link: "12", page: "3" }),
    ).toEqual({
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
    const hostile = [
      "$(id)",
      "; touch /tmp/x",
      "'",
      '"',
      "a\nb",
      "\u0000",
      "x".repeat(100_000),
      "\u202E1",
      "🚀",
      "-1",
      "0",
      "1.5",
      "1e3",
      "0x10",
      " 5",
      "5 ",
      "+5",
      "NaN",
      "Infinity",
      "2147483648",
      "99999999999",
      "\uFF15",
      "",
    ];
    for (const value of hostile) {
      expect(
        parseRunFilters({ protocol: value, direction: value, streams: value, status: value, link: value, page: value }),
        JSON.stringify(value.slice(0, 20)),
      ).toEqual({
        protocol: undefined,
        direction: undefined,
        parallel: undefined,
        status: undefined,
        linkId: undefined,
        page: 1,
      });
    }
    expect(parseRunFilters({ streams: "129", page: "1000001" })).toEqual({ page: 1 });
    expect(parseRunFilters({ protocol: "TCP", status: "Running" })).toEqual({ page: 1 });
  });

  it("writes back only what it read", () => {
    expect(filterQuery(parseRunFilters({ protocol: "tcp", link: "$(id)", page: "2" }))).toBe("?protocol=tcp&page=2");
  });
});

describe("readRunListQuery (the REST API's parameters)", () => {
  it("reads the API's names, and the page's names are unknown there", () => {
    const params = new URLSearchParams(
      "linkId=3&status=running&protocol=tcp&direction=b-to-a&parallel=4&page=2&pageSize=10",
    );
    expect(readRunListQuery(params, "api")).toEqual({
      query: { linkId: 3, status: "running", protocol: "tcp", direction: "b-to-a", parallel: 4, page: 2, pageSize: 10 },
      errors: [],
    });
    // A label is read as labels are stored (lowercase); one that could never be stored is refused by name.
    expect(readRunListQuery(new URLSearchParams("label=DAC"), "api").query.label).toBe("dac");
    expect(readRunListQuery(new URLSearchParams("label=new%20dac"), "api").errors).toEqual([
      { field: "label", message: expect.stringMatching(/^must be /) },
    ]);
    expect(readRunListQuery(new URLSearchParams("streams=4"), "api").errors).toEqual([
      {
        field: "streams",
        message:
          "is not a known query parameter (allowed: linkId, status, protocol, direction, parallel, label, page, pageSize)",
      },
    ]);
  });

  it("names every bad value with what it allows, and leaves it out", () => {
    const { query, errors } = readRunListQuery(new URLSearchParams("status=done&linkId=0&parallel=1e3&page=0"), "api");
    expect(query).toEqual({ page: 1 });
    expect(errors).toEqual([
      { field: "linkId", message: "must be a whole number from 1 to 2147483647 (an id)" },
      {
        field: "status",
        message: "must be one of queued, preparing, listening, running, succeeded, failed, cancelled, interrupted",
      },
      { field: "parallel", message: "must be a whole number from 1 to 128" },
      { field: "page", message: "must be a whole number from 1 to 1000000" },
    ]);
  });

  it("writes what it reads, in either dialect, and an empty query as nothing", () => {
    const query = { linkId: 7, protocol: "udp" as const, parallel: 8, page: 3 };
    expect(runListSearch(query, "api")).toBe("?linkId=7&protocol=udp&parallel=8&page=3");
    expect(runListSearch(query, "page")).toBe("?link=7&protocol=udp&streams=8&page=3");
    for (const dialect of ["api", "page"] as const) {
      expect(readRunListQuery(new URLSearchParams(runListSearch(query, dialect)), dialect).query).toEqual(query);
    }
    expect(runListSearch({ page: 1 }, "api")).toBe("");
    expect(runFilterParamNames("page")).not.toContain("pageSize");
  });
});
