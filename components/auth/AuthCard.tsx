import type { ReactNode } from "react";

/** The narrow card of the sign-in and set-up pages. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto mt-8 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-1 mb-5 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      {children}
    </div>
  );
}
