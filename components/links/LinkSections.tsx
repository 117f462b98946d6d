import Link from "next/link";
import { AlertList } from "@/components/alerts/AlertItem";
import { BaselineRunsForm } from "@/components/alerts/BaselineRunsForm";
import { BaselineTable } from "@/components/alerts/BaselineTable";
import { IfCan } from "@/components/auth/ViewerContext";
import { ExperimentList } from "@/components/experiments/ExperimentList";
import { ExperimentListRefresh } from "@/components/experiments/ExperimentListRefresh";
import { newExperimentHref } from "@/components/experiments/form/prefill";
import { ImportPanel } from "@/components/imports/ImportPanel";
import { PageSection } from "@/components/PageSection";
import { NewTestForm } from "@/components/runs/NewTestForm";
import { ListenForDevice } from "@/components/links/ListenForDevice";
import { ScheduleList } from "@/components/schedules/ScheduleList";
import { buttonClass } from "@/components/ui/styles";
import { DEFAULT_BASELINE_RUNS, type AlertJson, type LinkBaselineJson } from "@/lib/alerts/contract";
import { isActiveExperimentStatus, type ExperimentListItem } from "@/lib/experiments/contract";
import { EVERY_DIRECTION_PRESET_ID, STREAM_SWEEP_PRESET_ID } from "@/lib/experiments/presets";
import type { LinkEnds } from "@/lib/runs/link-reads";
import type { ScheduleJson } from "@/lib/schedules/contract";

// The sections of a link's page, between its header and its history: each takes what the page read.

const NOTE = "text-sm text-slate-600 dark:text-slate-400";

/** The link's open alerts, when it has some. */
export function LinkAlerts({ alerts }: { alerts: AlertJson[] }) {
  if (alerts.length === 0) return null;
  return (
    <PageSection
      name="alerts"
      id="alerts"
      title={alerts.length === 1 ? "Open alert" : `${alerts.length} open alerts`}
      className="mb-8"
      testId="link-alerts"
    >
      <AlertList alerts={alerts} showLink={false} />
    </PageSection>
  );
}

/** The new-test form (for roles that start tests), then the import of iperf3 results. */
export function LinkNewTest({ linkId, ends }: { linkId: number; ends: LinkEnds }) {
  const { a, b } = ends;
  const device = [a, b].find((end) => end.access === "device");
  const managed = [a, b].find((end) => end.access === "ssh");
  return (
    <>
      <section
        aria-labelledby="new-test-heading"
        className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="new-test-heading" className="mb-3 text-lg font-semibold">
          New test
        </h2>
        <IfCan permission="run" otherwise={<p className={NOTE}>Starting tests needs the operator or admin role.</p>}>
          {device && managed ? (
            // A device starts its own client: Wirespeed listens for it rather than starting a test.
            <ListenForDevice linkId={linkId} deviceName={device.hostName} managedName={managed.hostName} />
          ) : (
            <NewTestForm linkId={linkId} speedMbps={ends.speedMbps} a={a} b={b} />
          )}
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
    </>
  );
}

/** The link's latest experiments, with the presets that start one on it; the experiments page has the rest. */
export function LinkExperiments({
  linkId,
  experiments,
  total,
}: {
  linkId: number;
  experiments: ExperimentListItem[];
  total: number;
}) {
  const starts = [
    { label: "Sweep streams", href: newExperimentHref({ presetId: STREAM_SWEEP_PRESET_ID, linkIds: [linkId] }) },
    { label: "Every direction", href: newExperimentHref({ presetId: EVERY_DIRECTION_PRESET_ID, linkIds: [linkId] }) },
    { label: "Other experiment…", href: newExperimentHref({ linkIds: [linkId] }) },
  ];
  return (
    <PageSection
      name="experiments"
      title="Experiments"
      className="mb-8"
      testId="link-experiments"
      actions={
        <IfCan permission="run">
          <div role="group" aria-label="Start an experiment" className="flex flex-wrap gap-2">
            {starts.map((start) => (
              <Link key={start.label} href={start.href} className={buttonClass("secondary")}>
                {start.label}
              </Link>
            ))}
          </div>
        </IfCan>
      }
    >
      <ExperimentListRefresh isActive={experiments.some((experiment) => isActiveExperimentStatus(experiment.status))} />
      {total > 0 ? (
        <>
          <ExperimentList experiments={experiments} showLinks={false} />
          {total > experiments.length ? (
            <p className="mt-2 text-sm">
              <Link
                href={`/experiments?link=${linkId}`}
                className="font-medium text-sky-800 underline dark:text-sky-300"
              >
                All {total} experiments on this link
              </Link>
            </p>
          ) : null}
        </>
      ) : (
        <p className={NOTE}>
          No experiments on this link yet. An experiment is a series of runs that changes one thing at a time, such as
          the number of streams or the direction, and gives the answer in one sentence.
        </p>
      )}
    </PageSection>
  );
}

/** The schedules that test the link, and the way to add one. */
export function LinkSchedules({ linkId, schedules }: { linkId: number; schedules: ScheduleJson[] }) {
  return (
    <PageSection
      name="schedules"
      title="Schedules"
      className="mb-8"
      testId="link-schedules"
      actions={
        <IfCan permission="monitor">
          <Link href={`/schedules/new?link=${linkId}`} className={buttonClass("secondary")}>
            Schedule this link
          </Link>
        </IfCan>
      }
    >
      {schedules.length > 0 ? (
        <ScheduleList schedules={schedules} />
      ) : (
        <p className={NOTE}>
          No schedule tests this link yet. A schedule repeats a test every N minutes or on a cron expression, so a
          slower link shows up the day it slows down.
        </p>
      )}
    </PageSection>
  );
}

/** What the link usually gives per test, and how many runs make that up. */
export function LinkBaselines({ linkId, baseline }: { linkId: number; baseline: LinkBaselineJson | null }) {
  return (
    <PageSection
      name="baselines"
      id="baselines"
      title="Baselines"
      headingClassName="mb-1"
      className="mb-8"
      testId="link-baselines"
    >
      <p className={`mb-3 ${NOTE}`}>
        What this link usually gives, per test: the median of its latest successful runs of that test outside
        experiments. Each run is compared with it, and alert rules can fire below a share of it.
      </p>
      {baseline && baseline.signatures.length > 0 ? (
        <div className="mb-3">
          <BaselineTable baselines={baseline.signatures} />
        </div>
      ) : (
        <p className={`mb-3 ${NOTE}`}>No baseline yet: a test needs a few successful runs first.</p>
      )}
      <BaselineRunsForm
        linkId={linkId}
        baselineRuns={baseline?.baselineRuns ?? DEFAULT_BASELINE_RUNS}
        importsInBaseline={baseline?.importsInBaseline ?? false}
      />
    </PageSection>
  );
}
