import Link from "next/link";
import { HostTable } from "@/components/HostTable";
import { PageHeader } from "@/components/PageHeader";
import { buttonClass } from "@/components/ui/styles";
import { OverviewBoard } from "@/components/overview/OverviewBoard";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { listHosts } from "@/lib/inventory/hosts";
import { parseTimelineRange, parseTimelineZoom } from "@/lib/overview/contract";
import { getOverview, lineRateThresholds } from "@/lib/overview/reads";

// The inventory changes under the page (runs, new hosts): never serve a stale build-time copy.
export const dynamic = "force-dynamic";

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePage("read", { allowPublic: true });
  // A visitor of the public overview sees the links' results, not the hosts' addresses.
  const isPublic = principal.via === "public";
  const query = await searchParams;
  // ?range= and a zoom (?from=&to=) within it; anything wrong with them is the default, never an error page.
  const range = parseTimelineRange(query.range);
  const zoom = parseTimelineZoom(query.from, query.to);
  // Counts, cards and timeline are rendered here first, then kept current in the browser (OverviewBoard).
  const [overview, hosts] = await Promise.all([
    getOverview({ range, zoom }),
    isPublic ? Promise.resolve([]) : listHosts({ localFirst: true }),
  ]);
  return (
    <>
      <PageHeader
        title="Overview"
        description="What each link of your lab really delivers."
        actions={
          // The grid asks for an account: a visitor of the public overview is not sent to a login.
          isPublic ? null : (
            <Link href="/grid" className={buttonClass("secondary")} data-testid="overview-grid-link">
              Grid of every host pair
            </Link>
          )
        }
      />
      <OverviewBoard initial={overview} thresholds={lineRateThresholds()} />
      {isPublic ? null : (
        <section aria-labelledby="hosts-heading">
          <div className="mb-3 flex items-center justify-between gap-2">
            <h2 id="hosts-heading" className="text-lg font-semibold">
              Hosts
            </h2>
            {can(principal.role, "credentials") ? (
              <Link
                href="/hosts/new"
                className={
                  "rounded text-sm font-medium text-sky-700 underline focus-visible:outline-none " +
                  "focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-sky-300"
                }
              >
                Add host
              </Link>
            ) : null}
          </div>
          <HostTable hosts={hosts} />
        </section>
      )}
    </>
  );
}
