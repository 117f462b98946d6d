import { describe, expect, it } from "vitest";
import { gridColourByOf, gridSearch, readGridQuery } from "./schemas";

// The grid's query, as the page's URL and GET /api/grid write it.

describe("readGridQuery", () => {
  it("reads hostIds from a comma list or a repeated parameter, without duplicates, and defaults staleDays to 7", () => {
    expect(readGridQuery(new URLSearchParams("hostIds=3,1&hostIds=3"))).toEqual({
      query: { hostIds: [3, 1], staleDays: 7 },
      errors: [],
    });
    expect(readGridQuery({ tag: "rack1", staleDays: "30" })).toEqual({
      query: { tag: "rack1", staleDays: 30 },
      errors: [],
    });
  });

  it("takes empty values as no filter: what a form sends when nothing is chosen", () => {
    expect(readGridQuery({ hostIds: "", tag: "", staleDays: "" })).toEqual({ query: { staleDays: 7 }, errors: [] });
  });

  it("names each bad or unknown parameter, with what it allows, and leaves its value out", () => {
    const { query, errors } = readGridQuery(new URLSearchParams("hostIds=1,,2&tag=A B&staleDays=400&by=x"));
    expect(query).toEqual({ staleDays: 7 });
    expect(errors.map((error) => error.field)).toEqual(["by", "hostIds", "tag", "staleDays"]);
    expect(readGridQuery({ by: "baseline" }, ["by"]).errors).toEqual([]);
    expect(readGridQuery({ hostIds: "1", tag: "rack1" }).errors).toEqual([
      { field: "tag", message: "must be left out with hostIds: the grid's hosts are chosen one way" },
    ]);
    expect(readGridQuery({ hostIds: Array.from({ length: 501 }, (_, index) => String(index + 1)) }).errors).toEqual([
      { field: "hostIds", message: expect.stringContaining("1 to 500 of them") },
    ]);
  });
});

describe("gridSearch", () => {
  it("writes only what differs from the defaults, and reads back as it was", () => {
    expect(gridSearch({ staleDays: 7 })).toBe("");
    const search = gridSearch({ hostIds: [1, 2], staleDays: 14 }, "baseline");
    expect(search).toBe("hostIds=1%2C2&staleDays=14&by=baseline");
    expect(readGridQuery(new URLSearchParams(search), ["by"]).query).toEqual({ hostIds: [1, 2], staleDays: 14 });
    expect(gridColourByOf(new URLSearchParams(search).get("by") ?? undefined)).toBe("baseline");
    expect(gridColourByOf("other")).toBe("line-rate");
  });
});
