"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/EmptyState";
import { apiPaths, fetchApi, queryKeys, refetchEvery, type Overview } from "@/components/queries";
import { COMPARE_COLORS } from "@/components/charts/colors";
import { QueryError } from "@/components/runs/QueryError";
import { useUrlState } from "@/components/runs/useUrlState";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import {
  parseTimelineRange,
  parseTimelineZoom,
  TIMELINE_RANGES,
  withTimelineZoom,
  type TimelineRange,
  type TimelineZoom,
} from "@/lib/overview/contract";
import type { LineRateThresholds } from "@/lib/overview/reads";
import { LinkCard } from "./LinkCard";
import { RangeSwitch } from "./RangeSwitch";
import { Timeline } from "./Timeline";
import type { TimelineSeries } from "./TimelineChart";
import { PageSection } from "@/components/PageSection";
import { buttonClass } from "@/components/ui/styles";

/**
 * The overview's counts, timeline and link cards, kept current from `GET /api/overview`:
 * the server's render is the first data, then it asks again every few seconds while a link
 * has a run queued or running (so its card and the timeline follow it live), and rarely
 * otherwise. The timeline's range is in the URL (?range=) and switches without the server's page;
 * so is its zoom (?from=&to=: a drag across the chart, + and - on it, or the times typed in), which asks for the span's runs alone,
 * each drawn finer. Switching the range drops the zoom.
 */
export function OverviewBoard({ initial, thresholds }: { initial: Overview; thresholds: LineRateThresholds }) {
  const { params, set } = useUrlState();
  const urlRange = parseTimelineRange(params.get("range"));
  const urlZoom = parseTimelineZoom(params.get("from") ?? undefined, params.get("to") ?? undefined);
  const urlKey = `${urlRange} ${urlZoom?.from} ${urlZoom?.to}`;
  // The chosen range and zoom show at once, before the router has taken the new URL; a new URL (Back, Forward) wins.
  const [state, setState] = useState({ seenUrlKey: urlKey, range: urlRange, zoom: urlZoom });
  let { range, zoom } = state;
  if (state.seenUrlKey !== urlKey) {
    range = urlRange;
    zoom = urlZoom;
    setState({ seenUrlKey: urlKey, range, zoom });
  }
  const isInitial = range === initial.range && zoom?.from === initial.zoom?.from && zoom?.to === initial.zoom?.to;
  const [renderedAt] = useState(() => Date.now());
  const result = useQuery({
    queryKey: queryKeys.overviewOf(range, zoom),
    queryFn: ({ signal }) => fetchApi<Overview>(apiPaths.overview(range, zoom), { signal }),
    initialData: isInitial ? initial : undefined,
    // As old as the page: back on it after the cache let it go, it is asked for again at once.
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => refetchEvery(Boolean(query.state.data?.links.some((link) => link.active !== null))),
  });
  const { counts, links, timeline } = result.data ?? initial;
  const selectRange = (next: TimelineRange) => {
    setState((previous) => ({ ...previous, range: next, zoom: null }));
    set(new URLSearchParams({ range: next }));
  };
  const selectZoom = (next: TimelineZoom | null) => {
    setState((previous) => ({ ...previous, zoom: next }));
    set(withTimelineZoom(new URLSearchParams({ range }), next));
  };

  const deviceLinks = links.filter((link) => link.device !== null);
  const machineLinks = links.filter((link) => link.device === null);
  // One colour per link, stable across the cards and the timeline (by position in the list).
  const colorOf = new Map(links.map((link, index) => [link.id, COMPARE_COLORS[index % COMPARE_COLORS.length]!]));
  const series: TimelineSeries[] = links
    .map((link) => ({
      linkId: link.id,
      name: link.name,
      color: colorOf.get(link.id)!,
      points: timeline.runs.filter((run) => run.linkId === link.id).flatMap((run) => run.points),
    }))
    .filter((entry) => entry.points.length > 0);

  return (
    // data-updated-at is when this browser got the data: never the server's time, so React is told not to compare it.
    <div data-testid="overview-board" data-updated-at={result.dataUpdatedAt} suppressHydrationWarning>
      {result.isError ? (
        <QueryError what="the overview" error={result.error} onRetry={() => void result.refetch()} />
      ) : null}
      <dl className="mb-6 grid grid-cols-3 gap-3">
        {[
          { label: "Hosts", value: counts.hosts, href: "/hosts" },
          { label: "Links", value: counts.links, href: "/links" },
          { label: "Runs", value: counts.runs, href: "/runs" },
        ].map((item) => (
          // A card per count: dt and dd grouped in a div (all a <dl> may hold); the label is the link, stretched over the card.
          <div
            key={item.label}
            className={
              "relative rounded-lg border border-slate-200 bg-white p-3 hover:border-sky-400 " +
              "has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-sky-500 sm:p-4 " +
              "dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-600"
            }
          >
            <dt className="text-sm text-slate-600 dark:text-slate-400">
              <Link
                href={item.href}
                className="outline-none after:absolute after:inset-0 after:rounded-lg after:content-['']"
              >
                {item.label}
              </Link>
            </dt>
            <dd className="text-2xl font-semibold" data-testid={`count-${item.label.toLowerCase()}`}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
      {links.length > 0 ? (
        <section
          aria-labelledby="timeline-heading"
          className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="timeline-heading" className="text-lg font-semibold">
              Throughput over time
            </h2>
            <div className="flex flex-wrap items-center gap-3">
              {zoom ? (
                <button
                  type="button"
                  onClick={() => selectZoom(null)}
                  className={buttonClass("secondary")}
                  data-testid="timeline-reset-zoom"
                >
                  Reset zoom
                </button>
              ) : null}
              <RangeSwitch current={range} onSelect={selectRange} />
              <RateUnitSwitch />
            </div>
          </div>
          <div
            aria-busy={result.isPlaceholderData}
            className={result.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
          >
            {series.length > 0 || zoom ? (
              // Zoomed, the span shows at once over the data there is, and finer when the span's own read answers;
              // a span without tests keeps its chart, so that the keys on it (and the focus) stay to zoom out again.
              <Timeline
                series={series}
                from={zoom?.from ?? timeline.from}
                to={zoom?.to ?? timeline.to}
                zoomed={zoom !== null}
                rangeMs={TIMELINE_RANGES[range] * 3600 * 1000}
                onZoom={selectZoom}
              />
            ) : (
              <EmptyState title="No tests in this period">
                Open a link below and run a test, or choose a longer period: each test shows here as its throughput over
                time.
              </EmptyState>
            )}
          </div>
        </section>
      ) : null}
      {deviceLinks.length > 0 ? (
        // Phones, laptops and TVs measured by listening for them: apart from the links between machines.
        <PageSection name="devices" title="Devices" className="mb-8">
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {deviceLinks.map((link) => (
              <LinkCard key={link.id} link={link} color={colorOf.get(link.id)!} thresholds={thresholds} />
            ))}
          </div>
        </PageSection>
      ) : null}
      {machineLinks.length > 0 || links.length === 0 ? (
        <PageSection name="links" title="Links" className="mb-8">
          {links.length > 0 ? (
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {machineLinks.map((link) => (
                <LinkCard key={link.id} link={link} color={colorOf.get(link.id)!} thresholds={thresholds} />
              ))}
            </div>
          ) : (
            <EmptyState title="No links yet">
              A link joins a NIC on one host to a NIC on another.{" "}
              {counts.hosts < 2 ? (
                <>
                  <Link href="/hosts/new" className="font-medium text-sky-700 underline dark:text-sky-300">
                    Add a host
                  </Link>{" "}
                  (a second machine to test against), discover its NICs, then{" "}
                </>
              ) : null}
              <Link href="/links/new" className="font-medium text-sky-700 underline dark:text-sky-300">
                create a link
              </Link>{" "}
              between two NICs and run a test on it.
            </EmptyState>
          )}
        </PageSection>
      ) : null}
    </div>
  );
}
