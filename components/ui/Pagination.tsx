import Link from "next/link";
import type { MouseEvent } from "react";
import { buttonClass } from "./styles";

// No "use client": server pages render it with plain links; a client list adds `onNavigate`.

export const LIST_PAGE_SIZE = 50;

function pageCountOf(itemCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(itemCount / pageSize));
}

/** The 1-based page from `?page=`, kept within the pages there are. */
export function pageOf(
  text: string | string[] | undefined,
  itemCount: number,
  pageSize = LIST_PAGE_SIZE,
): { page: number; start: number } {
  const asked = typeof text === "string" && /^\d{1,6}$/.test(text) ? Number(text) : 1;
  const page = Math.min(Math.max(asked, 1), pageCountOf(itemCount, pageSize));
  return { page, start: (page - 1) * pageSize };
}

/** `basePath` for page 1 (one address per list), `basePath?page=N` for the others. */
export function listPageHref(basePath: string): (page: number) => string {
  return (page) => (page === 1 ? basePath : `${basePath}?page=${page}`);
}

// Where there is no page before or after: a link that is off, said so to a screen reader
// (role="link" with aria-disabled) and dimmed, as a disabled control may be (WCAG 1.4.3 exempts it).
const DISABLED_CLASS =
  "inline-flex items-center justify-center rounded-md border border-slate-200 px-3 py-2 " +
  "text-sm font-medium text-slate-400 dark:border-slate-800 dark:text-slate-600";

type PaginationProps = {
  page: number;
  pageSize: number;
  total: number;
  /** the address of a page, with the list's filters */
  hrefFor: (page: number) => string;
  /** turns the page in place; the links still work without JavaScript or with a modifier key */
  onNavigate?: (page: number) => void;
};

/** First / previous / next / last under a long list, with the range shown; nothing when it fits on one page. */
export function Pagination({ page, pageSize, total, hrefFor, onNavigate }: PaginationProps) {
  const pageCount = pageCountOf(total, pageSize);
  if (pageCount <= 1) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const link = (target: number, text: string, props: { rel?: string; "aria-label"?: string }) => (
    <Link
      href={hrefFor(target)}
      className={buttonClass("secondary")}
      // In place, the list has its rows already: nothing to fetch ahead.
      prefetch={onNavigate ? false : undefined}
      onClick={
        onNavigate
          ? (event: MouseEvent<HTMLAnchorElement>) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              onNavigate(target);
            }
          : undefined
      }
      {...props}
    >
      {text}
    </Link>
  );
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        {first}–{last} of {total} · page {page} of {pageCount}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          link(1, "«", { "aria-label": "First page" })
        ) : (
          <span className={DISABLED_CLASS} aria-hidden>
            «
          </span>
        )}
        {page > 1 ? (
          link(page - 1, "Previous", { rel: "prev" })
        ) : (
          <span role="link" aria-disabled="true" className={DISABLED_CLASS}>
            Previous
          </span>
        )}
        {page < pageCount ? (
          link(page + 1, "Next", { rel: "next" })
        ) : (
          <span role="link" aria-disabled="true" className={DISABLED_CLASS}>
            Next
          </span>
        )}
        {page < pageCount ? (
          link(pageCount, "»", { "aria-label": "Last page" })
        ) : (
          <span className={DISABLED_CLASS} aria-hidden>
            »
          </span>
        )}
      </div>
    </nav>
  );
}
