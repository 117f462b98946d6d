"use client";

/**
 * Previous / next for a server-paginated table; `hrefFor(page)` keeps the filters. With
 * `onNavigate` a click turns the page in place (the links still work without JavaScript).
 */
export function Pagination({ page, pageSize, total, hrefFor, onNavigate }: { page: number; pageSize: number; total: number; hrefFor: (page: number) => string; onNavigate?: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800";
  const disabledClass = "rounded-md border border-slate-200 px-3 py-1.5 text-slate-400 dark:border-slate-800 dark:text-slate-600";
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const link = (target: number, children: string, props: { rel?: string; "aria-label"?: string }) => (
    <a
      className={linkClass}
      href={hrefFor(target)}
      onClick={(event) => {
        if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onNavigate(target);
      }}
      {...props}
    >
      {children}
    </a>
  );
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        {first}–{last} of {total} · page {page} of {pages}
      </p>
      <div className="flex gap-2">
        {page > 1 ? link(1, "«", { "aria-label": "First page" }) : <span className={disabledClass} aria-hidden>«</span>}
        {page > 1 ? link(page - 1, "Previous", { rel: "prev" }) : <span className={disabledClass}>Previous</span>}
        {page < pages ? link(page + 1, "Next", { rel: "next" }) : <span className={disabledClass}>Next</span>}
        {page < pages ? link(pages, "»", { "aria-label": "Last page" }) : <span className={disabledClass} aria-hidden>»</span>}
      </div>
    </nav>
  );
}
