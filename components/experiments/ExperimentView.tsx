"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { FindingsSection } from "@/components/diagnosis/HintList";
import { Breadcrumb } from "@/components/PageHeader";
import { apiPaths, fetchApi, queryKeys } from "@/components/queries";
import { QueryError } from "@/components/runs/QueryError";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { LocalTime } from "@/components/units/LocalTime";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { formatDuration } from "@/lib/format";
import { isActiveExperimentStatus, type ExperimentJson, type ExperimentKind } from "@/lib/experiments/contract";
import type { Hint } from "@/lib/diagnosis/contract";
import { ExperimentActions } from "./view/ExperimentActions";
import { NoteEditor } from "@/components/notes/NoteEditor";
import { KindChart } from "./view/KindChart";
import { LivePanel } from "./view/LivePanel";
import { describeBaseOptions, describePlanSteps } from "./view/plan-words";
import { ResultTableView } from "./view/ResultTableView";
import { StepsList } from "./view/StepsList";
import { useExperimentLive } from "./view/useExperimentLive";
import { PageSection } from "@/components/PageSection";

// The events drive the page while it runs; this slow poll only covers a stream that broke.
const ACTIVE_SAFETY_REFETCH_MS = 5000;

const STATUS_WORDS: Record<string, string> = {
  failed: "The experiment failed",
  cancelled: "The experiment was cancelled",
  interrupted: "The experiment was interrupted",
};

// What the results wait for while none has come in: most kinds' first row is their first step's.
const FIRST_ROW = "The first row appears here when the first step ends.";
const PENDING_WORDS: Record<ExperimentKind, string> = {
  sweep: FIRST_ROW,
  matrix: FIRST_ROW,
  concurrent: FIRST_ROW,
  channels: FIRST_ROW,
  "udp-ceiling": FIRST_ROW,
  mesh: FIRST_ROW,
  interference: "The first pair appears here once each link has run alone and the first two have run together.",
  versus: FIRST_ROW,
};

/**
 * One experiment: the answer on top; while it runs, the current step live and the table filling
 * in row by row; once it has ended, the kind's chart, the table and the steps with their runs.
 * Its findings come with the page, which is read again when the experiment ends.
 */
export function ExperimentView({
  initial,
  kindTitle,
  hints = [],
}: {
  initial: ExperimentJson;
  kindTitle: string;
  hints?: Hint[];
}) {
  const query = useQuery({
    queryKey: queryKeys.experiment(initial.id),
    queryFn: ({ signal }) => fetchApi<ExperimentJson>(apiPaths.experiment(initial.id), { signal }),
    initialData: initial,
    refetchInterval: (current) =>
      isActiveExperimentStatus(current.state.data?.status ?? "") ? ACTIVE_SAFETY_REFETCH_MS : false,
  });
  const experiment = query.data;
  const isActive = isActiveExperimentStatus(experiment.status);
  const live = useExperimentLive(experiment.id, isActive, experiment.steps);
  const router = useRouter();
  const wasActive = useRef(isActive);
  useEffect(() => {
    // The findings are read from the finished runs and the result: the server has them now.
    if (wasActive.current && !isActive) router.refresh();
    wasActive.current = isActive;
  }, [isActive, router]);
  const took =
    experiment.startedAt && experiment.endedAt
      ? (Date.parse(experiment.endedAt) - Date.parse(experiment.startedAt)) / 1000
      : null;
  const hasRows = (experiment.table?.rows.length ?? 0) > 0;

  return (
    <div data-testid="experiment" data-status={experiment.status}>
      <Breadcrumb href="/experiments" label="Experiments">
        {" "}
        / #{experiment.id}
      </Breadcrumb>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            <span className="break-words">{experiment.name}</span>
            <span data-testid="experiment-status" data-status={experiment.status}>
              <StatusBadge status={experiment.status} />
            </span>
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium" data-testid="experiment-kind">
              {kindTitle}
            </span>
            <span aria-hidden>·</span>
            <span>
              {experiment.links.map((link, index) => (
                <span key={link.id}>
                  {index > 0 ? ", " : ""}
                  <Link href={`/links/${link.id}`} className="text-sky-700 hover:underline dark:text-sky-300">
                    {link.name}
                  </Link>
                </span>
              ))}
            </span>
            <span aria-hidden>·</span>
            <span className="font-mono text-xs">{describeBaseOptions(experiment.plan)}</span>
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{describePlanSteps(experiment.plan)}</p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            Created <LocalTime iso={experiment.createdAt} />
            {experiment.startedAt ? (
              <>
                {" "}
                · started <LocalTime iso={experiment.startedAt} isRelativeOnly />
              </>
            ) : null}
            {experiment.endedAt ? (
              <>
                {" "}
                · ended <LocalTime iso={experiment.endedAt} isRelativeOnly />
                {took !== null ? ` · took ${formatDuration(took)}` : ""}
              </>
            ) : null}
          </p>
          <div className="mt-2">
            <NoteEditor kind="experiment" id={experiment.id} note={experiment.note} labels={experiment.labels} />
          </div>
          <div className="mt-3">
            <ExperimentActions experimentId={experiment.id} isActive={isActive} />
          </div>
        </div>
        <RateUnitSwitch />
      </div>

      <section
        aria-label="Answer"
        className="mb-6 rounded-lg border-l-4 border-sky-600 bg-sky-50 px-4 py-3 dark:border-sky-400 dark:bg-sky-950/60"
      >
        {experiment.answer ? (
          <p className="text-lg font-medium text-slate-900 dark:text-slate-50" data-testid="experiment-answer">
            {experiment.answer}
          </p>
        ) : (
          <p className="text-slate-700 dark:text-slate-300" data-testid="experiment-answer-pending">
            {isActive
              ? "The answer appears as soon as the first steps have measured something."
              : "No answer: no step measured anything."}
          </p>
        )}
        {isActive && experiment.answer ? (
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            So far: the answer may change with the steps still to come.
          </p>
        ) : null}
      </section>

      {query.isError ? (
        <QueryError what="the experiment" error={query.error} onRetry={() => void query.refetch()} />
      ) : null}

      {experiment.error || STATUS_WORDS[experiment.status] ? (
        <section
          role={experiment.status === "failed" ? "alert" : "status"}
          className={
            "mb-6 rounded-lg border p-4 " +
            (experiment.status === "failed"
              ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
              : "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100")
          }
          data-testid="experiment-ended-early"
        >
          <h2 className="font-semibold">{STATUS_WORDS[experiment.status] ?? "Something went wrong"}</h2>
          {experiment.error ? (
            <p className="mt-1 whitespace-pre-wrap break-words text-sm">{experiment.error.message}</p>
          ) : null}
          <p className="mt-1 text-sm">The steps that ended are kept below.</p>
        </section>
      ) : null}

      {isActive ? <LivePanel experiment={experiment} live={live} readAtMs={query.dataUpdatedAt} /> : null}

      <FindingsSection
        hints={hints}
        emptyText={isActive ? null : "No findings: nothing in this experiment's runs or result points to a limit."}
        testId="experiment-findings"
      />

      <PageSection name="results" title="Results" className="mb-6">
        {hasRows && experiment.table ? (
          <div className="space-y-4">
            <KindChart experiment={experiment} />
            <ResultTableView
              table={experiment.table}
              label={`Results of experiment #${experiment.id}`}
              isFinal={!isActive}
            />
          </div>
        ) : (
          <p
            className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
            data-testid="results-pending"
          >
            {isActive ? PENDING_WORDS[experiment.kind] : "No step measured anything."}
          </p>
        )}
      </PageSection>

      <PageSection name="steps" title="Steps" className="mb-6">
        {experiment.steps.length > 0 ? (
          <StepsList steps={experiment.steps} plannedSteps={experiment.plannedSteps} isActive={isActive} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">No step has begun yet.</p>
        )}
      </PageSection>
    </div>
  );
}
