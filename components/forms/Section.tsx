import type { ReactNode } from "react";

/** One titled part of a long form (the experiment and schedule forms), ruled off from the one before. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="space-y-3 border-t border-slate-200 pt-5 first:border-t-0 first:pt-0 dark:border-slate-800">
      <div>
        <h2 className="text-base font-semibold">{title}</h2>
        {description ? <p className="text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}
