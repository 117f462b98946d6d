import Link from "next/link";
import { HintText } from "@/components/ui/ui";
import { TEXT_LINK } from "@/components/ui/styles";
import type { Hint, HintSeverity } from "@/lib/diagnosis/contract";
import { hintSourceOf, SEVERITY_LABELS, sortHints } from "./hints";

// No "use client": the run, link and experiment pages render findings on the server.

const BADGE_STYLES: Record<HintSeverity, string> = {
  critical: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
  warning: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
  info: "bg-sky-50 text-sky-800 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800",
};

const CARD_BORDERS: Record<HintSeverity, string> = {
  critical: "border-red-300 dark:border-red-800",
  warning: "border-amber-300 dark:border-amber-700",
  info: "border-slate-200 dark:border-slate-800",
};

/** Critical, Warning or Info, in words beside the colour. */
export function HintSeverityBadge({ severity }: { severity: HintSeverity }) {
  return (
    <span
      data-testid="hint-severity"
      data-severity={severity}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${BADGE_STYLES[severity]}`}
    >
      {SEVERITY_LABELS[severity]}
    </span>
  );
}

/** Findings, the most severe first: each its title, the evidence in figures and what to try; on the link page, where it was found. */
export function HintList({ hints, showSource = false }: { hints: readonly Hint[]; showSource?: boolean }) {
  return (
    <ul className="space-y-3" data-testid="hints">
      {sortHints(hints).map((hint, index) => {
        const source = showSource ? hintSourceOf(hint) : null;
        return (
          <li
            key={`${hint.id}:${hint.source?.kind ?? ""}:${hint.source?.id ?? ""}:${index}`}
            data-testid="hint"
            data-hint-id={hint.id}
            data-severity={hint.severity}
            className={`rounded-lg border bg-white p-4 text-sm dark:bg-slate-900 ${CARD_BORDERS[hint.severity]}`}
          >
            <h3 className="flex min-w-0 flex-wrap items-center gap-2 font-semibold break-words">
              <HintSeverityBadge severity={hint.severity} />
              <span data-testid="hint-title">{hint.title}</span>
            </h3>
            <p className="mt-1 break-words text-slate-700 dark:text-slate-300" data-testid="hint-evidence">
              {hint.evidence}
            </p>
            <p className="mt-1 break-words" data-testid="hint-suggestion">
              <span className="font-semibold">Try: </span>
              <HintText text={hint.suggestion} />
            </p>
            {source ? (
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="hint-source">
                Found in{" "}
                <Link href={source.href} className={`font-medium ${TEXT_LINK}`}>
                  {source.label}
                </Link>
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A page's findings under a heading. With none, `emptyText` in one line, or nothing at all when
 * there is no `emptyText` (a run still running has no findings yet, and says nothing).
 */
export function FindingsSection({
  hints,
  title = "Findings",
  description,
  emptyText = null,
  showSource = false,
  testId = "findings",
  className = "mb-6",
}: {
  hints: readonly Hint[];
  title?: string;
  description?: string;
  emptyText?: string | null;
  showSource?: boolean;
  testId?: string;
  className?: string;
}) {
  if (hints.length === 0 && emptyText === null) return null;
  const headingId = `${testId}-heading`;
  return (
    <section aria-labelledby={headingId} className={className} data-testid={testId} data-hint-count={hints.length}>
      <h2 id={headingId} className="mb-1 text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
      {hints.length > 0 ? (
        <div className={description ? "" : "mt-2"}>
          <HintList hints={hints} showSource={showSource} />
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid={`${testId}-none`}>
          {emptyText}
        </p>
      )}
    </section>
  );
}
