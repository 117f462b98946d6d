import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HostTable } from "@/components/HostTable";
import { PageHeader } from "@/components/PageHeader";
import { LinkCard } from "@/components/overview/LinkCard";
import { RangeSwitch } from "@/components/overview/RangeSwitch";
import { Timeline } from "@/components/overview/Timeline";
import type { TimelineSeries } from "@/components/overview/TimelineChart";
import { COMPARE_COLORS } from "@/components/runs/describe";
import { RefreshWhileActive } from "@/components/runs/RefreshWhileActive";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { listHosts } from "@/lib/queries/hosts";
import { getOverviewCounts, getTimeline, lineRateThresholds, listOverviewLinks, parseTimelineRange } from "@/lib/queries/overview";

// The inventory changes under the page (runs, new hosts): never serve a stale build-time copy.
export const dynamic = "force-dynamic";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const range = parseTimelineRange((await searchParams).range);
  const [counts, hosts, links, timeline] = await Promise.all([getOverviewCounts(), listHosts(), listOverviewLinks(), getTimeline(range)]);
  const thresholds = lineRateThresholds();
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
  const isActive = links.some((link) => link.active !== null);
  return (
    <>
      <RefreshWhileActive isActive={isActive} />
      <PageHeader title="Overview" description="What each link of your lab really delivers." />
      <dl className="mb-6 grid grid-cols-3 gap-3">
        {[
          { label: "Hosts", value: counts.hosts, href: "/hosts" },
          { label: "Links", value: counts.links, href: "/links" },
          { label: "Runs", value: counts.runs, href: "/runs" },
        ].map((item) => (
          <Link
            key={item.label}
            href={item.href}
            className="rounded-lg border border-slate-200 bg-white p-3 hover:border-sky-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 sm:p-4 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-600"
          >
            <dt className="text-sm text-slate-600 dark:text-slate-400">{item.label}</dt>
            <dd className="text-2xl font-semibold" data-testid={`count-${item.label.toLowerCase()}`}>{item.value}</dd>
          </Link>
        ))}
      </dl>
      {links.length > 0 ? (
        <section aria-labelledby="timeline-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="timeline-heading" className="text-lg font-semibold">Throughput over time</h2>
            <div className="flex flex-wrap items-center gap-3">
              <RangeSwitch current={range} />
              <RateUnitSwitch />
            </div>
          </div>
          {series.length > 0 ? (
            <Timeline series={series} from={timeline.from} to={timeline.to} />
          ) : (
            <EmptyState title="No tests in this period">
              Open a link below and run a test, or choose a longer period: each test shows here as its throughput over time.
            </EmptyState>
          )}
        </section>
      ) : null}
      <section aria-labelledby="links-heading" className="mb-8">
        <h2 id="links-heading" className="mb-3 text-lg font-semibold">Links</h2>
        {links.length > 0 ? (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {links.map((link) => (
              <LinkCard key={link.id} link={link} color={colorOf.get(link.id)!} thresholds={thresholds} />
            ))}
          </div>
        ) : (
          <EmptyState title="No links yet">
            A link joins a NIC on one host to a NIC on another.{" "}
            {counts.hosts < 2 ? (
              <>
                <Link href="/hosts/new" className="font-medium text-sky-700 underline dark:text-sky-300">Add a host</Link> (a second machine to test against), discover its NICs, then{" "}
              </>
            ) : null}
            <Link href="/links/new" className="font-medium text-sky-700 underline dark:text-sky-300">create a link</Link> between two NICs and run a test on it.
          </EmptyState>
        )}
      </section>
      <section aria-labelledby="hosts-heading">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id="hosts-heading" className="text-lg font-semibold">Hosts</h2>
          <Link href="/hosts/new" className="rounded text-sm font-medium text-sky-700 underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-sky-300">Add host</Link>
        </div>
        <HostTable hosts={hosts} />
      </section>
    </>
  );
}
