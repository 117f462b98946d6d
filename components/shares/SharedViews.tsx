"use client";

import type { ReactNode } from "react";
import { IntervalChart } from "@/components/charts/IntervalChart";
import { LinkHistoryChart } from "@/components/charts/LinkHistoryChart";
import { ResultTableView } from "@/components/experiments/view/ResultTableView";
import { RunSummaryCards } from "@/components/runs/RunFigures";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { LocalTime } from "@/components/units/LocalTime";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { useRateUnit } from "@/components/units/useRateUnit";
import { formatLinkSpeed, formatNumber, formatPercent, formatRate } from "@/lib/format";
import { describeDirection } from "@/lib/runs/describe";
import type { SharedExperiment, SharedLink, SharedLinkRun, SharedPage, SharedRun } from "@/lib/shares/contract";

// What a share link shows: one run, one experiment or one link's history, read-only. Nothing here
// links anywhere or acts: a visitor has no account, and the page is all they may read.

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mb-6">
      <h2 className="mb-2 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Heading({ title, status, children }: { title: string; status: string; children?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
          <span className="break-words">{title}</span>
          {status ? <StatusBadge status={status} /> : null}
        </h1>
        {children}
      </div>
      <RateUnitSwitch />
    </div>
  );
}

function Failure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="note"
      className="mb-6 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {message}
    </p>
  );
}

function SharedRunView({ run }: { run: SharedRun }) {
  return (
    <div data-testid="shared-run">
      <Heading title={run.title} status={run.status}>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {/* Hidden, the link's name is its ends' letters: the direction says them already. */}
          {run.linkName === `${run.aName} ⇄ ${run.bName}` ? null : (
            <>
              <span className="font-medium">{run.linkName}</span> ·{" "}
            </>
          )}
          {formatLinkSpeed(run.speedMbps)} ·{" "}
          <span data-testid="shared-direction">{describeDirection(run.direction, run.aName, run.bName)}</span> ·{" "}
          <span className="font-mono text-xs">{run.optionsText}</span>
        </p>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          <LocalTime iso={run.createdAt} />
        </p>
      </Heading>
      <Failure message={run.errorMessage} />
      {run.summary ? (
        <section aria-label="Summary" className="mb-6">
          <RunSummaryCards
            summary={run.summary}
            protocol={run.protocol}
            clientHost={run.clientName}
            serverHost={run.serverName}
          />
        </section>
      ) : null}
      {run.series.points.length > 0 ? (
        <Section title="Throughput">
          <IntervalChart
            points={run.series.points}
            streamCount={run.series.streamCount}
            protocol={run.protocol}
            isBidir={run.isBidir}
            lineRateBitsPerSecond={run.speedMbps * 1e6}
            sampleCount={run.series.sampleCount}
          />
        </Section>
      ) : null}
    </div>
  );
}

function LinkRunsTable({ runs }: { runs: SharedLinkRun[] }) {
  const [unit] = useRateUnit();
  return (
    <TableOrCards<SharedLinkRun>
      items={runs}
      label="Runs"
      testId="shared-runs"
      columns={[
        { header: "Run" },
        { header: "When" },
        { header: "Test" },
        { header: "Received", className: "text-right" },
        { header: "Line rate", className: "text-right" },
        { header: "Retransmits", className: "text-right" },
        { header: "Status" },
      ]}
      keyOf={(run) => run.id}
      row={(run) => (
        <>
          <th scope="row" className="px-4 py-2 text-left font-medium">
            #{run.id}
          </th>
          <td className="px-4 py-2 whitespace-nowrap">
            <LocalTime iso={run.createdAt} />
          </td>
          <td className="px-4 py-2 font-mono text-xs whitespace-nowrap">{run.optionsText}</td>
          <td className="px-4 py-2 text-right tabular-nums whitespace-nowrap">
            {formatRate(run.receivedBitsPerSecond, unit)}
          </td>
          <td className="px-4 py-2 text-right tabular-nums">{formatPercent(run.lineRatePercent)}</td>
          <td className="px-4 py-2 text-right tabular-nums">
            {run.retransmits == null ? "—" : formatNumber(run.retransmits)}
          </td>
          <td className="px-4 py-2">
            <StatusBadge status={run.status} />
          </td>
        </>
      )}
      card={(run) => (
        <div>
          <p className="flex items-center justify-between gap-2">
            <span className="font-medium">
              #{run.id} · <span className="font-mono text-xs">{run.optionsText}</span>
            </span>
            <StatusBadge status={run.status} />
          </p>
          <p className="mt-1 tabular-nums">
            {formatRate(run.receivedBitsPerSecond, unit)} · {formatPercent(run.lineRatePercent)} of line rate
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <LocalTime iso={run.createdAt} />
          </p>
        </div>
      )}
    />
  );
}

function SharedLinkView({ link }: { link: SharedLink }) {
  return (
    <div data-testid="shared-link">
      <Heading title={link.title} status="">
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {link.title === `${link.aName} ⇄ ${link.bName}` ? "" : `${link.aName} ⇄ ${link.bName} · `}
          {formatLinkSpeed(link.speedMbps)} nominal
        </p>
      </Heading>
      {link.points.length > 0 ? (
        <Section title="History">
          <LinkHistoryChart
            points={link.points}
            lineRateBitsPerSecond={link.speedMbps * 1e6}
            aName={link.aName}
            bName={link.bName}
            isReadOnly
          />
        </Section>
      ) : null}
      <Section title="Runs">
        {link.runs.length > 0 ? (
          <LinkRunsTable runs={link.runs} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">No runs yet.</p>
        )}
      </Section>
    </div>
  );
}

function SharedExperimentView({ experiment }: { experiment: SharedExperiment }) {
  const isFinal = experiment.endedAt !== null;
  return (
    <div data-testid="shared-experiment">
      <Heading title={experiment.title || `Experiment #${experiment.id}`} status={experiment.status}>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          <span className="font-medium">{experiment.kindTitle}</span> · {experiment.linkNames.join(", ")}
        </p>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          <LocalTime iso={experiment.createdAt} />
        </p>
      </Heading>
      <Failure message={experiment.errorMessage} />
      {experiment.answer ? (
        <p className="mb-6 text-lg font-medium" data-testid="shared-answer">
          {experiment.answer}
        </p>
      ) : null}
      {experiment.table && experiment.table.rows.length > 0 ? (
        <Section title="Results">
          <ResultTableView table={experiment.table} label="Results" isFinal={isFinal} />
        </Section>
      ) : null}
    </div>
  );
}

/** A share link's page: what it shows, and a line saying it is a read-only copy and until when. */
export function SharedPageView({ page }: { page: SharedPage }) {
  const { content } = page;
  return (
    <>
      {content.kind === "run" ? <SharedRunView run={content} /> : null}
      {content.kind === "link" ? <SharedLinkView link={content} /> : null}
      {content.kind === "experiment" ? <SharedExperimentView experiment={content} /> : null}
      <p className="mt-8 border-t border-slate-200 pt-3 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        A read-only copy shared from Wirespeed
        {page.hideAddresses ? ", with host names and addresses hidden" : ""}.
        {page.expiresAt ? (
          <>
            {" "}
            The link works until <LocalTime iso={page.expiresAt} />.
          </>
        ) : null}
      </p>
    </>
  );
}
