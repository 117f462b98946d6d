import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HeaderLink, PageHeader } from "@/components/PageHeader";
import { ExperimentList } from "@/components/experiments/ExperimentList";
import { ExperimentListFilter } from "@/components/experiments/ExperimentListFilter";
import { ExperimentListRefresh } from "@/components/experiments/ExperimentListRefresh";
import { Pagination } from "@/components/ui/Pagination";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { isActiveExperimentStatus } from "@/lib/experiments/contract";
import { listExperiments } from "@/lib/experiments/reads";
import { listLinks } from "@/lib/inventory/links";

export const dynamic = "force-dynamic";
export const metadata = { title: "Experiments" };

type SearchParams = { link?: string | string[]; page?: string | string[] };

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A plain decimal id within 32 bits, or null: `1e3` or `0x10` never reach the query. */
function idOf(text: string | undefined): number | null {
  return text && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

function pageNumberOf(text: string | undefined): number {
  return text && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : 1;
}

const TEXT_LINK = "font-medium text-sky-800 underline dark:text-sky-300";

export default async function ExperimentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const principal = await requirePage("read");
  const params = await searchParams;
  const linkId = idOf(firstOf(params.link));
  const [list, links] = await Promise.all([
    listExperiments({ linkId: linkId ?? undefined, page: pageNumberOf(firstOf(params.page)) }),
    listLinks(),
  ]);
  const canStart = can(principal.role, "run");
  const filteredLink = linkId === null ? null : (links.find((link) => link.id === linkId) ?? null);
  const newHref = filteredLink ? `/experiments/new?link=${filteredLink.id}` : "/experiments/new";
  const hrefFor = (page: number) => {
    const query = new URLSearchParams();
    if (linkId !== null) query.set("link", String(linkId));
    if (page > 1) query.set("page", String(page));
    const search = query.toString();
    return search ? `/experiments?${search}` : "/experiments";
  };

  return (
    <>
      <PageHeader
        title="Experiments"
        description="Plans of runs that Wirespeed carries out and turns into one answer, newest first."
        actions={
          <HeaderLink href={newHref} isShown={canStart}>
            New experiment
          </HeaderLink>
        }
      />
      <ExperimentListRefresh
        isActive={list.experiments.some((experiment) => isActiveExperimentStatus(experiment.status))}
      />
      {list.total === 0 && linkId === null ? (
        <EmptyState title="No experiments yet">
          An experiment is a series of runs that changes one thing at a time and reads the answer off a table: how many
          streams a link needs, whether both directions and both roles give the same, whether two ports run together as
          fast as each alone, the highest UDP rate without loss.{" "}
          {canStart ? (
            <>
              Start one with{" "}
              <Link href="/experiments/new" className={TEXT_LINK}>
                New experiment
              </Link>
              , from a link page, or by selecting links on the{" "}
              <Link href="/links" className={TEXT_LINK}>
                Links
              </Link>{" "}
              page and choosing Run together.
            </>
          ) : (
            <>Operators and admins start them.</>
          )}
        </EmptyState>
      ) : (
        <>
          <ExperimentListFilter linkId={linkId} links={links.map((link) => ({ id: link.id, name: link.name }))} />
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="experiments-total">
            {list.total} {list.total === 1 ? "experiment" : "experiments"}
            {linkId === null ? " in all" : ` on ${filteredLink?.name ?? "this link"}`}
          </p>
          {list.experiments.length > 0 ? (
            <ExperimentList experiments={list.experiments} />
          ) : list.total > 0 ? (
            <EmptyState title="No experiments on this page">
              <Link href={hrefFor(1)} className={TEXT_LINK}>
                Go to the first page
              </Link>
              .
            </EmptyState>
          ) : (
            <EmptyState title={`No experiments on ${filteredLink?.name ?? "this link"} yet`}>
              {canStart && filteredLink ? (
                <>
                  <Link href={newHref} className={TEXT_LINK}>
                    Start one
                  </Link>{" "}
                  on this link, or{" "}
                </>
              ) : null}
              <Link href="/experiments" className={TEXT_LINK}>
                see every experiment
              </Link>
              .
            </EmptyState>
          )}
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} hrefFor={hrefFor} />
        </>
      )}
    </>
  );
}
