import { afterEach, describe, expect, it, vi } from "vitest";
import { pendingMigrations, type Migration } from "./migrate";

const migration = (name: string, checksum = `sum-${name}`): Migration => ({ name, sql: "SELECT 1;", checksum });
const hint = (name: string) => `resolve ${name}`;

describe("pendingMigrations (both databases' runners)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps, in order, the migrations the database has not applied", () => {
    const all = [migration("1_a"), migration("2_b"), migration("3_c")];
    const applied = new Map([["1_a", { checksum: "sum-1_a", finished: "2026-12-08T01:00:00.000+00:00" }]]);
    expect(pendingMigrations(all, applied, hint).map((m) => m.name)).toEqual(["2_b", "3_c"]);
  });

  it("warns about one changed after it was applied, and does not apply it again", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const applied = new Map([["1_a", { checksum: "another", finished: new Date() }]]);
    expect(pendingMigrations([migration("1_a")], applied, hint)).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("1_a was changed after it was applied"));
  });

  it("stops at one that failed before, saying how to mark it rolled back on this database", () => {
    const applied = new Map([["2_b", { checksum: "sum-2_b", finished: null }]]);
    expect(() => pendingMigrations([migration("1_a"), migration("2_b")], applied, hint)).toThrow(
      "the migration 2_b failed on this database before: fix what it reports, then mark it rolled back (resolve 2_b)",
    );
  });
});
