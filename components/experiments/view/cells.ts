// How a result table's cells read on the page (and in the compare page): the column's format
// says whether a number is a rate, a percent, a count or milliseconds. Pure.
import type { TableCell, TableColumn } from "@/lib/experiments/contract";
import { formatCell } from "@/lib/experiments/cells";

export { formatCell };

/** A difference in %, signed: "+12.5 %", "−3.0 %", "0.0 %"; "–" without one. */
export function formatDifference(percent: number | null): string {
  if (percent === null || !Number.isFinite(percent)) return "–";
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return "0.0 %";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded).toFixed(1)} %`;
}

/** Whether a cell holds anything to show. */
export function hasValue(cell: TableCell | undefined): boolean {
  return cell !== null && cell !== undefined && cell !== "" && !(Array.isArray(cell) && cell.length === 0);
}

/** The columns some row has a value in, and always the first (it names the row): CPU that iperf3 did not report only takes room. */
export function columnsWithValues(
  columns: readonly TableColumn[],
  rows: readonly { cells: Record<string, TableCell> }[],
): TableColumn[] {
  return columns.filter((column, index) => index === 0 || rows.some((row) => hasValue(row.cells[column.key])));
}

/** The leading text columns, which name a row (a matrix cell is protocol, direction and client side), and the rest. */
export function splitNameColumns(columns: readonly TableColumn[]): {
  nameColumns: TableColumn[];
  valueColumns: TableColumn[];
} {
  const firstValue = columns.findIndex((column) => column.format !== "text");
  const end = firstValue === -1 ? columns.length : Math.max(1, firstValue);
  return { nameColumns: columns.slice(0, end), valueColumns: columns.slice(end) };
}

/** A row's name on a card: "Streams: 4", or "Protocol TCP · Direction a→b · Client on a" (empty ones left out). */
export function rowTitle(nameColumns: readonly TableColumn[], cells: Record<string, TableCell>): string {
  if (nameColumns.length === 1) return `${nameColumns[0]!.label}: ${formatCell(cells[nameColumns[0]!.key], "text")}`;
  return nameColumns
    .filter((column) => hasValue(cells[column.key]))
    .map((column) => `${column.label} ${formatCell(cells[column.key], "text")}`)
    .join(" · ");
}
