import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { formatLinkSpeedCompact } from "@/lib/format";
import { RerunButton } from "@/components/runs/RerunButton";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { Rate } from "@/components/units/Rate";
import type { LineRateThresholds, OverviewLink } from "@/lib/overview/reads";
import { LineRateBar } from "./LineRateBar";
import { Sparkline } from "./Sparkline";

/** The last start of the link's schedules in a line: "schedule: 940 Mbit/s 5 min ago", "skipped: link busy: run 12 is running". */
function LastScheduled({ last }: { last: NonNullable<OverviewLink["lastScheduled"]> }) {
  const href =
    last.runId !== null
      ? `/runs/${last.runId}`
      : last.experimentId !== null
        ? `/experiments/${last.experimentId}`
        : null;
  const what =
    last.outcome !== "started" ? (
      <span
        className={last.outcome === "failed" ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-300"}
      >
        {last.outcome}
        {last.reason ? `: ${last.reason}` : ""}
      </span>
    ) : last.receivedBitsPerSecond !== null ? (
      <>
        schedule: <Rate bitsPerSecond={last.receivedBitsPerSecond} className="font-medium tabular-nums" />
      </>
    ) : (
      <>schedule: {last.status ?? "started"}</>
    );
  return (
    <p
      className="text-xs text-slate-600 dark:text-slate-400"
      data-testid="card-last-scheduled"
      data-outcome={last.outcome}
    >
      {href ? (
        <Link href={href} className="hover:underline">
          {what}
        </Link>
      ) : (
        what
      )}{" "}
      <RelativeTime date={last.at} />
    </p>
  );
}

/** One link: its ends, nominal speed, latest result against line rate, recent results and Run again. */
export function LinkCard({
  link,
  color,
  thresholds,
}: {
  link: OverviewLink;
  color: string;
  thresholds: LineRateThresholds;
}) {
  const lineRate = link.speedMbps * 1e6;
  return (
    <article
      aria-labelledby={`link-card-${link.id}`}
      data-testid="link-card"
      data-link-name={link.name}
      data-alert={link.alert ? "firing" : undefined}
      className={
        "flex flex-col gap-3 rounded-lg border bg-white p-4 dark:bg-slate-900 " +
        (link.alert ? "border-red-400 dark:border-red-700" : "border-slate-200 dark:border-slate-800")
      }
    >
      <header className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`link-card-${link.id}`} className="flex items-center gap-2 font-semibold">
            <span
              aria-hidden
              className="inline-block h-2.5 w-2.5 shrink-0 rounded-full"
              style={{ backgroundColor: color }}
            />
            <Link
              href={`/links/${link.id}`}
              className="truncate rounded hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
            >
              {link.name}
            </Link>
          </h3>
          <p className="mt-0.5 truncate text-xs text-slate-600 dark:text-slate-400">
            {link.a.hostName} <span className="font-mono">{link.a.nicName}</span> ↔ {link.b.hostName}{" "}
            <span className="font-mono">{link.b.nicName}</span>
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          {link.alert ? (
            <Link
              href={`/links/${link.id}#alerts`}
              title={link.alert.title}
              className={
                "rounded-md bg-red-700 px-2 py-0.5 text-xs font-semibold text-white hover:bg-red-800 " +
                "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:bg-red-500 " +
                "dark:text-slate-950 dark:hover:bg-red-400"
              }
              data-testid="card-alert"
            >
              Alert{link.alert.count > 1 ? ` ×${link.alert.count}` : ""}
            </Link>
          ) : null}
          <span
            className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
            title="Nominal speed"
            data-testid="card-speed"
          >
            {formatLinkSpeedCompact(link.speedMbps)}
          </span>
        </div>
      </header>
      {link.active ? (
        <Link
          href={`/runs/${link.active.id}`}
          className={
            "flex items-center justify-between gap-2 rounded-md bg-sky-50 px-2 py-1.5 text-xs " +
            "text-sky-900 hover:bg-sky-100 focus-visible:outline-none focus-visible:ring-2 " +
            "focus-visible:ring-sky-500 dark:bg-sky-950 dark:text-sky-100 dark:hover:bg-sky-900"
          }
          data-testid="card-active-run"
        >
          <StatusBadge status={link.active.status} />
          <span className="font-mono">{link.active.summary}</span>
          <span className="underline">watch run #{link.active.id}</span>
        </Link>
      ) : null}
      {link.latest ? (
        <>
          <div className="flex items-end justify-between gap-3">
            <div>
              <Rate bitsPerSecond={link.latest.receivedBitsPerSecond} className="text-2xl font-semibold tabular-nums" />
              <p className="text-xs text-slate-600 dark:text-slate-400">
                <Link href={`/runs/${link.latest.id}`} className="font-mono hover:underline">
                  {link.latest.summary}
                </Link>{" "}
                · <RelativeTime date={link.latest.createdAt} />
              </p>
            </div>
            <Sparkline
              values={link.sparkline}
              lineRateBitsPerSecond={lineRate}
              label={`Received rate of the last ${link.sparkline.length} runs of ${link.name}`}
            />
          </div>
          {link.latest.lineRatePercent != null ? (
            <LineRateBar percent={link.latest.lineRatePercent} thresholds={thresholds} />
          ) : null}
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No result yet.{" "}
          <Link href={`/links/${link.id}#new-test`} className="font-medium text-sky-700 underline dark:text-sky-300">
            Run a first test
          </Link>{" "}
          to see what it delivers.
        </p>
      )}
      {link.lastScheduled ? <LastScheduled last={link.lastScheduled} /> : null}
      {link.last ? (
        <div className="mt-auto flex items-center justify-between gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
          <span className="text-xs text-slate-600 dark:text-slate-400">
            Last test <span className="font-mono">{link.last.summary}</span>
          </span>
          <RerunButton runId={link.last.id} />
        </div>
      ) : null}
    </article>
  );
}
