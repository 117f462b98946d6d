// Two experiments of one kind side by side: their result tables paired row by row (by the
// row's key), with the difference of B against A in % for each numeric column. Pure: the
// compare page draws what this returns.
import type { ColumnFormat, ExperimentKind, ResultTable, TableCell, TableColumn, TableRow } from "./contract";

/** The formats whose cells are numbers that a difference in % means something for. */
export const NUMERIC_FORMATS: readonly ColumnFormat[] = ["bitsPerSecond", "percent", "count", "ms"];

export function isNumericColumn(column: Pick<TableColumn, "format">): boolean {
  return NUMERIC_FORMATS.includes(column.format);
}

/** Columns where less is better: loss, retransmits, jitter and CPU. A drop there is an improvement. */
export function isLowerBetter(column: Pick<TableColumn, "key" | "label">): boolean {
  return /lost|loss|retrans|jitter|cpu/i.test(`${column.key} ${column.label}`);
}

/** B against A in %: null when either is missing or A is 0 and B is not (no base to compare to). */
export function percentDifference(a: TableCell | undefined, b: TableCell | undefined): number | null {
  if (typeof a !== "number" || typeof b !== "number" || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (a === 0) return b === 0 ? 0 : null;
  return ((b - a) / Math.abs(a)) * 100;
}

export type ComparedRow = {
  key: string;
  isSum: boolean;
  /** the row of each experiment; null where that experiment has no such row */
  a: TableRow | null;
  b: TableRow | null;
  /** per numeric column key: B against A in %, or null */
  differences: Record<string, number | null>;
};

export type TableComparison = { columns: TableColumn[]; rows: ComparedRow[] };

export type ExperimentComparison =
  { isComparable: true; kind: ExperimentKind; comparison: TableComparison } | { isComparable: false; message: string };

/**
 * Pairs the rows of A and B by key: A's rows in A's order, then those only B has, in B's
 * order; sum rows last. The columns are A's, then any only B has.
 */
export function compareTables(a: ResultTable, b: ResultTable): TableComparison {
  const columns = [...a.columns, ...b.columns.filter((column) => !a.columns.some((known) => known.key === column.key))];
  const bByKey = new Map(b.rows.map((row) => [row.key, row]));
  const aKeys = new Set(a.rows.map((row) => row.key));
  const paired: ComparedRow[] = [
    ...a.rows.map((row) => pairOf(columns, row.key, row, bByKey.get(row.key) ?? null)),
    ...b.rows.filter((row) => !aKeys.has(row.key)).map((row) => pairOf(columns, row.key, null, row)),
  ];
  // A stable sort: the rows keep their order, the sum rows move below them.
  const rows = [...paired.filter((row) => !row.isSum), ...paired.filter((row) => row.isSum)];
  return { columns, rows };
}

function pairOf(columns: TableColumn[], key: string, a: TableRow | null, b: TableRow | null): ComparedRow {
  const differences: Record<string, number | null> = {};
  for (const column of columns) {
    if (isNumericColumn(column))
      differences[column.key] = a && b ? percentDifference(a.cells[column.key], b.cells[column.key]) : null;
  }
  return { key, isSum: Boolean(a?.isSum || b?.isSum), a, b, differences };
}

type Comparable = { id: number; kind: ExperimentKind; table: ResultTable | null };

/** The comparison of two experiments, or why there is none: different kinds, or a table not there yet. */
export function compareExperiments(a: Comparable, b: Comparable): ExperimentComparison {
  if (a.kind !== b.kind) {
    return {
      isComparable: false,
      message:
        `#${a.id} (${a.kind}) and #${b.id} (${b.kind}) are experiments of different kinds: ` +
        `only the rows of one kind pair up. Pick another ${a.kind} experiment.`,
    };
  }
  if (a.id === b.id)
    return {
      isComparable: false,
      message: `That is experiment #${a.id} twice: pick another ${a.kind} experiment to compare it with.`,
    };
  const empty: ResultTable = { columns: [], rows: [] };
  return { isComparable: true, kind: a.kind, comparison: compareTables(a.table ?? empty, b.table ?? empty) };
}
