import Link from "next/link";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { TEXT_LINK } from "@/components/ui/styles";
import { Rate } from "@/components/units/Rate";
import { formatPercent } from "@/lib/format";
import { describeScheduleRun, type ScheduleRunJson } from "@/lib/schedules/contract";

// No "use client": the schedules' list and page, and a link page, render it on the server.

/** A start's result: the rate and share of line rate of its run, when it has one. */
function Result({ run }: { run: ScheduleRunJson }) {
  if (run.receivedBitsPerSecond === null) return null;
  return (
    <span className="tabular-nums">
      {" "}
      · <Rate bitsPerSecond={run.receivedBitsPerSecond} className="font-medium" />
      {run.lineRatePercent !== null ? (
        <span className="text-slate-600 dark:text-slate-400"> ({formatPercent(run.lineRatePercent)} of line rate)</span>
      ) : null}
    </span>
  );
}

/**
 * One start of a schedule in a line: the run or experiment it started (a link to it, its
 * status and result), or why it was skipped or could not start; a catch-up start says so.
 */
export function ScheduleOutcome({ run }: { run: ScheduleRunJson | null }) {
  if (!run) return <span className="text-slate-600 dark:text-slate-400">not started yet</span>;
  const catchUp = run.catchUp ? (
    <span
      className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
      title="The one start made after a restart for the starts missed while the app was down"
    >
      catch-up
    </span>
  ) : null;
  if (run.outcome !== "started") {
    return (
      <span
        data-testid="schedule-outcome"
        data-outcome={run.outcome}
        className={run.outcome === "failed" ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-300"}
      >
        {describeScheduleRun({ ...run, catchUp: false })}
        {catchUp}
      </span>
    );
  }
  return (
    <span
      data-testid="schedule-outcome"
      data-outcome="started"
      className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-1"
    >
      {run.runId !== null ? (
        <Link href={`/runs/${run.runId}`} className={`font-medium ${TEXT_LINK}`}>
          run #{run.runId}
        </Link>
      ) : run.experimentId !== null ? (
        <Link href={`/experiments/${run.experimentId}`} className={`font-medium ${TEXT_LINK}`}>
          experiment #{run.experimentId}
        </Link>
      ) : (
        <span>started (since deleted)</span>
      )}
      {run.status ? <StatusBadge status={run.status} /> : null}
      <Result run={run} />
      {catchUp}
    </span>
  );
}
