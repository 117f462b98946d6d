import type { Key, ReactNode } from "react";

// No "use client": server pages pass it render functions; a client list (users) uses it as well.

export type TableColumn = {
  header: ReactNode;
  /** added to the header cell: alignment, or `hidden sm:table-cell` (the row's cell says the same) */
  className?: string;
};

/** "boxed": a bordered panel with a shaded header (inventory lists); "plain": rows on the page (account lists). */
export type TableLook = "boxed" | "plain";

type TableOrCardsProps<Item> = {
  items: readonly Item[];
  /** the table's caption and the card list's name, for screen readers */
  label: string;
  columns: readonly TableColumn[];
  keyOf: (item: Item) => Key;
  /** an item's cells: a `<th scope="row">` or `<td>`s, one per column */
  row: (item: Item) => ReactNode;
  rowTestId?: (item: Item) => string;
  /**
   * An item as a card on narrow screens, in place of the table. Without it the table stays:
   * it scrolls sideways, or with `isStackedWhenNarrow` each row's cells stack under each other.
   */
  card?: (item: Item) => ReactNode;
  cardTestId?: (item: Item) => string;
  isStackedWhenNarrow?: boolean;
  /** the width from which the table replaces the cards (or the rows stop stacking) */
  breakpoint?: "sm" | "md";
  look?: TableLook;
  testId?: string;
};

// Whole class names, one per breakpoint: Tailwind finds only what is written out.
const WIDE = {
  sm: {
    cards: "sm:hidden",
    table: "sm:block",
    stackedHead: "hidden sm:table-header-group",
    stackedRow: "block py-2 sm:table-row sm:py-0",
  },
  md: {
    cards: "md:hidden",
    table: "md:block",
    stackedHead: "hidden md:table-header-group",
    stackedRow: "block py-2 md:table-row md:py-0",
  },
} as const;

const LOOKS = {
  boxed: {
    cards:
      "divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900",
    card: "px-4 py-3 text-sm",
    frame: "overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900",
    head: "bg-slate-100 text-xs uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-300",
    header: "px-4 py-2 font-semibold",
    body: "",
    row: "border-t border-slate-200 align-top dark:border-slate-800",
  },
  plain: {
    cards: "divide-y divide-slate-200 text-sm dark:divide-slate-800",
    card: "py-2",
    frame: "overflow-x-auto",
    head: "text-xs text-slate-600 uppercase dark:text-slate-400",
    header: "py-2 pr-4 last:pr-0",
    body: "divide-y divide-slate-200 dark:divide-slate-800",
    row: "align-top",
  },
} as const;

function classes(...names: Array<string | false | undefined>): string | undefined {
  return names.filter(Boolean).join(" ") || undefined;
}

/**
 * The one list of the app: a table on wide screens and, on phones, cards or stacked rows,
 * so that no column is scrolled out of view. Used by hosts, links, NICs, users and the audit log.
 */
export function TableOrCards<Item>({
  items,
  label,
  columns,
  keyOf,
  row,
  rowTestId,
  card,
  cardTestId,
  isStackedWhenNarrow = false,
  breakpoint = "sm",
  look = "boxed",
  testId,
}: TableOrCardsProps<Item>) {
  const wide = WIDE[breakpoint];
  const style = LOOKS[look];
  const isStacked = !card && isStackedWhenNarrow;
  return (
    <>
      {card ? (
        <ul className={classes(style.cards, wide.cards)} aria-label={label}>
          {items.map((item) => (
            <li key={keyOf(item)} className={style.card} data-testid={cardTestId?.(item)}>
              {card(item)}
            </li>
          ))}
        </ul>
      ) : null}
      <div className={classes(card && "hidden", card && wide.table, style.frame)}>
        <table className="w-full text-left text-sm" data-testid={testId}>
          <caption className="sr-only">{label}</caption>
          <thead className={classes(isStacked && wide.stackedHead, style.head)}>
            <tr>
              {columns.map((column, index) => (
                <th key={index} scope="col" className={classes(style.header, column.className)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={classes(style.body)}>
            {items.map((item) => (
              <tr
                key={keyOf(item)}
                data-testid={rowTestId?.(item)}
                className={classes(isStacked && wide.stackedRow, style.row)}
              >
                {row(item)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
