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

/** The table as CSV: a header row of column labels, then one line per row (the sum row last, as shown). */
export function resultTableCsv(table: ResultTable): string {
  const lines = [table.columns.map((column) => csvField(csvHeaderOf(column))).join(",")];
  for (const row of table.rows) {
    lines.push(table.columns.map((column) => csvField(csvValueOf(row.cells[column.key], column.format))).join(","));
  }
  return `${lines.join("\n")}\n`;
}
