// The words and order of findings, without React: the run, link and experiment pages share them.
import type { Hint, HintSeverity } from "@/lib/diagnosis/contract";

/** The severity in words: the badge's colour is never the only sign. */
export const SEVERITY_LABELS: Record<HintSeverity, string> = { critical: "Critical", warning: "Warning", info: "Info" };

const SEVERITY_RANK: Record<HintSeverity, number> = { critical: 0, warning: 1, info: 2 };

/** The most severe first; findings of one severity keep the order the rules gave them. */
export function sortHints(hints: readonly Hint[]): Hint[] {
  return hints
    .map((hint, index) => ({ hint, index }))
    .sort(
      (left, right) =>
        SEVERITY_RANK[left.hint.severity] - SEVERITY_RANK[right.hint.severity] || left.index - right.index,
    )
    .map((entry) => entry.hint);
}

/** Where a finding of the link page was found, as a link: "run #12", "experiment #3". */
export function hintSourceOf(hint: Pick<Hint, "source">): { href: string; label: string } | null {
  if (!hint.source) return null;
  const { kind, id } = hint.source;
  return kind === "run"
    ? { href: `/runs/${id}`, label: `run #${id}` }
    : { href: `/experiments/${id}`, label: `experiment #${id}` };
}
