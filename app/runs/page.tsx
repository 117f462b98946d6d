import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { isActiveStatus, STATUS_LABELS } from "@/components/runs/describe";
import { filterQuery, parseRunFilters, type SearchParams } from "@/components/runs/filters";
import { Pagination } from "@/components/runs/Pagination";
import { RefreshWhileActive } from "@/components/runs/RefreshWhileActive";
import { RunFilterForm } from "@/components/runs/RunFilterForm";
import { RunsTable } from "@/components/runs/RunsTable";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { listLinks } from "@/lib/queries/links";
import { listRunRows, RUN_PAGE_SIZE } from "@/lib/queries/runs";
import { RUN_STATUSES } from "@/lib/runs/serialize";
import { lineRateThresholds } from "@/lib/queries/overview";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const filters = parseRunFilters(await searchParams);
  const [table, links] = await Promise.all([
    listRunRows({ filters: { protocol: filters.protocol, status: filters.status, linkId: filters.linkId }, page: filters.page }),
    listLinks(),
  ]);
  const isFiltered = Boolean(filters.protocol || filters.status || filters.linkId);
  const base = { protocol: filters.protocol, status: filters.status, linkId: filters.linkId };
  return (
    <>
      <RefreshWhileActive isActive={table.rows.some((row) => isActiveStatus(row.status))} />
      <PageHeader title="Runs" description={`Every iperf3 test across all links, newest first (${table.total}${isFiltered ? " matching" : " in all"}).`} actions={<RateUnitSwitch />} />
      {table.total === 0 && !isFiltered ? (
        <EmptyState title="No runs yet">
          {links.length > 0 ? (
            <>
              Open a link, for example{" "}
              <Link href={`/links/${links[0]!.id}`} className="font-medium text-sky-700 underline dark:text-sky-300">
                {links[0]!.name}
              </Link>
              , and start a test from its New test form.
            </>
          ) : (
            <>
              Runs measure links. Add two hosts, then{" "}
              <Link href="/links" className="font-medium text-sky-700 underline dark:text-sky-300">
                create a link
              </Link>{" "}
              between their NICs and start a test on it.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <RunFilterForm
            action="/runs"
            values={filters}
            links={links.map((link) => ({ value: String(link.id), label: link.name }))}
            statuses={RUN_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] ?? status }))}
          />
          {table.rows.length > 0 ? <RunsTable rows={table.rows} thresholds={lineRateThresholds()} showLink /> : <EmptyState title="No runs match these filters">Clear the filters to see every run.</EmptyState>}
          <Pagination page={table.page} pageSize={RUN_PAGE_SIZE} total={table.total} hrefFor={(page) => `/runs${filterQuery({ ...base, page })}`} />
        </>
      )}
    </>
  );
}
