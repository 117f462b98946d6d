import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { formatLinkSpeed } from "@/components/format";
import { RerunButton } from "@/components/runs/RerunButton";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { Rate } from "@/components/units/Rate";
import type { LineRateThresholds, OverviewLink } from "@/lib/queries/overview";
import { LineRateBar } from "./LineRateBar";
import { Sparkline } from "./Sparkline";

/** One link: its ends, nominal speed, latest result against line rate, recent results and Run again. */
export function LinkCard({ link, color, thresholds }: { link: OverviewLink; color: string; thresholds: LineRateThresholds }) {
  const lineRate = link.speedMbps * 1e6;
  return (
    <article
      aria-labelledby={`link-card-${link.id}`}
      data-testid="link-card"
      data-link-name={link.name}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`link-card-${link.id}`} className="flex items-center gap-2 font-semibold">
            <span aria-hidden className="inline-block h-2.5 w-2.5 shrink-0 rounded-full" style={{ backgroundColor: color }} />
            <Link href={`/links/${link.id}`} className="truncate rounded hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
              {link.name}
            </Link>
          </h3>
          <p className="mt-0.5 truncate text-xs text-slate-600 dark:text-slate-400">
            {link.a.hostName} <span className="font-mono">{link.a.nicName}</span> ↔ {link.b.hostName} <span className="font-mono">{link.b.nicName}</span>
          </p>
        </div>
        <span className="shrink-0 rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200" title="Nominal speed" data-testid="card-speed">
          {formatLinkSpeed(link.speedMbps)}
        </span>
      </header>
      {link.active ? (
        <Link
          href={`/runs/${link.active.id}`}
          className="flex items-center justify-between gap-2 rounded-md bg-sky-50 px-2 py-1.5 text-xs text-sky-900 hover:bg-sky-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:bg-sky-950 dark:text-sky-100 dark:hover:bg-sky-900"
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
            <Sparkline values={link.sparkline} lineRateBitsPerSecond={lineRate} label={`Received rate of the last ${link.sparkline.length} runs of ${link.name}`} />
          </div>
          {link.latest.lineRatePercent != null ? <LineRateBar percent={link.latest.lineRatePercent} thresholds={thresholds} /> : null}
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
