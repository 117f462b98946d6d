import type { ReactNode } from "react";

/**
 * A titled section of a page, named by its h2 (`<name>-heading`), with the number of its items
 * after the title (`count`) and `actions` (buttons, links) at its right when there are some.
 */
export function PageSection({
  name,
  title,
  count,
  actions,
  headingClassName = "mb-3",
  className,
  id,
  testId,
  children,
}: {
  /** what the heading's id starts with */
  name: string;
  title: ReactNode;
  count?: number;
  actions?: ReactNode;
  /** the heading's margin below it */
  headingClassName?: string;
  className?: string;
  id?: string;
  testId?: string;
  children: ReactNode;
}) {
  const headingId = `${name}-heading`;
  const heading =
    count === undefined ? (
      title
    ) : (
      <>
        {title} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">({count})</span>
      </>
    );
  return (
    <section id={id} aria-labelledby={headingId} className={className} data-testid={testId}>
      {actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-lg font-semibold">
            {heading}
          </h2>
          {actions}
        </div>
      ) : (
        <h2 id={headingId} className={`${headingClassName} text-lg font-semibold`}>
          {heading}
        </h2>
      )}
      {children}
    </section>
  );
}
