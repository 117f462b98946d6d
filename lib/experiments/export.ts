// An experiment's result table as CSV: what `GET /experiments/:id/export?format=csv` sends.
// Pure: no I/O, so the page's numbers and the file's numbers come from the same table.
import type { ColumnFormat, ResultTable, TableCell, TableColumn } from "./contract";

/** The unit each numeric column's plain numbers are in, written into its header. */
const HEADER_UNITS: Partial<Record<ColumnFormat, string>> = { bitsPerSecond: "bit/s", percent: "%", ms: "ms" };

/** A column's header: its label, with the unit of the numbers under it. */
export function csvHeaderOf(column: TableColumn): string {
  const unit = HEADER_UNITS[column.format];
  return unit ? `${column.label} (${unit})` : column.label;
}

/** A number as a spreadsheet reads it: no exponent, no thousands separator; bits/s whole. */
function plainNumber(value: number, format: ColumnFormat): string {
  if (!Number.isFinite(value)) return "";
  // A rate to the bit is precise enough, and fractions of a bit/s only add noise.
  const rounded = format === "bitsPerSecond" || format === "runs" ? Math.round(value) : value;
  const text = String(rounded);
  return /e/i.test(text) ? rounded.toFixed(Math.abs(rounded) < 1 ? 12 : 0).replace(/\.?0+$/, "") : text;
}

/** A cell's text, before quoting. Run ids share one cell, separated by spaces. */
export function csvValueOf(cell: TableCell | undefined, format: ColumnFormat): string {
  if (cell === null || cell === undefined) return "";
  if (Array.isArray(cell)) return cell.map((id) => plainNumber(id, "runs")).join(" ");
  if (typeof cell === "number") return plainNumber(cell, format);
  if (typeof cell === "boolean") return cell ? "true" : "false";
  // Text a user typed (a link's name) that starts like a formula is read as text by spreadsheets.
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** What a user wrote down about what a file exports (a run, an experiment): its note and labels. */
export type ExportNote = { note: string; labels: string[] };

/** The header cells of the note's two columns, last in a run's or an experiment's CSV. */
export const NOTE_CSV_HEADERS = ["note", "labels"] as const;

/**
 * The note's two cells of a CSV line: the note and the labels (separated by spaces) on the first
 * line under the header, empty on the others, so that a long note is not repeated on every line.
 */
export function noteCsvCells(notes: ExportNote, isFirstLine: boolean): string[] {
  if (!isFirstLine) return ["", ""];
  return [csvField(csvValueOf(notes.note, "text")), csvField(csvValueOf(notes.labels.join(" "), "text"))];
}

/**
 * The table as CSV: a header row of column labels, then one line per row (the sum row last, as
 * shown); with `notes`, the experiment's note and labels in two more columns of the first row.
 */
export function resultTableCsv(table: ResultTable, notes?: ExportNote): string {
  const header = table.columns.map((column) => csvField(csvHeaderOf(column)));
  const lines = [(notes ? [...header, ...NOTE_CSV_HEADERS] : header).join(",")];
  table.rows.forEach((row, index) => {
    const cells = table.columns.map((column) => csvField(csvValueOf(row.cells[column.key], column.format)));
    lines.push((notes ? [...cells, ...noteCsvCells(notes, index === 0)] : cells).join(","));
  });
  return `${lines.join("\n")}\n`;
}
