import { LocalTime } from "@/components/units/LocalTime";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { AuditEventView } from "@/lib/auth/audit";

const COLUMNS = [{ header: "When" }, { header: "Who" }, { header: "What" }, { header: "Details" }];

/** `host.update #3`: the action and the id of what it changed. */
function whatOf(event: AuditEventView): string {
  return event.targetId !== null ? `${event.action} #${event.targetId}` : event.action;
}

/** One page of the audit log, newest first: when, who, what and the details. */
export function AuditList({ events }: { events: AuditEventView[] }) {
  return (
    <TableOrCards
      items={events}
      label="Audit events"
      columns={COLUMNS}
      keyOf={(event) => event.id}
      look="plain"
      testId="audit-table"
      card={(event) => (
        <>
          <p className="flex flex-wrap justify-between gap-x-3">
            <span className="font-mono text-xs">{whatOf(event)}</span>
            <span className="font-medium">{event.actorName}</span>
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <LocalTime iso={event.at} />
          </p>
          {event.detail ? <p className="mt-1 break-all">{event.detail}</p> : null}
        </>
      )}
      row={(event) => (
        <>
          <td className="py-2 pr-4 whitespace-nowrap">
            <LocalTime iso={event.at} />
          </td>
          <td className="py-2 pr-4">{event.actorName}</td>
          <td className="py-2 pr-4 font-mono text-xs whitespace-nowrap">{whatOf(event)}</td>
          <td className="py-2 break-all">{event.detail}</td>
        </>
      )}
    />
  );
}
