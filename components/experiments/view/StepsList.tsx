import Link from "next/link";
import { StatusBadge } from "@/components/runs/StatusBadge";
import type { ExperimentStepJson } from "@/lib/experiments/contract";

function PendingBadge() {
  return (
    <span
      data-testid="run-status"
      data-status="pending"
      className={
        "inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium " +
        "text-slate-600 ring-1 ring-inset ring-slate-300 dark:text-slate-400 dark:ring-slate-600"
      }
    >
      Pending
    </span>
  );
}

/** Every step of the plan: what it sets, how it went, and its runs; the pending ones greyed. */
export function StepsList({
  steps,
  plannedSteps,
  isActive,
}: {
  steps: ExperimentStepJson[];
  plannedSteps: number;
  isActive: boolean;
}) {
  // A search (the UDP ceiling) knows its next step only once the one before has ended.
  const unknown = isActive ? Math.max(0, plannedSteps - steps.length) : 0;
  return (
    <div>
      <ol
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        aria-label="Steps"
      >
        {steps.map((step, position) => (
          <li
            key={step.index}
            className={`flex gap-3 px-4 py-2 ${step.status === "pending" ? "text-slate-500 dark:text-slate-400" : ""}`}
            data-testid={`step-${position + 1}`}
            data-status={step.status}
          >
            <span className="w-6 shrink-0 pt-0.5 text-xs tabular-nums text-slate-500 dark:text-slate-400">
              {position + 1}.
            </span>
            <span className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1">
              <span className="min-w-0">{step.label}</span>
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                {step.runIds.map((runId) => (
                  <Link
                    key={runId}
                    href={`/runs/${runId}`}
                    className="text-xs text-sky-700 hover:underline dark:text-sky-300"
                  >
                    run #{runId}
                  </Link>
                ))}
                {step.status === "pending" ? <PendingBadge /> : <StatusBadge status={step.status} />}
              </span>
            </span>
          </li>
        ))}
      </ol>
      {unknown > 0 ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Up to {unknown} more step{unknown === 1 ? "" : "s"}: each one is chosen from the results before it.
        </p>
      ) : null}
    </div>
  );
}
