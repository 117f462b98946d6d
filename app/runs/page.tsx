import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { STATUS_LABELS } from "@/lib/runs/describe";
import { readPageFilters, runTableQuery, type QueryInput } from "@/lib/runs/filters";
import { RunTablePanel } from "@/components/runs/RunTablePanel";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { requirePage } from "@/lib/auth/guard";
import { listLinkNames } from "@/lib/runs/link-reads";
import { listRunRows } from "@/lib/runs/lists";
import { RUN_STATUSES } from "@/lib/runs/contract";
import { lineRateThresholds } from "@/lib/overview/reads";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs" };

export default async function RunsPage({
  searchParams,
}: {
  searchParams: Promise<Exclude<QueryInput, URLSearchParams>>;
}) {
  await requirePage("read");
  // The first page is rendered here, then kept current in the browser (RunTablePanel).
  const query = runTableQuery(readPageFilters(await searchParams));
  const [table, links] = await Promise.all([listRunRows({ filters: query, page: query.page }), listLinkNames()]);
  return (
    <>
      <PageHeader
        title="Runs"
        description="Every iperf3 test across all links, newest first."
        actions={<RateUnitSwitch />}
      />
      <RunTablePanel
        initial={table}
        thresholds={lineRateThresholds()}
        links={links.map((link) => ({ value: String(link.id), label: link.name }))}
        statuses={RUN_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
        noMatch="Clear the filters to see every run."
        emptyState={
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
        }
      />
    </>
  );
}
