import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { describeTiming, type ScheduleJson } from "@/lib/schedules/contract";
import { describeTarget } from "./format";
import { ScheduleOutcome } from "./ScheduleOutcome";

// No "use client": the schedules page and a link page render it on the server.

/** Enabled or paused (a rule: disabled), in words beside the colour. */
export function ScheduleState({ enabled, offLabel = "Paused" }: { enabled: boolean; offLabel?: string }) {
  return (
    <span
      data-testid="schedule-state"
      data-enabled={enabled}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
        enabled
          ? "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800"
          : "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600"
      }`}
    >
      {enabled ? "Enabled" : offLabel}
    </span>
  );
}

function NextStart({ schedule }: { schedule: ScheduleJson }) {
  if (!schedule.enabled || !schedule.nextRunAt) return <span className="text-slate-600 dark:text-slate-400">–</span>;
  return <RelativeTime date={schedule.nextRunAt} />;
}

function TargetText({ schedule }: { schedule: ScheduleJson }) {
  if (schedule.kind === "test" && schedule.link) {
    return (
      <>
        Test on{" "}
        <Link href={`/links/${schedule.link.id}`} className={TEXT_LINK}>
          {schedule.link.name}
        </Link>
      </>
    );
  }
  return <>{describeTarget(schedule)}</>;
}

/**
 * Schedules: name (opens it), what it repeats, its timing, its next start, its last outcome
 * (the run with its result and share of line rate, or why it skipped) and whether it is on.
 */
export function ScheduleList({ schedules, showTarget = true }: { schedules: ScheduleJson[]; showTarget?: boolean }) {
  const columns = [
    { header: "Name" },
    ...(showTarget ? [{ header: "Target" }] : []),
    { header: "Timing" },
    { header: "Next start" },
    { header: "Last outcome" },
    { header: "State" },
  ];
  return (
    <TableOrCards
      items={schedules}
      label="Schedules"
      columns={columns}
      keyOf={(schedule) => schedule.id}
      rowTestId={(schedule) => `schedule-row-${schedule.id}`}
      cardTestId={(schedule) => `schedule-card-${schedule.id}`}
      breakpoint="md"
      row={(schedule) => (
        <>
          <th scope="row" className="px-4 py-2 font-medium">
            <Link href={`/schedules/${schedule.id}`} className={TEXT_LINK}>
              {schedule.name}
            </Link>
          </th>
          {showTarget ? (
            <td className="px-4 py-2">
              <TargetText schedule={schedule} />
            </td>
          ) : null}
          <td className="px-4 py-2">{describeTiming(schedule)}</td>
          <td className="px-4 py-2 whitespace-nowrap">
            <NextStart schedule={schedule} />
          </td>
          <td className="min-w-48 px-4 py-2">
            <ScheduleOutcome run={schedule.lastRun} />
            {schedule.lastRun ? (
              <span className="block text-xs text-slate-600 dark:text-slate-400">
                <RelativeTime date={schedule.lastRun.at} />
              </span>
            ) : null}
          </td>
          <td className="px-4 py-2">
            <ScheduleState enabled={schedule.enabled} />
          </td>
        </>
      )}
      card={(schedule) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <Link href={`/schedules/${schedule.id}`} className={`min-w-0 font-medium break-words ${TEXT_LINK}`}>
              {schedule.name}
            </Link>
            <ScheduleState enabled={schedule.enabled} />
          </div>
          {showTarget ? (
            <p className="mt-0.5 text-slate-700 dark:text-slate-300">
              <TargetText schedule={schedule} />
            </p>
          ) : null}
          <p className="mt-0.5 text-slate-700 dark:text-slate-300">
            {describeTiming(schedule)}
            {schedule.enabled && schedule.nextRunAt ? (
              <>
                {" · next "}
                <NextStart schedule={schedule} />
              </>
            ) : null}
          </p>
          <p className="mt-1">
            <ScheduleOutcome run={schedule.lastRun} />
          </p>
        </>
      )}
    />
  );
}
