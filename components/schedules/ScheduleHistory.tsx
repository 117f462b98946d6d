import { LocalTime } from "@/components/units/LocalTime";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { ScheduleRunJson } from "@/lib/schedules/contract";
import { ScheduleOutcome } from "./ScheduleOutcome";

// No "use client": the schedule's page renders it on the server.

/** A schedule's starts, newest first: when each was due and what came of it (the run, or why it skipped). */
export function ScheduleHistory({ runs }: { runs: ScheduleRunJson[] }) {
  return (
    <TableOrCards
      items={runs}
      label="Starts"
      testId="schedule-history"
      columns={[{ header: "Due" }, { header: "Outcome" }]}
      keyOf={(run) => run.id}
      rowTestId={(run) => `schedule-start-${run.id}`}
      isStackedWhenNarrow
      row={(run) => (
        <>
          <td className="px-4 py-2 whitespace-nowrap sm:w-72">
            <LocalTime iso={run.dueAt} />
          </td>
          <td className="px-4 py-2">
            <ScheduleOutcome run={run} />
          </td>
        </>
      )}
    />
  );
}
