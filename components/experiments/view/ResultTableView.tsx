"use client";

import Link from "next/link";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { useRateUnit } from "@/components/units/useRateUnit";
import { isNumericColumn } from "@/lib/experiments/compare";
import type { ResultTable, TableCell, TableColumn, TableRow } from "@/lib/experiments/contract";
import { columnsWithValues, formatCell, rowTitle, splitNameColumns } from "./cells";

/** A cell as the page shows it: run ids as links to their runs, the rest as text. */
export function CellValue({ column, cell }: { column: TableColumn; cell: TableCell | undefined }) {
  const [unit] = useRateUnit();
  if (column.format === "runs" && Array.isArray(cell) && cell.length > 0) {
    return (
      // Wide enough for a few ids a line: a pair's four runs would otherwise stand one above the other.
      <span className="inline-flex min-w-[7.5rem] flex-wrap gap-x-1.5">
        {cell.map((runId) => (
          <Link key={runId} href={`/runs/${runId}`} className="text-sky-700 hover:underline dark:text-sky-300">
            #{runId}
          </Link>
        ))}
      </span>
    );
  }
  return <>{formatCell(cell, column.format, unit)}</>;
}

const SUM_ROW = "font-semibold bg-slate-50 dark:bg-slate-800/60";

/**
 * The result as a table, the way the seeds lay theirs out: a row per value, cell, link or
 * channel, and the sum row last. Cards on phones, each row's figures under its name.
 */
export function ResultTableView({ table, label, isFinal }: { table: ResultTable; label: string; isFinal: boolean }) {
  // Once it has ended, a column no row has a value in (CPU, where iperf3 did not report it) only takes room; the exports keep it.
  const columns = isFinal ? columnsWithValues(table.columns, table.rows) : table.columns;
  const [first, ...rest] = columns;
  if (!first) return null;
  const { nameColumns, valueColumns } = splitNameColumns(columns);
  const alignOf = (column: TableColumn) => (isNumericColumn(column) ? "text-right tabular-nums" : "");
  return (
    <TableOrCards<TableRow>
      items={table.rows}
      label={label}
      testId="result-table"
      breakpoint="md"
      columns={columns.map((column) => ({ header: column.label, className: `${alignOf(column)} whitespace-nowrap` }))}
      keyOf={(row) => row.key}
      rowTestId={(row) => `result-row-${row.key}`}
      row={(row) => (
        <>
          <th scope="row" className={`px-3 py-2 text-left font-medium whitespace-nowrap ${row.isSum ? SUM_ROW : ""}`}>
            <CellValue column={first} cell={row.cells[first.key]} />
          </th>
          {rest.map((column) => (
            <td
              key={column.key}
              className={`px-3 py-2 ${alignOf(column)} ${column.format === "runs" ? "" : "whitespace-nowrap"} ${row.isSum ? SUM_ROW : ""}`}
              data-column={column.key}
            >
              <CellValue column={column} cell={row.cells[column.key]} />
            </td>
          ))}
        </>
      )}
      cardTestId={(row) => `result-card-${row.key}`}
      card={(row) => (
        <div className={row.isSum ? "font-semibold" : ""}>
          <p className="font-medium">{rowTitle(nameColumns, row.cells)}</p>
          <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs">
            {valueColumns.map((column) => (
              <div key={column.key} className="flex justify-between gap-2">
                <dt className="text-slate-600 dark:text-slate-400">{column.label}</dt>
                <dd className="text-right tabular-nums">
                  <CellValue column={column} cell={row.cells[column.key]} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    />
  );
}
