import Link from "next/link";
import { AlertList } from "@/components/alerts/AlertItem";
import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { PageSection } from "@/components/PageSection";
import { Pagination } from "@/components/ui/Pagination";
import { buttonClass } from "@/components/ui/styles";
import { listAlerts } from "@/lib/alerts/alerts";
import { requirePage } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";
export const metadata = { title: "Alerts" };

/** Open alerts are few (one per rule and link at most): all of them; past ones a page at a time. */
const OPEN_ALERTS_MAX = 500;
const PAST_PAGE_SIZE = 20;

function pageNumberOf(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  return text && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : 1;
}

export default async function AlertsPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  const { role } = await requirePage("read");
  const page = pageNumberOf((await searchParams).page);
  const [open, past] = await Promise.all([
    listAlerts({ status: "firing", pageSize: OPEN_ALERTS_MAX, role }),
    listAlerts({ status: "resolved", page, pageSize: PAST_PAGE_SIZE, role }),
  ]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description="One alert per episode: it fires when a rule's m of n runs breach, and ends when n runs in a row do not."
        actions={
          <div className="flex flex-wrap gap-2">
            <Link href="/alerts/rules" className={buttonClass("secondary")}>
              Rules
            </Link>
            <Link href="/alerts/channels" className={buttonClass("secondary")}>
              Channels
            </Link>
          </div>
        }
      />
      <PageSection name="open-alerts" title="Open" count={open.total} className="mb-8">
        {open.alerts.length > 0 ? (
          <AlertList alerts={open.alerts} testId="open-alerts" />
        ) : (
          <EmptyState title="No open alerts">
            Every link&apos;s recent runs are within its{" "}
            <Link href="/alerts/rules" className="font-medium text-sky-800 underline dark:text-sky-300">
              rules
            </Link>
            .
          </EmptyState>
        )}
      </PageSection>
      <PageSection name="past-alerts" title="Past" count={past.total}>
        {past.alerts.length > 0 ? (
          <AlertList alerts={past.alerts} testId="past-alerts" />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {past.total > 0 ? "No past alerts on this page." : "No alert has ended yet."}
          </p>
        )}
        <Pagination
          page={past.page}
          pageSize={past.pageSize}
          total={past.total}
          hrefFor={(number) => (number > 1 ? `/alerts?page=${number}` : "/alerts")}
        />
      </PageSection>
    </>
  );
}
