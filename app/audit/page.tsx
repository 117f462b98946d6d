import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { Pagination } from "@/components/ui/Pagination";
import { LocalTime } from "@/components/units/LocalTime";
import { requirePage } from "@/lib/auth/guard";
import { listAuditEvents, type AuditEventView } from "@/lib/auth/audit";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit log" };

const PER_PAGE = 100;

/** `host.update #3`: the action and the id of what it changed. */
function whatOf(event: AuditEventView): string {
  return event.targetId !== null ? `${event.action} #${event.targetId}` : event.action;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  await requirePage("users");
  const raw = (await searchParams).page;
  const asked = typeof raw === "string" && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  const { total } = await listAuditEvents(1, 1);
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const page = Math.min(Math.max(1, asked), pageCount);
  const { events } = await listAuditEvents(page, PER_PAGE);
  return (
    <>
      <PageHeader title="Audit log" description="Who changed hosts, links and users, and who started and cancelled runs. Newest first." />
      {events.length === 0 ? (
        <EmptyState title="Nothing recorded yet">Changes to the inventory, users and runs appear here as they happen.</EmptyState>
      ) : (
        <>
        <ul className="divide-y divide-slate-200 text-sm sm:hidden dark:divide-slate-800" aria-label="Audit events">
          {events.map((event) => (
            <li key={event.id} className="py-2">
              <p className="flex flex-wrap justify-between gap-x-3">
                <span className="font-mono text-xs">{whatOf(event)}</span>
                <span className="font-medium">{event.actorName}</span>
              </p>
              <p className="text-xs text-slate-600 dark:text-slate-400"><LocalTime iso={event.at} /></p>
              {event.detail ? <p className="mt-1 break-all">{event.detail}</p> : null}
            </li>
          ))}
        </ul>
        <div className="hidden overflow-x-auto sm:block">
          <table className="w-full text-left text-sm" data-testid="audit-table">
            <thead className="text-xs text-slate-600 uppercase dark:text-slate-400">
              <tr>
                <th className="py-2 pr-4">When</th>
                <th className="py-2 pr-4">Who</th>
                <th className="py-2 pr-4">What</th>
                <th className="py-2">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {events.map((event) => (
                <tr key={event.id} className="align-top">
                  <td className="py-2 pr-4 whitespace-nowrap"><LocalTime iso={event.at} /></td>
                  <td className="py-2 pr-4">{event.actorName}</td>
                  <td className="py-2 pr-4 font-mono text-xs whitespace-nowrap">{whatOf(event)}</td>
                  <td className="py-2 break-all">{event.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        </>
      )}
      <Pagination page={page} pageCount={pageCount} itemCount={total} basePath="/audit" />
    </>
  );
}
