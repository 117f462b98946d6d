import { describe, expect, it } from "vitest";
import type { TableCell } from "@/lib/experiments/contract";
import { columnsWithValues, formatCell, formatDifference, rowTitle, splitNameColumns } from "./cells";

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

describe("columnsWithValues", () => {
  it("keeps the first column and those some row has a value in", () => {
    const columns = [
      { key: "value", label: "Streams", format: "text" as const },
      { key: "received", label: "Received", format: "bitsPerSecond" as const },
      { key: "cpu", label: "Client CPU", format: "percent" as const },
      { key: "runs", label: "Runs", format: "runs" as const },
      { key: "note", label: "Note", format: "text" as const },
    ];
    const rows: { cells: Record<string, TableCell> }[] = [
      { cells: { value: null, received: 1e9, cpu: null, runs: [], note: "" } },
      { cells: { value: "2", received: null, cpu: null, runs: [4] } },
    ];
    expect(columnsWithValues(columns, rows).map((column) => column.key)).toEqual(["value", "received", "runs"]);
    expect(columnsWithValues(columns, []).map((column) => column.key)).toEqual(["value"]);
  });
});

describe("splitNameColumns and rowTitle", () => {
  const matrix = [
    { key: "protocol", label: "Protocol", format: "text" as const },
    { key: "direction", label: "Direction", format: "text" as const },
    { key: "clientSide", label: "Client on", format: "text" as const },
    { key: "received", label: "Received", format: "bitsPerSecond" as const },
    { key: "note", label: "Note", format: "text" as const },
  ];

  it("takes the leading text columns as the row's name, and at least the first column", () => {
    const { nameColumns, valueColumns } = splitNameColumns(matrix);
    expect(nameColumns.map((column) => column.key)).toEqual(["protocol", "direction", "clientSide"]);
    expect(valueColumns.map((column) => column.key)).toEqual(["received", "note"]);
    expect(splitNameColumns(matrix.slice(3)).nameColumns.map((column) => column.key)).toEqual(["received"]);
    expect(splitNameColumns(matrix.slice(0, 2)).valueColumns).toEqual([]);
  });

  it("names a row by its one name column, or by each with its label", () => {
    expect(rowTitle(matrix.slice(0, 1), { protocol: "TCP" })).toBe("Protocol: TCP");
    expect(rowTitle(matrix.slice(0, 3), { protocol: "TCP", direction: "a→b", clientSide: "a" })).toBe(
      "Protocol TCP · Direction a→b · Client on a",
    );
    // The sum row of channels has no port.
    expect(rowTitle(matrix.slice(0, 2), { protocol: "Sum", direction: null })).toBe("Protocol Sum");
  });
});
