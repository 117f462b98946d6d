import { describe, expect, it } from "vitest";
import type { ResultTable, TableColumn } from "./contract";
import { compareExperiments, compareTables, isLowerBetter, isNumericColumn, percentDifference } from "./compare";

// Two channels tables, as seeds/004 compares a card before and after a move to another slot:
// channel 3 only ran in B, channel 2 only in A.
const COLUMNS: TableColumn[] = [
  { key: "channel", label: "Channel", format: "text" },
  { key: "received", label: "Received", format: "bitsPerSecond" },
  { key: "retransmits", label: "Retransmits", format: "count" },
  { key: "lostPercent", label: "Loss", format: "percent" },
  { key: "runs", label: "Runs", format: "runs" },
];

const BEFORE: ResultTable = {
  columns: COLUMNS,
  rows: [
    { key: "1", cells: { channel: "1", received: 4e9, retransmits: 10, lostPercent: 0, runs: [1] } },
    { key: "2", cells: { channel: "2", received: 2e9, retransmits: 0, lostPercent: 0.5, runs: [2] } },
    { key: "sum", isSum: true, cells: { channel: "Sum", received: 6e9, retransmits: 10, lostPercent: null, runs: [] } },
  ],
};

const AFTER: ResultTable = {
  columns: [...COLUMNS, { key: "jitter", label: "Jitter", format: "ms" }],
  rows: [
    { key: "sum", isSum: true, cells: { channel: "Sum", received: 9e9, retransmits: 15, lostPercent: null, runs: [] } },
    { key: "3", cells: { channel: "3", received: 4.5e9, retransmits: 5, lostPercent: 0, jitter: 0.2, runs: [9] } },
    { key: "1", cells: { channel: "1", received: 4.5e9, retransmits: 10, lostPercent: 0.25, jitter: 0.1, runs: [8] } },
  ],
};

describe("compareTables", () => {
  const { columns, rows } = compareTables(BEFORE, AFTER);

  it("pairs rows by key, A's first in A's order, then those only B has, the sum row last", () => {
    expect(rows.map((row) => [row.key, row.a?.cells.runs ?? null, row.b?.cells.runs ?? null])).toEqual([
      ["1", [1], [8]],
      ["2", [2], null],
      ["3", null, [9]],
      ["sum", [], []],
    ]);
    expect(rows.map((row) => row.isSum)).toEqual([false, false, false, true]);
  });

  it("takes A's columns, then those only B has", () => {
    expect(columns.map((column) => column.key)).toEqual([
      "channel",
      "received",
      "retransmits",
      "lostPercent",
      "runs",
      "jitter",
    ]);
  });

  it("gives B against A in % for the numeric columns of rows both have, and null where one is missing", () => {
    const [one, two, three, sum] = rows;
    expect(one!.differences).toEqual({ received: 12.5, retransmits: 0, lostPercent: null, jitter: null });
    expect(two!.differences).toEqual({ received: null, retransmits: null, lostPercent: null, jitter: null });
    expect(three!.differences.received).toBeNull();
    expect(sum!.differences.received).toBeCloseTo(50, 10);
    expect(sum!.differences.retransmits).toBeCloseTo(50, 10);
    // Text and run columns have no difference at all.
    expect(Object.keys(one!.differences)).not.toContain("channel");
    expect(Object.keys(one!.differences)).not.toContain("runs");
  });

  it("pairs an empty table with a full one as rows of B alone", () => {
    const result = compareTables({ columns: [], rows: [] }, BEFORE);
    expect(result.columns).toEqual(COLUMNS);
    expect(result.rows.map((row) => [row.key, row.a, row.b?.key])).toEqual([
      ["1", null, "1"],
      ["2", null, "2"],
      ["sum", null, "sum"],
    ]);
  });
});

describe("percentDifference", () => {
  it("is B against A, relative to A's size", () => {
    expect(percentDifference(2e9, 2.2e9)).toBeCloseTo(10, 10);
    expect(percentDifference(4e9, 3e9)).toBeCloseTo(-25, 10);
    expect(percentDifference(-2, -1)).toBeCloseTo(50, 10);
  });

  it("is 0 between two zeros, and null without a base or a number", () => {
    expect(percentDifference(0, 0)).toBe(0);
    expect(percentDifference(0, 5)).toBeNull();
    expect(percentDifference(null, 5)).toBeNull();
    expect(percentDifference(5, null)).toBeNull();
    expect(percentDifference("5", 5)).toBeNull();
    expect(percentDifference(5, Number.NaN)).toBeNull();
    expect(percentDifference([1], [2])).toBeNull();
  });
});

describe("compareExperiments", () => {
  it("compares two experiments of one kind", () => {
    const result = compareExperiments(
      { id: 12, kind: "channels", table: BEFORE },
      { id: 15, kind: "channels", table: AFTER },
    );
    expect(result.isComparable).toBe(true);
    if (result.isComparable) expect(result.comparison.rows).toHaveLength(4);
  });

  it("refuses two kinds, naming both experiments and their kinds", () => {
    const result = compareExperiments(
      { id: 12, kind: "sweep", table: BEFORE },
      { id: 15, kind: "matrix", table: AFTER },
    );
    expect(result).toEqual({
      isComparable: false,
      message: expect.stringMatching(/#12 \(sweep\) and #15 \(matrix\) are experiments of different kinds/),
    });
  });

  it("refuses an experiment compared with itself", () => {
    expect(
      compareExperiments({ id: 12, kind: "sweep", table: BEFORE }, { id: 12, kind: "sweep", table: BEFORE }),
    ).toEqual({ isComparable: false, message: expect.stringContaining("#12 twice") });
  });

  it("compares an experiment whose table is not there yet as one without rows", () => {
    const result = compareExperiments({ id: 1, kind: "sweep", table: null }, { id: 2, kind: "sweep", table: BEFORE });
    expect(result.isComparable && result.comparison.rows.every((row) => row.a === null)).toBe(true);
  });
});

describe("the columns", () => {
  it("are numeric for rates, percents, counts and ms only", () => {
    expect(COLUMNS.map(isNumericColumn)).toEqual([false, true, true, true, false]);
    expect(isNumericColumn({ format: "ms" })).toBe(true);
  });

  it("count loss, retransmits, jitter and CPU as lower-is-better", () => {
    expect(isLowerBetter({ key: "received", label: "Received" })).toBe(false);
    expect(isLowerBetter({ key: "lineRatePercent", label: "Line rate" })).toBe(false);
    expect(isLowerBetter({ key: "lostPercent", label: "Loss" })).toBe(true);
    expect(isLowerBetter({ key: "retransmits", label: "Retransmits" })).toBe(true);
    expect(isLowerBetter({ key: "jitterMs", label: "Jitter" })).toBe(true);
    expect(isLowerBetter({ key: "clientCpuPercent", label: "Client CPU" })).toBe(true);
  });
});
