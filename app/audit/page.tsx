import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { AuditList } from "@/components/auth/AuditList";
import { listPageHref, Pagination, pageOf } from "@/components/ui/Pagination";
import { requirePage } from "@/lib/auth/guard";
import { listAuditEvents } from "@/lib/auth/audit";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit log" };

const PER_PAGE = 100;

export default async function AuditPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  await requirePage("users");
  const { total } = await listAuditEvents(1, 1);
  const { page } = pageOf((await searchParams).page, total, PER_PAGE);
  const { events } = await listAuditEvents(page, PER_PAGE);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed hosts, links and users, and who started and cancelled runs. Newest first."
      />
      {events.length === 0 ? (
        <EmptyState title="Nothing recorded yet">
          Changes to the inventory, users and runs appear here as they happen.
        </EmptyState>
      ) : (
        <AuditList events={events} />
      )}
      <Pagination page={page} pageSize={PER_PAGE} total={total} hrefFor={listPageHref("/audit")} />
    </>
  );
}
