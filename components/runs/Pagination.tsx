import Link from "next/link";

/** Previous / next links for a server-paginated table; `hrefFor(page)` keeps the filters. */
export function Pagination({ page, pageSize, total, hrefFor }: { page: number; pageSize: number; total: number; hrefFor: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800";
  const disabledClass = "rounded-md border border-slate-200 px-3 py-1.5 text-slate-400 dark:border-slate-800 dark:text-slate-600";
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        {first}–{last} of {total} · page {page} of {pages}
      </p>
      <div className="flex gap-2">
        {page > 1 ? <Link className={linkClass} href={hrefFor(1)} aria-label="First page">«</Link> : <span className={disabledClass} aria-hidden>«</span>}
        {page > 1 ? <Link className={linkClass} href={hrefFor(page - 1)} rel="prev">Previous</Link> : <span className={disabledClass}>Previous</span>}
        {page < pages ? <Link className={linkClass} href={hrefFor(page + 1)} rel="next">Next</Link> : <span className={disabledClass}>Next</span>}
        {page < pages ? <Link className={linkClass} href={hrefFor(pages)} aria-label="Last page">»</Link> : <span className={disabledClass} aria-hidden>»</span>}
      </div>
    </nav>
  );
}
