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
