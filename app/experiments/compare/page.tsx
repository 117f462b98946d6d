import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { Breadcrumb } from "@/components/PageHeader";
import { ComparedTables } from "@/components/experiments/compare/ComparedTables";
import { ExperimentPicker, type PickerChoice } from "@/components/experiments/compare/ExperimentPicker";
import { NoteLine } from "@/components/notes/NoteLine";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { LocalTime } from "@/components/units/LocalTime";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { requirePage } from "@/lib/auth/guard";
import { compareExperiments } from "@/lib/experiments/compare";
import type { ExperimentJson, ExperimentListItem } from "@/lib/experiments/contract";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { getExperiment, listExperiments } from "@/lib/experiments/reads";
import { PageSection } from "@/components/PageSection";
import { CopyAsPost } from "@/components/posts/CopyAsPost";
import { experimentComparePostSource } from "@/lib/posts/reads";

export const dynamic = "force-dynamic";
export const metadata = { title: "Compare experiments" };

type SearchParams = { ids?: string | string[] };

/** `ids=12,15`: the first two distinct plain decimal ids within 32 bits; `1e3` or `0x10` never reach the query. */
function idsOf(params: SearchParams): number[] {
  const raw = Array.isArray(params.ids) ? params.ids[0] : params.ids;
  const ids = (raw ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => /^[1-9]\d{0,9}$/.test(part))
    .map(Number)
    .filter((id) => id <= 2_147_483_647);
  return [...new Set(ids)].slice(0, 2);
}

function choiceOf(item: ExperimentListItem, group: string): PickerChoice {
  const when = item.createdAt.slice(0, 16).replace("T", " ");
  return {
    id: item.id,
    group,
    label: `#${item.id} ${item.name} · ${item.links.map((link) => link.name).join(", ")} · ${when} UTC · ${item.status}`,
  };
}

/** The experiments to compare A with: of its kind, those on its links first. */
async function choicesFor(a: ExperimentJson): Promise<PickerChoice[]> {
  const [recent, ...onLinks] = await Promise.all([
    listExperiments({ pageSize: 100 }),
    ...a.links.map((link) => listExperiments({ linkId: link.id, pageSize: 100 })),
  ]);
  const linkIds = new Set(a.links.map((link) => link.id));
  const seen = new Set<number>([a.id]);
  const same: PickerChoice[] = [];
  const other: PickerChoice[] = [];
  for (const item of [...onLinks.flatMap((page) => page.experiments), ...recent.experiments]) {
    if (item.kind !== a.kind || seen.has(item.id)) continue;
    seen.add(item.id);
    if (item.links.some((link) => linkIds.has(link.id))) same.push(choiceOf(item, "On the same links"));
    else other.push(choiceOf(item, "On other links"));
  }
  return [...same.sort((x, y) => y.id - x.id), ...other.sort((x, y) => y.id - x.id)];
}

function Summary({ side, experiment }: { side: "A" | "B"; experiment: ExperimentJson }) {
  return (
    <section
      aria-label={`${side}: experiment #${experiment.id}`}
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid={`compare-summary-${side.toLowerCase()}`}
    >
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="rounded bg-slate-900 px-1.5 py-0.5 text-xs font-bold text-white dark:bg-slate-100 dark:text-slate-900">
          {side}
        </span>
        <Link
          href={`/experiments/${experiment.id}`}
          className="font-semibold text-sky-700 hover:underline dark:text-sky-300"
        >
          #{experiment.id} {experiment.name}
        </Link>
        <StatusBadge status={experiment.status} />
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {KIND_DEFINITIONS[experiment.kind].title} · {experiment.links.map((link) => link.name).join(", ")} ·{" "}
        <LocalTime iso={experiment.createdAt} />
      </p>
      <NoteLine note={experiment.note} labels={experiment.labels} className="mt-1" />
      <p className="mt-2 text-sm font-medium">{experiment.answer ?? "No answer yet."}</p>
    </section>
  );
}

export default async function CompareExperimentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePage("read");
  const ids = idsOf(await searchParams);
  const [a, b] = await Promise.all(ids.map((id) => getExperiment(id)));
  const missing = ids.filter((_, index) => [a, b][index] === null);

  const header = (
    <>
      <Breadcrumb href="/experiments" label="Experiments">
        {" "}
        / Compare
      </Breadcrumb>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Compare experiments</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Two experiments of one kind, row by row, with B against A in %: before and after moving a card, MTU 1500
            against 9000.
          </p>
        </div>
        <RateUnitSwitch />
      </div>
    </>
  );

  if (missing.length > 0 || !a) {
    const recent = await listExperiments({ pageSize: 100 });
    return (
      <>
        {header}
        {missing.length > 0 ? (
          <p
            role="alert"
            className="mb-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            {missing.map((id) => `Experiment #${id}`).join(" and ")} {missing.length === 1 ? "does" : "do"} not exist.
            Pick another.
          </p>
        ) : null}
        {recent.experiments.length > 0 ? (
          <ExperimentPicker
            baseId={null}
            label="First experiment (A)"
            choices={recent.experiments.map((item) => choiceOf(item, KIND_DEFINITIONS[item.kind].title))}
          />
        ) : (
          <EmptyState title="No experiments yet">
            Start one from a link page or the Experiments page, then compare it with the next.
          </EmptyState>
        )}
      </>
    );
  }

  const choices = await choicesFor(a);
  const picker =
    choices.length > 0 ? (
      <ExperimentPicker
        baseId={a.id}
        label={b ? `Compare #${a.id} with another experiment (B)` : `Compare #${a.id} with (B)`}
        choices={choices}
      />
    ) : (
      <EmptyState title={`No other ${KIND_DEFINITIONS[a.kind].title.toLowerCase()} experiment yet`}>
        Run{" "}
        <Link href={`/experiments/${a.id}`} className="font-medium text-sky-800 underline dark:text-sky-300">
          #{a.id}
        </Link>{" "}
        again after the change you want to measure, then compare the two.
      </EmptyState>
    );

  if (!b) {
    return (
      <>
        {header}
        <div className="mb-6 grid gap-4 md:grid-cols-2">
          <Summary side="A" experiment={a} />
        </div>
        {picker}
      </>
    );
  }

  const result = compareExperiments(a, b);
  return (
    <>
      {header}
      <div className="mb-4 grid gap-4 md:grid-cols-2">
        <Summary side="A" experiment={a} />
        <Summary side="B" experiment={b} />
      </div>
      <p className="mb-6 text-sm">
        <Link
          href={`/experiments/compare?ids=${b.id},${a.id}`}
          className="font-medium text-sky-800 underline dark:text-sky-300"
        >
          Swap A and B
        </Link>
      </p>
      <CopyAsPost source={await experimentComparePostSource(a, b, KIND_DEFINITIONS[a.kind].title, result)} />
      {result.isComparable ? (
        <PageSection name="compared" title="Row by row" className="mb-8">
          <ComparedTables comparison={result.comparison} a={{ id: a.id, label: "A" }} b={{ id: b.id, label: "B" }} />
        </PageSection>
      ) : (
        <p
          role="alert"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          data-testid="compare-refused"
        >
          {result.message}
        </p>
      )}
      {picker}
    </>
  );
}
