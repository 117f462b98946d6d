import Link from "next/link";
import type { ReactNode } from "react";

/** The way back above a page's title: the list it belongs to, then `children` (" / Compare", a further link). */
export function Breadcrumb({ href, label, children }: { href: string; label: string; children?: ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
      <Link href={href} className="hover:underline">
        {label}
      </Link>
      {children}
    </nav>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}
