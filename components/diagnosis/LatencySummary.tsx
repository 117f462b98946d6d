import type { BufferbloatGrade, LatencySummary } from "@/lib/diagnosis/contract";
import { formatMs, GRADE_MEANINGS, latencyIncreaseMs } from "./latency";

const GRADE_STYLES: Record<BufferbloatGrade, string> = {
  A: "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
  B: "bg-lime-50 text-lime-900 ring-lime-400 dark:bg-lime-950 dark:text-lime-200 dark:ring-lime-800",
  C: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
  D: "bg-orange-50 text-orange-900 ring-orange-300 dark:bg-orange-950 dark:text-orange-200 dark:ring-orange-800",
  F: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
};

/** "Bufferbloat grade B", the letter in words and colour, what it means on hover. */
export function BufferbloatGradeBadge({ grade }: { grade: BufferbloatGrade }) {
  return (
    <span
      data-testid="latency-grade"
      data-grade={grade}
      title={`${grade}: ${GRADE_MEANINGS[grade]}`}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${GRADE_STYLES[grade]}`}
    >
      Bufferbloat grade {grade}
    </span>
  );
}

function Figure({
  label,
  median,
  p95,
  testId,
}: {
  label: string;
  median: number | null;
  p95: number | null;
  testId: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid={`${testId}-median`}>
        {formatMs(median)} <span className="text-xs font-normal text-slate-600 dark:text-slate-400">median</span>
      </dd>
      <dd className="text-xs tabular-nums text-slate-600 dark:text-slate-400" data-testid={`${testId}-p95`}>
        p95 {formatMs(p95)}
      </dd>
    </div>
  );
}

/**
 * The figures of latency under load: idle and loaded median and 95th percentile, how much the
 * median rose, the pings lost, and the grade. While the run is live they are those of the
 * pings so far (`isSoFar`), and a line says so.
 */
export function LatencySummaryView({
  summary,
  isActive,
  isSoFar = false,
}: {
  summary: LatencySummary | null;
  isActive: boolean;
  isSoFar?: boolean;
}) {
  if (!summary) {
    return (
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-400" data-testid="latency-summary-pending">
        {isActive
          ? "The medians and the bufferbloat grade come with the first pings."
          : "No latency summary: no ping was recorded."}
      </p>
    );
  }
  const increase = latencyIncreaseMs(summary);
  return (
    <div className="mt-3" data-testid="latency-summary" data-so-far={isSoFar || undefined}>
      {isSoFar ? (
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          So far: the pings until now; the figures are final when the run ends.
        </p>
      ) : null}
      <div className="mb-2 flex flex-wrap items-center gap-3">
        {summary.grade ? (
          <BufferbloatGradeBadge grade={summary.grade} />
        ) : (
          <span className="text-sm text-slate-600 dark:text-slate-400">
            No grade: it needs answered pings both idle and under load.
          </span>
        )}
        {increase !== null ? (
          <span className="text-sm text-slate-700 dark:text-slate-300" data-testid="latency-increase">
            {increase >= 0 ? "+" : "−"}
            {formatMs(Math.abs(increase))} under load
            {summary.grade ? (
              <span className="text-slate-600 dark:text-slate-400">
                {" "}
                ({summary.grade}: {GRADE_MEANINGS[summary.grade]})
              </span>
            ) : null}
          </span>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Latency">
        <Figure label="Idle" median={summary.idleMedianMs} p95={summary.idleP95Ms} testId="latency-idle" />
        <Figure label="Under load" median={summary.loadedMedianMs} p95={summary.loadedP95Ms} testId="latency-loaded" />
        <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Lost pings</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid="latency-lost">
            {summary.lost}{" "}
            <span className="text-xs font-normal text-slate-600 dark:text-slate-400">of {summary.sent}</span>
          </dd>
        </div>
      </dl>
    </div>
  );
}
