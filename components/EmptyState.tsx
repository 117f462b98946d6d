import Link from "next/link";
import type { ReactNode } from "react";

/** A friendly block that says what is missing and what to do next. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center dark:border-slate-700">
      <p className="font-medium">{title}</p>
      <div className="mt-1 text-sm text-slate-600 dark:text-slate-400">{children}</div>
    </div>
  );
}

/** What a page that needs a link says before there is one: `lead` (what it does with links), then where to make one. */
export function NoLinksYet({ lead }: { lead: string }) {
  return (
    <EmptyState title="No links yet">
      {lead}{" "}
      <Link href="/links" className="font-medium text-sky-800 underline dark:text-sky-300">
        Create a link
      </Link>{" "}
      between the NICs of two hosts first.
    </EmptyState>
  );
}
