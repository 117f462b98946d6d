"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { EmptyState } from "@/components/EmptyState";
import { Pagination } from "@/components/ui/Pagination";
import { apiPaths, fetchApi, queryKeys, refetchEvery, type RunRowsPage } from "@/components/queries";
import type { LineRateThresholds } from "@/lib/overview/reads";
import { isActiveStatus } from "@/lib/runs/contract";
import { readPageFilters, runListSearch, runTableQuery, type RunListQuery } from "@/lib/runs/filters";
import { QueryError } from "./QueryError";
import { RunFilterForm } from "./RunFilterForm";
import { RunsTable } from "./RunsTable";
import { useUrlState } from "./useUrlState";

type Option = { value: string; label: string };

/**
 * A run table that stays current: filters and page live in the URL, the rows come from
 * `GET /api/runs` (the server's first page as `initialData`), the previous page stays in view
 * while the next one loads, and the table asks again every few seconds while a run in it
 * (or `isLinkActive`: another run of the link) is queued, preparing or running.
 * `linkId`: a link page's table, which offers direction and streams filters and can compare.
 */
export function RunTablePanel({
  initial,
  linkId,
  thresholds,
  directions,
  streamChoices,
  statuses,
  links,
  isLinkActive = false,
  emptyState,
  noMatch,
}: {
  initial: RunRowsPage;
  linkId?: number;
  thresholds: LineRateThresholds;
  directions?: Option[];
  streamChoices?: number[];
  statuses?: Option[];
  links?: Option[];
  isLinkActive?: boolean;
  /** Shown while there are no runs at all. */
  emptyState: ReactNode;
  /** Shown when the filters match no run. */
  noMatch: string;
}) {
  const { params, set } = useUrlState();
  const urlKey = params.toString();
  // Filters as state too, so that a select shows its new value before the router has taken the
  // new URL; when the URL changes (that one, or Back and Forward), it is the truth again.
  const [state, setState] = useState(() => ({ seenUrlKey: urlKey, filters: readPageFilters(params) }));
  let filters = state.filters;
  if (state.seenUrlKey !== urlKey) {
    filters = readPageFilters(params);
    setState({ seenUrlKey: urlKey, filters });
  }
  const query = runTableQuery(filters, linkId);
  // The server rendered the table for the URL the page opened with: that page only is initialData.
  const [initialKey] = useState(() => queryKeys.runList(query)[2]);
  const [renderedAt] = useState(() => Date.now());
  const queryKey = queryKeys.runList(query);
  const result = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchApi<RunRowsPage>(apiPaths.runList(query), { signal }),
    initialData: queryKey[2] === initialKey ? initial : undefined,
    // As old as the page: back on it after the cache let it go, it is asked for again at once.
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: (current) =>
      refetchEvery(isLinkActive || Boolean(current.state.data?.runs.some((row) => isActiveStatus(row.status)))),
  });
  const table = result.data ?? initial;

  const basePath = linkId === undefined ? "/runs" : `/links/${linkId}`;
  const compare = params.get("compare") ?? "";
  const tableFilters =
    linkId === undefined
      ? { protocol: query.protocol, status: query.status, linkId: query.linkId }
      : { protocol: query.protocol, direction: query.direction, parallel: query.parallel };
  const hrefFor = (page: number, withCompare = true) =>
    `${basePath}${runListSearch({ ...tableFilters, page }, "page", { compare: withCompare ? compare : undefined })}`;
  const apply = (next: RunListQuery) => {
    // A link page's link is its path, not a parameter.
    const nextQuery = { ...runTableQuery(next, linkId), linkId: linkId === undefined ? next.linkId : undefined };
    setState((previous) => ({ ...previous, filters: nextQuery }));
    set(new URLSearchParams(runListSearch(nextQuery, "page", { compare })));
  };
  const isFiltered = Boolean(
    query.protocol || query.direction || query.parallel || query.status || (linkId === undefined && query.linkId),
  );

  if (table.total === 0 && !isFiltered) return <>{emptyState}</>;
  return (
    <>
      <RunFilterForm
        action={basePath}
        values={{ ...tableFilters, page: query.page }}
        onChange={apply}
        directions={directions}
        streamChoices={streamChoices}
        statuses={statuses}
        links={links}
        hidden={compare ? { compare } : {}}
      />
      {result.isError ? (
        <QueryError what="the runs" error={result.error} onRetry={() => void result.refetch()} />
      ) : null}
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="runs-total" aria-live="polite">
        {table.total} {table.total === 1 ? "run" : "runs"}
        {isFiltered ? (table.total === 1 ? " matches" : " match") : " in all"}
      </p>
      <div
        aria-busy={result.isPlaceholderData}
        className={result.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
        data-testid="runs-panel"
        data-updated-at={result.dataUpdatedAt}
        suppressHydrationWarning
      >
        {table.runs.length > 0 ? (
          <RunsTable
            rows={table.runs}
            thresholds={thresholds}
            showLink={linkId === undefined}
            compareBaseHref={linkId === undefined ? undefined : hrefFor(query.page, false)}
          />
        ) : (
          <EmptyState title="No runs match these filters">{noMatch}</EmptyState>
        )}
        <Pagination
          page={table.page}
          pageSize={table.pageSize}
          total={table.total}
          hrefFor={hrefFor}
          onNavigate={(page) => apply({ ...filters, page })}
        />
      </div>
    </>
  );
}
