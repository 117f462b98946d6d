"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { EmptyState } from "@/components/EmptyState";
import { DownloadChart } from "@/components/charts/DownloadChart";
import { LinkHistoryChart } from "@/components/charts/LinkHistoryChart";
import { apiPaths, fetchApi, queryKeys, refetchEvery, type LinkHistory, type RunRowsPage } from "@/components/queries";
import type { BaselineJson } from "@/lib/alerts/contract";
import type { LineRateThresholds } from "@/lib/overview/reads";
import { QueryError } from "./QueryError";
import { RunTablePanel } from "./RunTablePanel";
import { PageSection } from "@/components/PageSection";

/**
 * A link page's history chart and runs table, kept current from the REST API: while one of
 * the link's runs is queued or running both ask again every few seconds, so a run started
 * anywhere (this page, another browser, a script) shows up and lands on the chart when it ends.
 */
export function LinkActivity({
  linkId,
  initialHistory,
  initialRuns,
  lineRateBitsPerSecond,
  aName,
  bName,
  thresholds,
  streamChoices,
  baselines = [],
  historyPost,
}: {
  linkId: number;
  initialHistory: LinkHistory;
  initialRuns: RunRowsPage;
  lineRateBitsPerSecond: number;
  aName: string;
  bName: string;
  thresholds: LineRateThresholds;
  streamChoices: number[];
  /** The link's baselines per test, drawn as a band on the history chart. */
  baselines?: BaselineJson[];
  /** under the history chart: its "Copy as post" */
  historyPost?: ReactNode;
}) {
  const history = useQuery({
    queryKey: queryKeys.linkHistory(linkId),
    queryFn: ({ signal }) => fetchApi<LinkHistory>(apiPaths.linkHistory(linkId), { signal }),
    initialData: initialHistory,
    refetchInterval: (query) => refetchEvery((query.state.data?.activeRunCount ?? 0) > 0),
  });
  const { points, activeRunCount } = history.data;
  return (
    <>
      <PageSection name="history" title="History" className="mb-8">
        {history.isError ? (
          <QueryError what="the history" error={history.error} onRetry={() => void history.refetch()} />
        ) : null}
        {points.length > 0 ? (
          <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <DownloadChart
              fileName={`wirespeed-link-history-${linkId}.png`}
              title={`Wirespeed link history: ${points.length === 1 ? "1 result" : `${points.length} results`}, each as a share of the line rate`}
            >
              <LinkHistoryChart
                points={points}
                lineRateBitsPerSecond={lineRateBitsPerSecond}
                aName={aName}
                bName={bName}
                baselines={baselines}
              />
            </DownloadChart>
            {historyPost}
          </div>
        ) : (
          <EmptyState title="No results yet">
            Start a test above: each finished run becomes a point here, so you can see whether a new card, jumbo frames
            or more streams helped.
          </EmptyState>
        )}
      </PageSection>

      <PageSection name="runs" title="Runs">
        <RunTablePanel
          initial={initialRuns}
          linkId={linkId}
          thresholds={thresholds}
          isLinkActive={activeRunCount > 0}
          directions={[
            { value: "a-to-b", label: `${aName} → ${bName}` },
            { value: "b-to-a", label: `${bName} → ${aName}` },
            { value: "bidir", label: "Both ways" },
          ]}
          streamChoices={streamChoices}
          emptyState={
            <EmptyState title="No runs yet">
              Pick a preset in the New test form and start it: the run opens with a live chart.
            </EmptyState>
          }
          noMatch="Clear the filters to see every run of this link."
        />
      </PageSection>
    </>
  );
}
