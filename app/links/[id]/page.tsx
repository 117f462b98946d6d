import Link from "next/link";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/EmptyState";
import { formatLinkSpeed } from "@/components/format";
import { LinkHistoryChart } from "@/components/charts/LinkHistoryChart";
import { CompareRuns } from "@/components/runs/CompareRuns";
import { isActiveStatus } from "@/components/runs/describe";
import { filterQuery, parseRunFilters, type SearchParams } from "@/components/runs/filters";
import { NewTestForm } from "@/components/runs/NewTestForm";
import { Pagination } from "@/components/runs/Pagination";
import { RefreshWhileActive } from "@/components/runs/RefreshWhileActive";
import { RunFilterForm } from "@/components/runs/RunFilterForm";
import { RunsTable } from "@/components/runs/RunsTable";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { getLinkEnds, getRunComparison, listLinkHistory, listLinkStreamCounts, listRunRows, RUN_PAGE_SIZE } from "@/lib/queries/runs";
import { lineRateThresholds } from "@/lib/queries/overview";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

function linkIdOf(raw: string): number | null {
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

/** `compare=3,7,9`: at most eight distinct run ids. */
function compareIdsOf(params: SearchParams): number[] {
  const raw = Array.isArray(params.compare) ? params.compare[0] : params.compare;
  const ids = (raw ?? "").split(",").map(Number).filter((id) => Number.isInteger(id) && id >= 1);
  return [...new Set(ids)].slice(0, 8);
}

export async function generateMetadata({ params }: Props) {
  const linkId = linkIdOf((await params).id);
  const ends = linkId === null ? null : await getLinkEnds(linkId);
  return { title: ends ? ends.name : "Link" };
}

export default async function LinkPage({ params, searchParams }: Props) {
  const linkId = linkIdOf((await params).id);
  if (linkId === null) notFound();
  const query = await searchParams;
  const filters = parseRunFilters(query);
  const compareIds = compareIdsOf(query);
  const [ends, history, table, streamCounts, comparison] = await Promise.all([
    getLinkEnds(linkId),
    listLinkHistory({ linkId }),
    listRunRows({ filters: { ...filters, linkId, status: undefined }, page: filters.page }),
    listLinkStreamCounts(linkId),
    compareIds.length >= 2 ? getRunComparison({ ids: compareIds, linkId }) : Promise.resolve([]),
  ]);
  if (!ends) notFound();
  const { a, b } = ends;
  const basePath = `/links/${linkId}`;
  const tableFilters = { protocol: filters.protocol, direction: filters.direction, parallel: filters.parallel };
  const hasActive = table.rows.some((row) => isActiveStatus(row.status));
  const isFiltered = Boolean(filters.protocol || filters.direction || filters.parallel);
  const mtuMismatch = a.mtu !== null && b.mtu !== null && a.mtu !== b.mtu;

  return (
    <>
      <RefreshWhileActive isActive={hasActive} />
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/links" className="hover:underline">Links</Link>
      </nav>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{ends.name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-300" data-testid="link-ends">
            {[a, b].map((end, index) => (
              <span key={end.hostId} className="inline-flex flex-wrap items-center gap-x-2">
                {index === 1 ? <span aria-label="to" className="text-slate-400">⇄</span> : null}
                <span>
                  <span className="font-medium">{end.hostName}</span> · <span className="font-mono text-xs">{end.nicName}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {end.address ? ` ${end.address}` : ""}
                    {end.mtu ? ` · MTU ${end.mtu}` : ""}
                  </span>
                </span>
              </span>
            ))}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Nominal speed <span className="font-semibold text-slate-900 dark:text-slate-100" data-testid="link-speed">{formatLinkSpeed(ends.speedMbps)}</span> ({ends.speedMbps.toLocaleString("en")} Mbit/s)
            {mtuMismatch ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">MTU mismatch</span> : null}
          </p>
        </div>
        <RateUnitSwitch />
      </div>

      <section aria-labelledby="new-test-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
        <h2 id="new-test-heading" className="mb-3 text-lg font-semibold">New test</h2>
        <NewTestForm linkId={linkId} speedMbps={ends.speedMbps} a={a} b={b} />
      </section>

      {comparison.length >= 2 ? <CompareRuns runs={comparison} lineRateBitsPerSecond={ends.speedMbps * 1e6} closeHref={`${basePath}${filterQuery({ ...tableFilters, page: filters.page })}`} /> : null}

      <section aria-labelledby="history-heading" className="mb-8">
        <h2 id="history-heading" className="mb-3 text-lg font-semibold">History</h2>
        {history.length > 0 ? (
          <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <LinkHistoryChart points={history} lineRateBitsPerSecond={ends.speedMbps * 1e6} aName={a.hostName} bName={b.hostName} />
          </div>
        ) : (
          <EmptyState title="No results yet">Start a test above: each finished run becomes a point here, so you can see whether a new card, jumbo frames or more streams helped.</EmptyState>
        )}
      </section>

      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading" className="mb-3 text-lg font-semibold">Runs</h2>
        {table.total > 0 || isFiltered ? (
          <>
            <RunFilterForm
              action={basePath}
              values={filters}
              directions={[
                { value: "a-to-b", label: `${a.hostName} → ${b.hostName}` },
                { value: "b-to-a", label: `${b.hostName} → ${a.hostName}` },
                { value: "bidir", label: "Both ways" },
              ]}
              streamChoices={streamCounts}
              hidden={compareIds.length ? { compare: compareIds.join(",") } : {}}
            />
            {table.rows.length > 0 ? (
              <RunsTable rows={table.rows} thresholds={lineRateThresholds()} compareBaseHref={`${basePath}${filterQuery({ ...tableFilters, page: filters.page })}`} />
            ) : (
              <EmptyState title="No runs match these filters">Clear the filters to see every run of this link.</EmptyState>
            )}
            <Pagination page={table.page} pageSize={RUN_PAGE_SIZE} total={table.total} hrefFor={(page) => `${basePath}${filterQuery({ ...tableFilters, page, compare: compareIds.join(",") })}`} />
          </>
        ) : (
          <EmptyState title="No runs yet">Pick a preset in the New test form and start it: the run opens with a live chart.</EmptyState>
        )}
      </section>
    </>
  );
}
