import type { ReactNode } from "react";

/** The head of the run tables (a page of runs, a run's streams): shaded, small capitals. */
export const RUN_TABLE_HEAD =
  "bg-slate-100 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300";

/** A column's header cell in a run table; a column of figures is aligned right. */
export function ColumnHeader({ isNumeric = false, children }: { isNumeric?: boolean; children: ReactNode }) {
  return (
    <th scope="col" className={isNumeric ? "px-3 py-2 text-right" : "px-3 py-2"}>
      {children}
    </th>
  );
}
