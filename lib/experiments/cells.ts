// How a result table's cell reads as text: on the experiment and compare pages (in the viewer's
// rate unit) and in a post (in bits). Pure.
import type { ColumnFormat, TableCell } from "./contract";
import { formatNumber, formatPercent, formatRate, type RateUnit } from "@/lib/format";

/** A cell as text in the viewer's rate unit; "–" where there is no value. Run ids read "#12, #13". */
export function formatCell(cell: TableCell | undefined, format: ColumnFormat, unit: RateUnit = "bits"): string {
  if (cell === null || cell === undefined) return "–";
  if (Array.isArray(cell)) return cell.length ? cell.map((id) => `#${id}`).join(", ") : "–";
  if (typeof cell === "boolean") return cell ? "yes" : "no";
  if (typeof cell === "string") return cell;
  if (!Number.isFinite(cell)) return "–";
  switch (format) {
    case "bitsPerSecond":
      return formatRate(cell, unit);
    // Loss under 1 % matters to a hundredth (0.05 % against 0.1 % is the UDP ceiling's bar).
    case "percent":
      return formatPercent(cell, Math.abs(cell) < 1 && cell !== 0 ? 2 : 1);
    case "count":
      return Math.round(cell).toLocaleString("en");
    case "ms":
      return `${formatNumber(cell)} ms`;
    default:
      return String(cell);
  }
}
