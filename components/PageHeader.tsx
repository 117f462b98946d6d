import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/styles";

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

/** A page's main action beside its title (add a host, a new schedule): a link to its form, for viewers who may use it. */
export function HeaderLink({ href, isShown, children }: { href: string; isShown: boolean; children: ReactNode }) {
  return isShown ? (
    <Link href={href} className={buttonClass("primary")}>
      {children}
    </Link>
  ) : null;
}
