import Link from "next/link";
import { notFound } from "next/navigation";
import { formatLinkSpeedCompact } from "@/lib/format";
import { ExperimentList } from "@/components/experiments/ExperimentList";
import { ExperimentListRefresh } from "@/components/experiments/ExperimentListRefresh";
import { newExperimentHref } from "@/components/experiments/form/prefill";
import { CompareRuns } from "@/components/runs/CompareRuns";
import { FindingsSection } from "@/components/diagnosis/HintList";
import { readPageFilters, runTableQuery, type QueryInput } from "@/lib/runs/filters";
import { LinkActivity } from "@/components/runs/LinkActivity";
import { NewTestForm } from "@/components/runs/NewTestForm";
import { ImportPanel } from "@/components/imports/ImportPanel";
import { buttonClass } from "@/components/ui/styles";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { requirePage } from "@/lib/auth/guard";
import { isActiveExperimentStatus } from "@/lib/experiments/contract";
import { EVERY_DIRECTION_PRESET_ID, STREAM_SWEEP_PRESET_ID } from "@/lib/experiments/presets";
import { listExperiments } from "@/lib/experiments/reads";
import { getLinkEnds, getLinkHistory, listLinkStreamCounts } from "@/lib/runs/link-reads";
import { getRunComparison } from "@/lib/runs/series-reads";
import { getLinkHints, getRunEnvironments } from "@/lib/diagnosis/reads";
import { listRunRows } from "@/lib/runs/lists";
import { lineRateThresholds } from "@/lib/overview/reads";
import { IfCan } from "@/components/auth/ViewerContext";
import { AlertItem } from "@/components/alerts/AlertItem";
import { BaselineRunsForm } from "@/components/alerts/BaselineRunsForm";
import { BaselineTable } from "@/components/alerts/BaselineTable";
import { ScheduleList } from "@/components/schedules/ScheduleList";
import { listAlerts } from "@/lib/alerts/alerts";
import { getLinkBaseline } from "@/lib/alerts/baseline";
import { DEFAULT_BASELINE_RUNS } from "@/lib/alerts/contract";
import { listSchedules } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

/** How many of the link's experiments its page lists; the experiments page has the rest. */
const LATEST_EXPERIMENTS = 5;

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };
type SearchParams = Exclude<QueryInput, URLSearchParams>;

function linkIdOf(raw: string): number | null {
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

/** `compare=3,7,9`: at most eight distinct run ids. */
function compareIdsOf(params: SearchParams): number[] {
  const raw = Array.isArray(params.compare) ? params.compare[0] : params.compare;
  // Plain decimal ids within 32 bits only: `1e20` or `0x10` never reach the query.
  const ids = (raw ?? "")
    .split(",")
    .filter((part) => /^[1-9]\d{0,9}$/.test(part))
    .map(Number)
    .filter((id) => id <= 2_147_483_647);
  return [...new Set(ids)].slice(0, 8);
}

export async function generateMetadata({ params }: Props) {
  await requirePage("read");
  const linkId = linkIdOf((await params).id);
  const ends = linkId === null ? null : await getLinkEnds(linkId);
  return { title: ends ? ends.name : "Link" };
}

export default async function LinkPage({ params, searchParams }: Props) {
  await requirePage("read");
  const linkId = linkIdOf((await params).id);
  if (linkId === null) notFound();
  const query = await searchParams;
  // The history and the runs table are rendered here first, then kept current in the browser (LinkActivity).
  const tableQuery = runTableQuery(readPageFilters(query), linkId);
  const compareIds = compareIdsOf(query);
  const [
    ends,
    history,
    table,
    streamCounts,
    comparison,
    experiments,
    openAlerts,
    schedules,
    baseline,
    hints,
    environments,
  ] = await Promise.all([
    getLinkEnds(linkId),
    getLinkHistory({ linkId }),
    listRunRows({ filters: tableQuery, page: tableQuery.page }),
    listLinkStreamCounts(linkId),
    compareIds.length >= 2 ? getRunComparison({ ids: compareIds, linkId }) : Promise.resolve([]),
    listExperiments({ linkId, pageSize: LATEST_EXPERIMENTS }),
    listAlerts({ status: "firing", linkId }),
    listSchedules({ linkId }),
    getLinkBaseline(linkId),
    getLinkHints(linkId),
    compareIds.length >= 2 ? getRunEnvironments(compareIds) : Promise.resolve(new Map<number, null>()),
  ]);
  if (!ends) notFound();
  const { a, b } = ends;
  const mtuMismatch = a.mtu !== null && b.mtu !== null && a.mtu !== b.mtu;

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/links" className="hover:underline">
          Links
        </Link>
      </nav>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{ends.name}</h1>
          <p
            className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-300"
            data-testid="link-ends"
          >
            {[a, b].map((end, index) => (
              <span key={end.hostId} className="inline-flex flex-wrap items-center gap-x-2">
                {index === 1 ? (
                  <span aria-label="to" className="text-slate-400">
                    ⇄
                  </span>
                ) : null}
                <span>
                  <span className="font-medium">{end.hostName}</span> ·{" "}
                  <span className="font-mono text-xs">{end.nicName}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {end.address ? ` ${end.address}` : ""}
                    {end.mtu ? ` · MTU ${end.mtu}` : ""}
                  </span>
                </span>
              </span>
            ))}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Nominal speed{" "}
            <span className="font-semibold text-slate-900 dark:text-slate-100" data-testid="link-speed">
              {formatLinkSpeedCompact(ends.speedMbps)}
            </span>{" "}
            ({ends.speedMbps.toLocaleString("en")} Mbit/s)
            {mtuMismatch ? (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                MTU mismatch
              </span>
            ) : null}
          </p>
        </div>
        <RateUnitSwitch />
      </div>

      {openAlerts.alerts.length > 0 ? (
        <section id="alerts" aria-labelledby="alerts-heading" className="mb-8" data-testid="link-alerts">
          <h2 id="alerts-heading" className="mb-3 text-lg font-semibold">
            {openAlerts.alerts.length === 1 ? "Open alert" : `${openAlerts.alerts.length} open alerts`}
          </h2>
          <div className="space-y-3">
            {openAlerts.alerts.map((alert) => (
              <AlertItem key={alert.id} alert={alert} showLink={false} />
            ))}
          </div>
        </section>
      ) : null}

      <FindingsSection
        hints={hints}
        title="Latest findings"
        description="What the link's latest runs and experiments say about why it falls short, each with the run or experiment it comes from."
        emptyText="No findings in the link's latest runs and experiments."
        showSource
        testId="link-findings"
        className="mb-8"
      />

      <section
        aria-labelledby="new-test-heading"
        className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="new-test-heading" className="mb-3 text-lg font-semibold">
          New test
        </h2>
        <IfCan
          permission="run"
          otherwise={
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Starting tests needs the operator or admin role.
            </p>
          }
        >
          <NewTestForm linkId={linkId} speedMbps={ends.speedMbps} a={a} b={b} />
        </IfCan>
      </section>

      <IfCan permission="run">
        <details
          className="group mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          data-testid="link-import"
        >
          <summary className="cursor-pointer text-lg font-semibold">Import results</summary>
          <div className="mt-3">
            <ImportPanel linkId={linkId} aName={a.hostName} bName={b.hostName} />
          </div>
        </details>
      </IfCan>

      <section aria-labelledby="experiments-heading" className="mb-8" data-testid="link-experiments">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="experiments-heading" className="text-lg font-semibold">
            Experiments
          </h2>
          <IfCan permission="run">
            <div role="group" aria-label="Start an experiment" className="flex flex-wrap gap-2">
              <Link
                href={newExperimentHref({ presetId: STREAM_SWEEP_PRESET_ID, linkIds: [linkId] })}
                className={buttonClass("secondary")}
              >
                Sweep streams
              </Link>
              <Link
                href={newExperimentHref({ presetId: EVERY_DIRECTION_PRESET_ID, linkIds: [linkId] })}
                className={buttonClass("secondary")}
              >
                Every direction
              </Link>
              <Link href={newExperimentHref({ linkIds: [linkId] })} className={buttonClass("secondary")}>
                Other experiment…
              </Link>
            </div>
          </IfCan>
        </div>
        <ExperimentListRefresh
          isActive={experiments.experiments.some((experiment) => isActiveExperimentStatus(experiment.status))}
        />
        {experiments.total > 0 ? (
          <>
            <ExperimentList experiments={experiments.experiments} showLinks={false} />
            {experiments.total > experiments.experiments.length ? (
              <p className="mt-2 text-sm">
                <Link
                  href={`/experiments?link=${linkId}`}
                  className="font-medium text-sky-800 underline dark:text-sky-300"
                >
                  All {experiments.total} experiments on this link
                </Link>
              </p>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No experiments on this link yet. An experiment is a series of runs that changes one thing at a time, such as
            the number of streams or the direction, and gives the answer in one sentence.
          </p>
        )}
      </section>

      <section aria-labelledby="schedules-heading" className="mb-8" data-testid="link-schedules">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="schedules-heading" className="text-lg font-semibold">
            Schedules
          </h2>
          <IfCan permission="monitor">
            <Link href={`/schedules/new?link=${linkId}`} className={buttonClass("secondary")}>
              Schedule this link
            </Link>
          </IfCan>
        </div>
        {schedules.length > 0 ? (
          <ScheduleList schedules={schedules} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No schedule tests this link yet. A schedule repeats a test every N minutes or on a cron expression, so a
            slower link shows up the day it slows down.
          </p>
        )}
      </section>

      <section id="baselines" aria-labelledby="baselines-heading" className="mb-8" data-testid="link-baselines">
        <h2 id="baselines-heading" className="mb-1 text-lg font-semibold">
          Baselines
        </h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          What this link usually gives, per test: the median of its latest successful runs of that test outside
          experiments. Each run is compared with it, and alert rules can fire below a share of it.
        </p>
        {baseline && baseline.signatures.length > 0 ? (
          <div className="mb-3">
            <BaselineTable baselines={baseline.signatures} />
          </div>
        ) : (
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            No baseline yet: a test needs a few successful runs first.
          </p>
        )}
        <BaselineRunsForm
          linkId={linkId}
          baselineRuns={baseline?.baselineRuns ?? DEFAULT_BASELINE_RUNS}
          importsInBaseline={baseline?.importsInBaseline ?? false}
        />
      </section>

      {comparison.length >= 2 ? (
        <CompareRuns
          runs={comparison.map((entry) => ({ ...entry, environment: environments.get(entry.run.id) ?? null }))}
          lineRateBitsPerSecond={ends.speedMbps * 1e6}
        />
      ) : null}

      <LinkActivity
        linkId={linkId}
        initialHistory={history}
        initialRuns={table}
        lineRateBitsPerSecond={ends.speedMbps * 1e6}
        aName={a.hostName}
        bName={b.hostName}
        thresholds={lineRateThresholds()}
        streamChoices={streamCounts}
        baselines={baseline?.signatures ?? []}
      />
    </>
  );
}
