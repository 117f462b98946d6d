import Link from "next/link";

/** A label as a small tag that opens the runs that have it. */
export function LabelTag({
  label,
  href = `/runs?label=${encodeURIComponent(label)}`,
}: {
  label: string;
  href?: string | null;
}) {
  const className =
    "inline-block rounded bg-violet-100 px-1.5 py-0.5 font-sans text-xs font-medium text-violet-900 " +
    "dark:bg-violet-900/60 dark:text-violet-100";
  return href ? (
    <Link href={href} className={`${className} hover:underline`} aria-label={`label ${label}: runs with it`}>
      {label}
    </Link>
  ) : (
    <span className={className}>{label}</span>
  );
}

/**
 * A run's, an experiment's or a link's labels and note, on one line under what it describes (a
 * table row, a compare column). The note is cut to one line; its whole text is its title. Nothing
 * when there is neither.
 */
export function NoteLine({
  note,
  labels,
  linkLabels = true,
  className = "",
}: {
  note?: string;
  labels?: string[];
  linkLabels?: boolean;
  className?: string;
}) {
  if (!note && !labels?.length) return null;
  return (
    <span className={`mt-0.5 flex max-w-xs flex-wrap items-center gap-1 whitespace-normal ${className}`}>
      {labels?.map((label) => (
        <LabelTag key={label} label={label} href={linkLabels ? undefined : null} />
      ))}
      {note ? (
        <span
          className="truncate font-sans text-xs italic text-slate-700 dark:text-slate-300"
          title={note}
          data-testid="note-text"
        >
          {note}
        </span>
      ) : null}
    </span>
  );
}
