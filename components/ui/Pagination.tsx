import Link from "next/link";
import { buttonClass } from "./styles";

export const LIST_PAGE_SIZE = 50;

/** The 1-based page from `?page=`, kept within the pages there are. */
export function pageOf(text: string | string[] | undefined, itemCount: number, pageSize = LIST_PAGE_SIZE): { page: number; pageCount: number; start: number } {
  const pageCount = Math.max(1, Math.ceil(itemCount / pageSize));
  const asked = typeof text === "string" && /^\d{1,6}$/.test(text) ? Number(text) : 1;
  const page = Math.min(Math.max(asked, 1), pageCount);
  return { page, pageCount, start: (page - 1) * pageSize };
}

/** Previous / next links under a long list; nothing when it fits on one page. */
export function Pagination({ page, pageCount, itemCount, basePath }: { page: number; pageCount: number; itemCount: number; basePath: string }) {
  if (pageCount <= 1) return null;
  const href = (target: number) => (target === 1 ? basePath : `${basePath}?page=${target}`);
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <span className="text-slate-600 dark:text-slate-400">
        Page {page} of {pageCount} ({itemCount} in all)
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link href={href(page - 1)} className={buttonClass("secondary")} rel="prev">
            Previous
          </Link>
        ) : null}
        {page < pageCount ? (
          <Link href={href(page + 1)} className={buttonClass("secondary")} rel="next">
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
