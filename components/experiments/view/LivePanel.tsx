"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { invalidateRunViews, queryKeys } from "@/components/queries";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { Button } from "@/components/ui/ui";
import { formatDuration } from "@/lib/format";
import { cancelExperimentAction } from "@/lib/experiments/actions/cancel-experiment";
import type { ExperimentJson } from "@/lib/experiments/contract";
import { LiveStepChart } from "./LiveStepChart";
import type { LiveStep } from "./live-series";

/** Seconds left now: the server's estimate when it was read, counted down since (from the first tick, so the server's render matches). */
function useCountdown(secondsLeft: number | null, readAtMs: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (secondsLeft === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [secondsLeft]);
  if (secondsLeft === null) return null;
  return Math.max(0, secondsLeft - (now === null ? 0 : Math.max(0, now - readAtMs) / 1000));
}

type Props = { experiment: ExperimentJson; live: LiveStep | null; readAtMs: number };

/** While an experiment runs: which step, the time left, Cancel, and the current step's live chart. */
export function LivePanel({ experiment, live, readAtMs }: Props) {
  const queryClient = useQueryClient();
  const mayCancel = useCan("run");
  const cancel = useActionForm();
  const isCancelling = cancel.isPending;
  const cancelError = cancel.message;
  const secondsLeft = useCountdown(experiment.estimatedSecondsLeft, readAtMs);
  const stepsDone = experiment.steps.filter((step) => step.status !== "pending" && step.status !== "running").length;
  const current = experiment.steps.find((step) => step.status === "running") ?? null;
  const total = Math.max(experiment.plannedSteps, stepsDone);
  const stepNumber = Math.min(total, stepsDone + (current ? 1 : 0)) || 1;
  const percent = total > 0 ? (stepsDone / total) * 100 : 0;
  const options = experiment.plan.options as { duration?: unknown; omit?: unknown };
  const durationSeconds =
    typeof options.duration === "number"
      ? options.duration + (typeof options.omit === "number" ? options.omit : 0)
      : null;
  return (
    <section
      aria-labelledby="live-heading"
      className="mb-6 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid="experiment-live"
    >
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="live-heading" className="text-lg font-semibold">
            Live
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
            <StatusBadge status={experiment.status} />
            {experiment.status === "queued" ? (
              <span>Waiting for its links to be free</span>
            ) : (
              <>
                <span className="font-medium" data-testid="step-progress">
                  Step {stepNumber} of {total}
                </span>
                {current ? <span className="text-slate-600 dark:text-slate-400">· {current.label}</span> : null}
              </>
            )}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="time-left">
            {secondsLeft === null
              ? "Estimating the time left…"
              : secondsLeft < 1
                ? "Finishing…"
                : `About ${formatDuration(secondsLeft)} left`}
          </p>
        </div>
        {mayCancel ? (
          <Button
            type="button"
            variant="secondary"
            isPending={isCancelling}
            pendingLabel="Cancelling…"
            className="border-red-300 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
            onClick={() =>
              cancel.submit(() => cancelExperimentAction({ experimentId: experiment.id }), {
                onSuccess: () => {
                  void queryClient.invalidateQueries({ queryKey: queryKeys.experiments() });
                  void invalidateRunViews(queryClient);
                },
              })
            }
          >
            Cancel
          </Button>
        ) : null}
      </div>
      {cancelError ? (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
          {cancelError}
        </p>
      ) : null}
      <div
        role="progressbar"
        aria-label="Experiment progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={stepsDone}
        aria-valuetext={`${stepsDone} of ${total} steps done`}
        className="mb-4 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          className="h-full rounded-full bg-sky-600 transition-[width] duration-300 dark:bg-sky-400"
          style={{ width: `${percent}%` }}
        />
      </div>
      {live && live.sampleCount > 0 ? (
        <LiveStepChart live={live} links={experiment.links} durationSeconds={durationSeconds} />
      ) : (
        <p
          className={
            "flex h-40 items-center justify-center rounded-md border border-dashed border-slate-300 p-6 " +
            "text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
          }
        >
          {experiment.status === "queued" ? "The chart starts with the first step." : "Starting iperf3 on both ends…"}
        </p>
      )}
    </section>
  );
}
