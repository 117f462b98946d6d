import Link from "next/link";
import { notFound } from "next/navigation";
import { pageIdOf } from "@/components/page-params";
import { Breadcrumb } from "@/components/PageHeader";
import { PageSection } from "@/components/PageSection";
import { formLinksOf } from "@/components/schedules/form-links";
import { describeTarget, formatStartIn, hasSecondsField } from "@/components/schedules/format";
import { ScheduleControls } from "@/components/schedules/ScheduleControls";
import { ScheduleHistory } from "@/components/schedules/ScheduleHistory";
import { ScheduleState } from "@/components/schedules/ScheduleList";
import { TEXT_LINK } from "@/components/ui/styles";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { listHosts } from "@/lib/inventory/hosts";
import { listLinks } from "@/lib/inventory/links";
import { parseStoredOptions } from "@/lib/runs/contract";
import { describeDirection, describeOptions } from "@/lib/runs/describe";
import { describeTiming, LAST_RUNS } from "@/lib/schedules/contract";
import { getSchedule } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params) {
  const { id } = await params;
  return { title: `Schedule #${id}` };
}

export default async function SchedulePage({ params }: Params) {
  const principal = await requirePage("read");
  const scheduleId = pageIdOf((await params).id);
  if (scheduleId === null) notFound();
  const schedule = await getSchedule(scheduleId);
  if (!schedule) notFound();
  // The hosts' iperf3 versions and ports are for the edit form, which only operators get.
  const mayChange = can(principal.role, "monitor");
  const [links, hosts] = await Promise.all([
    listLinks(),
    mayChange ? listHosts({ localFirst: true }) : Promise.resolve([]),
  ]);
  const formLinks = mayChange ? formLinksOf(links, hosts) : [];
  const linkNames = new Map(links.map((link) => [link.id, link.name]));
  const testLink = links.find((link) => link.id === schedule.linkId) ?? null;
  const [aName, bName] = testLink ? [testLink.a.host.name, testLink.b.host.name] : ["A", "B"];
  const withSeconds = hasSecondsField(schedule.cron);
  const planLinkIds = Array.isArray(schedule.experimentPlan?.linkIds)
    ? (schedule.experimentPlan.linkIds as unknown[]).filter((id): id is number => typeof id === "number")
    : [];

  return (
    <div className="max-w-5xl">
      <Breadcrumb href="/schedules" label="Schedules" />
      <div className="mb-6">
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight break-words">
          {schedule.name} <ScheduleState enabled={schedule.enabled} />
        </h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="schedule-summary">
          {schedule.kind === "test" && schedule.link ? (
            <>
              Test on{" "}
              <Link href={`/links/${schedule.link.id}`} className={`font-medium ${TEXT_LINK}`}>
                {schedule.link.name}
              </Link>
            </>
          ) : (
            describeTarget(schedule)
          )}
          {planLinkIds.length > 0 ? (
            <>
              {" on "}
              {planLinkIds.map((id, index) => (
                <span key={id}>
                  {index > 0 ? ", " : null}
                  <Link href={`/links/${id}`} className={`font-medium ${TEXT_LINK}`}>
                    {linkNames.get(id) ?? `link ${id}`}
                  </Link>
                </span>
              ))}
            </>
          ) : null}{" "}
          · {describeTiming(schedule)}
        </p>
      </div>

      <div className="mb-8 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,20rem)]">
        <div className="min-w-0">
          <ScheduleControls schedule={schedule} links={formLinks} />
          {schedule.kind === "test" ? (
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600 dark:text-slate-400">Test</dt>
              <dd className="font-mono">{describeOptions(parseStoredOptions(schedule.options), schedule.direction)}</dd>
              <dt className="text-slate-600 dark:text-slate-400">Direction</dt>
              <dd>
                {describeDirection(schedule.direction, aName, bName)}, client on{" "}
                {schedule.clientSide === "a" ? aName : bName}
              </dd>
            </dl>
          ) : (
            <details className="mt-4 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
              <summary className="cursor-pointer font-medium">Experiment request</summary>
              <pre className="mt-2 overflow-x-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-950">
                {JSON.stringify(schedule.experimentPlan, null, 2)}
              </pre>
            </details>
          )}
        </div>
        <section
          aria-labelledby="next-starts-heading"
          className="rounded-lg border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="next-starts-heading" className="font-semibold">
            Next starts
          </h2>
          {schedule.nextRuns.length > 0 ? (
            <>
              <ol className="mt-1 space-y-0.5 tabular-nums" data-testid="schedule-next-starts">
                {schedule.nextRuns.map((start) => (
                  <li key={start}>
                    <time dateTime={start}>{formatStartIn(start, schedule.timezone, withSeconds)}</time>
                  </li>
                ))}
              </ol>
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                In {schedule.timezone}
                {schedule.slipSeconds > 0 ? `, each up to ${schedule.slipSeconds} s later (slip)` : ""}.
              </p>
            </>
          ) : (
            <p className="mt-1 text-slate-600 dark:text-slate-400">
              {schedule.enabled ? "None: the timing has no further start." : "None while it is paused."}
            </p>
          )}
        </section>
      </div>

      <PageSection name="history" title="Starts">
        {schedule.lastRuns.length > 0 ? (
          <>
            <ScheduleHistory runs={schedule.lastRuns} />
            {schedule.lastRuns.length >= LAST_RUNS ? (
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">The latest {LAST_RUNS} starts.</p>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No start yet. Each start shows here: the run it started with its result, or why it was skipped.
          </p>
        )}
      </PageSection>
    </div>
  );
}
