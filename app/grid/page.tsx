import Link from "next/link";
import { NoLinksYet } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { ColourBySwitch, GridFilterForm } from "@/components/grid/GridControls";
import { GridLegend } from "@/components/grid/GridLegend";
import { GridTable } from "@/components/grid/GridTable";
import { Notice } from "@/components/ui/ui";
import { TEXT_LINK } from "@/components/ui/styles";
import { requirePage } from "@/lib/auth/guard";
import { AppError, type FieldError } from "@/lib/errors";
import type { GridAnswer } from "@/lib/grid/contract";
import { getGrid, listGridHostChoices } from "@/lib/grid/reads";
import { gridColourByOf, readGridQuery, type GridQuery } from "@/lib/grid/schemas";

export const dynamic = "force-dynamic";
export const metadata = { title: "Grid" };

/** The grid, or the fields its read refused (a tag no host has, ids of no host), for the page to say. */
async function gridOrRefusal(query: GridQuery): Promise<GridAnswer | { refused: FieldError[] }> {
  try {
    return await getGrid(query);
  } catch (error) {
    if (error instanceof AppError && error.kind === "invalid") return { refused: error.fields };
    throw error;
  }
}

export default async function GridPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage("read");
  const params = await searchParams;
  // A stale or edited address still opens: what it got wrong is said above the grid, and left out.
  const { query, errors } = readGridQuery(params, ["by"]);
  const by = gridColourByOf(params.by);
  const [hosts, grid] = await Promise.all([listGridHostChoices(), gridOrRefusal(query)]);
  const answer = "refused" in grid ? { hosts: [], cells: [] } : grid;
  const problems = [...errors, ...("refused" in grid ? grid.refused : [])];
  return (
    <>
      <PageHeader
        title="Grid"
        description="The latest TCP result from each host (rows) to each other host (columns) over the links that join them. Open a cell for its link."
        actions={<ColourBySwitch query={query} by={by} />}
      />
      <div className="space-y-4">
        <GridFilterForm query={query} by={by} hosts={hosts} />
        {problems.length > 0 ? (
          <Notice tone="warning" title="Part of the filter was left out" testId="grid-filter-problems">
            <ul>
              {problems.map((problem) => (
                <li key={`${problem.field} ${problem.message}`}>
                  <code>{problem.field}</code> {problem.message}
                </li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <GridLegend by={by} staleDays={query.staleDays} />
        {answer.cells.length > 0 ? (
          <GridTable answer={answer} by={by} />
        ) : answer.hosts.length > 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="grid-no-links">
            No link joins {answer.hosts.length === 1 ? "this host to another" : "these hosts"}.{" "}
            <Link href="/grid" className={TEXT_LINK}>
              Show every linked host
            </Link>
          </p>
        ) : problems.length === 0 ? (
          <NoLinksYet lead="The grid shows the latest result of every pair of hosts a link joins." />
        ) : null}
      </div>
    </>
  );
}
