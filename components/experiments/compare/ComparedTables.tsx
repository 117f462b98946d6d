"use client";

import { isLowerBetter, isNumericColumn, type ComparedRow, type TableComparison } from "@/lib/experiments/compare";
import type { TableColumn, TableRow } from "@/lib/experiments/contract";
import { columnsWithValues, formatDifference, rowTitle, splitNameColumns } from "@/components/experiments/view/cells";
import { CellValue } from "@/components/experiments/view/ResultTableView";

type Side = { id: number; label: "A" | "B" };

/** Green for a change for the better, red for the worse, grey below a tenth of a percent. */
function differenceClass(column: TableColumn, percent: number | null): string {
  if (percent === null || Math.abs(percent) < 0.05) return "text-slate-600 dark:text-slate-400";
  const isBetter = isLowerBetter(column) ? percent < 0 : percent > 0;
  return isBetter ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300";
}

function rowLabel(row: ComparedRow, first: TableColumn): TableRow["cells"][string] {
  return row.a?.cells[first.key] ?? row.b?.cells[first.key] ?? row.key;
}

/**
 * Two experiments' tables, row by row: for each row of either, A's cells, B's cells and, for
 * the numeric columns, B against A in %. Cards on phones, each row's figures as A → B.
 */
export function ComparedTables({ comparison, a, b }: { comparison: TableComparison; a: Side; b: Side }) {
  const [first, ...rest] = columnsWithValues(
    comparison.columns,
    comparison.rows.flatMap((row) => [row.a, row.b].filter((side): side is TableRow => side !== null)),
  );
  if (!first || comparison.rows.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
        Neither experiment has a result row yet.
      </p>
    );
  }
  const { nameColumns, valueColumns } = splitNameColumns([first, ...rest]);
  const alignOf = (column: TableColumn) => (isNumericColumn(column) ? "text-right tabular-nums" : "");
  return (
    <>
      <ul className="space-y-3 md:hidden" aria-label={`Rows of #${a.id} and #${b.id} compared`}>
        {comparison.rows.map((row) => (
          <li
            key={row.key}
            className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900"
            data-testid={`compare-card-${row.key}`}
          >
            <p className={`font-medium ${row.isSum ? "font-semibold" : ""}`}>
              {rowTitle(nameColumns, (row.a ?? row.b)?.cells ?? {})}
            </p>
            <dl className="mt-1 space-y-0.5 text-xs">
              {valueColumns.map((column) => (
                <div key={column.key} className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <dt className="text-slate-600 dark:text-slate-400">{column.label}</dt>
                  <dd className="text-right tabular-nums">
                    {row.a ? <CellValue column={column} cell={row.a.cells[column.key]} /> : "no row"} →{" "}
                    {row.b ? <CellValue column={column} cell={row.b.cells[column.key]} /> : "no row"}
                    {isNumericColumn(column) && row.differences[column.key] != null ? (
                      <span
                        className={`ml-1.5 font-medium ${differenceClass(column, row.differences[column.key] ?? null)}`}
                      >
                        ({formatDifference(row.differences[column.key] ?? null)})
                      </span>
                    ) : null}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm" data-testid="compare-table">
          <caption className="sr-only">
            Rows of experiment #{a.id} (A) and #{b.id} (B), with B against A in %
          </caption>
          <thead className="bg-slate-100 text-xs tracking-wide text-slate-700 uppercase dark:bg-slate-800 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                {first.label}
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                <span className="sr-only">Experiment</span>
              </th>
              {rest.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={`px-3 py-2 font-semibold whitespace-nowrap ${alignOf(column)}`}
                >
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          {comparison.rows.map((row) => (
            <tbody
              key={row.key}
              className={`border-t border-slate-200 dark:border-slate-800 ${row.isSum ? "bg-slate-50 font-semibold dark:bg-slate-800/60" : ""}`}
              data-testid={`compare-row-${row.key}`}
            >
              {(
                [
                  [a, row.a],
                  [b, row.b],
                ] as const
              ).map(([side, sideRow], index) => (
                <tr key={side.label}>
                  {index === 0 ? (
                    <th scope="rowgroup" rowSpan={3} className="px-3 py-1.5 align-top font-medium whitespace-nowrap">
                      <CellValue column={first} cell={rowLabel(row, first)} />
                    </th>
                  ) : null}
                  <td className="px-3 py-1 text-xs whitespace-nowrap text-slate-600 dark:text-slate-400">
                    {side.label} · #{side.id}
                  </td>
                  {rest.map((column) => (
                    <td
                      key={column.key}
                      className={`px-3 py-1 whitespace-nowrap ${alignOf(column)}`}
                      data-testid={`compare-${side.label.toLowerCase()}-${row.key}-${column.key}`}
                    >
                      {sideRow ? (
                        <CellValue column={column} cell={sideRow.cells[column.key]} />
                      ) : (
                        <span className="text-xs text-slate-500 dark:text-slate-400">no row</span>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
              <tr className="text-xs">
                <td className="px-3 pt-0.5 pb-2 whitespace-nowrap text-slate-600 dark:text-slate-400">B vs A</td>
                {rest.map((column) => (
                  <td
                    key={column.key}
                    className={
                      `px-3 pt-0.5 pb-2 font-medium whitespace-nowrap ${alignOf(column)} ` +
                      differenceClass(column, row.differences[column.key] ?? null)
                    }
                    data-testid={`compare-diff-${row.key}-${column.key}`}
                  >
                    {isNumericColumn(column) ? formatDifference(row.differences[column.key] ?? null) : ""}
                  </td>
                ))}
              </tr>
            </tbody>
          ))}
        </table>
      </div>
    </>
  );
}
