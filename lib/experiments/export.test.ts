import { describe, expect, it } from "vitest";
import type { ResultTable } from "./contract";
import { csvField, csvHeaderOf, csvValueOf, noteCsvCells, resultTableCsv } from "./export";

// A sweep table as the sweep kind lays it out (seeds/000: -P 1 … 5 on a 5G link), with a sum row
// to show that it is written like any other row.
const SWEEP_TABLE: ResultTable = {
  columns: [
    { key: "value", label: "Streams", format: "text" },
    { key: "received", label: "Received", format: "bitsPerSecond" },
    { key: "lineRate", label: "Line rate", format: "percent" },
    { key: "retransmits", label: "Retransmits", format: "count" },
    { key: "jitter", label: "Jitter", format: "ms" },
    { key: "runs", label: "Runs", format: "runs" },
  ],
  rows: [
    {
      key: "1",
      cells: { value: "1", received: 2_200_000_000.4, lineRate: 44, retransmits: 12, jitter: null, runs: [11] },
    },
    {
      key: "4",
      cells: { value: "4", received: 4_700_000_000, lineRate: 94.2, retransmits: 0, jitter: 0.031, runs: [14, 15, 16] },
    },
    {
      key: "sum",
      isSum: true,
      cells: { value: "Sum", received: 6_900_000_000, lineRate: null, retransmits: 12, jitter: null, runs: [] },
    },
  ],
};

describe("resultTableCsv", () => {
  it("writes a header of column labels with their units, then one line per row with rates as plain bits/s", () => {
    expect(resultTableCsv(SWEEP_TABLE)).toBe(
      [
        "Streams,Received (bit/s),Line rate (%),Retransmits,Jitter (ms),Runs",
        "1,2200000000,44,12,,11",
        "4,4700000000,94.2,0,0.031,14 15 16",
        "Sum,6900000000,,12,,",
        "",
      ].join("\n"),
    );
  });

  it("quotes labels and cells with commas, quotes or line breaks, and keeps every line's field count", () => {
    const table: ResultTable = {
      columns: [
        { key: "link", label: 'Link "name", a', format: "text" },
        { key: "received", label: "Received", format: "bitsPerSecond" },
      ],
      rows: [
        { key: "l1", cells: { link: "rack 1, port 2", received: 1e9 } },
        { key: "l2", cells: { link: 'the "fast" one\nsecond line', received: null } },
        { key: "l3", cells: { link: "plain", received: 5 } },
      ],
    };
    const csv = resultTableCsv(table);
    expect(csv).toBe(
      [
        '"Link ""name"", a",Received (bit/s)',
        '"rack 1, port 2",1000000000',
        '"the ""fast"" one\nsecond line",',
        "plain,5",
        "",
      ].join("\n"),
    );
  });

  it("writes a table without rows as its header alone", () => {
    expect(resultTableCsv({ columns: SWEEP_TABLE.columns.slice(0, 2), rows: [] })).toBe("Streams,Received (bit/s)\n");
  });

  it("leaves a cell empty when the row has no value for the column", () => {
    expect(
      resultTableCsv({ columns: SWEEP_TABLE.columns.slice(0, 2), rows: [{ key: "x", cells: { value: "x" } }] }),
    ).toBe("Streams,Received (bit/s)\nx,\n");
  });
});

describe("the note and labels in a CSV", () => {
  it("adds note and labels columns, filled on the first row only, quoted and kept as text", () => {
    const csv = resultTableCsv(
      { columns: SWEEP_TABLE.columns.slice(0, 2), rows: SWEEP_TABLE.rows },
      { note: '=after moving the card, "slot 2"', labels: ["dac", "slot-2"] },
    );
    expect(csv).toBe(
      [
        "Streams,Received (bit/s),note,labels",
        `1,2200000000,"'=after moving the card, ""slot 2""",dac slot-2`,
        "4,4700000000,,",
        "Sum,6900000000,,",
        "",
      ].join("\n"),
    );
  });

  it("keeps the columns when there is no note, and a table without rows its header alone", () => {
    expect(
      resultTableCsv(
        { columns: SWEEP_TABLE.columns.slice(0, 1), rows: SWEEP_TABLE.rows.slice(0, 1) },
        { note: "", labels: [] },
      ),
    ).toBe("Streams,note,labels\n1,,\n");
    expect(resultTableCsv({ columns: SWEEP_TABLE.columns.slice(0, 1), rows: [] }, { note: "x", labels: ["y"] })).toBe(
      "Streams,note,labels\n",
    );
  });

  it("writes a note over several lines in one quoted cell", () => {
    expect(noteCsvCells({ note: "new DAC\nslot 2", labels: ["dac"] }, true)).toEqual(['"new DAC\nslot 2"', "dac"]);
    expect(noteCsvCells({ note: "new DAC", labels: ["dac"] }, false)).toEqual(["", ""]);
  });
});

describe("csvValueOf", () => {
  it("writes numbers without exponents and rounds bits/s to whole bits", () => {
    expect(csvValueOf(123.6, "bitsPerSecond")).toBe("124");
    expect(csvValueOf(1e20, "bitsPerSecond")).toBe("100000000000000000000");
    expect(csvValueOf(1e-7, "percent")).toBe("0.0000001");
    expect(csvValueOf(0.1, "percent")).toBe("0.1");
    expect(csvValueOf(-3.5, "percent")).toBe("-3.5");
    expect(csvValueOf(Number.NaN, "ms")).toBe("");
  });

  it("writes booleans as true and false, run ids separated by spaces", () => {
    expect(csvValueOf(true, "text")).toBe("true");
    expect(csvValueOf(false, "text")).toBe("false");
    expect(csvValueOf([3, 4], "runs")).toBe("3 4");
    expect(csvValueOf([], "runs")).toBe("");
  });

  it("keeps text that starts like a spreadsheet formula as text", () => {
    expect(csvValueOf('=HYPERLINK("x")', "text")).toBe('\'=HYPERLINK("x")');
    expect(csvValueOf("+1", "text")).toBe("'+1");
    expect(csvValueOf("-1", "text")).toBe("'-1");
    expect(csvValueOf("@sum", "text")).toBe("'@sum");
    expect(csvValueOf("a-to-b", "text")).toBe("a-to-b");
    // Numbers are never touched: a negative number stays a number.
    expect(csvValueOf(-1, "count")).toBe("-1");
  });
});

describe("csvField and csvHeaderOf", () => {
  it("quotes only what needs it", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
  });

  it("names the unit of bits/s, percent and ms columns, and nothing else", () => {
    expect(csvHeaderOf({ key: "r", label: "Received", format: "bitsPerSecond" })).toBe("Received (bit/s)");
    expect(csvHeaderOf({ key: "l", label: "Loss", format: "percent" })).toBe("Loss (%)");
    expect(csvHeaderOf({ key: "j", label: "Jitter", format: "ms" })).toBe("Jitter (ms)");
    expect(csvHeaderOf({ key: "c", label: "Retransmits", format: "count" })).toBe("Retransmits");
    expect(csvHeaderOf({ key: "t", label: "Direction", format: "text" })).toBe("Direction");
  });
});
