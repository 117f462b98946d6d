"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { DownloadChart } from "@/components/charts/DownloadChart";
import { IntervalChart, IntervalChartLegend, intervalChartRightInset } from "@/components/charts/IntervalChart";
import { LiveRateAnnouncer } from "@/components/charts/LiveAnnouncer";
import { LATENCY_MAX_POINTS, runTimeDomain } from "@/components/diagnosis/latency";
import { LatencyChart, LatencyChartLegend } from "@/components/diagnosis/LatencyChart";
import { LatencySummaryView } from "@/components/diagnosis/LatencySummary";
import { useRunLatency } from "@/components/diagnosis/useRunLatency";
import { QueryError } from "./QueryError";
import { LATENCY_IDLE_SECONDS, LATENCY_INTERVAL_SECONDS, type LatencySummary } from "@/lib/diagnosis/contract";
import { summarizeLatency } from "@/lib/runs/latency";
import { downsample, SeriesBuilder, type SeriesPoint } from "@/lib/runs/series";
import { isActiveStatus, SampleEventSchema } from "@/lib/runs/contract";
import { invalidateRunViews } from "@/components/queries";
import { formatDuration } from "@/lib/format";
import { cancelRunAction } from "@/lib/runs/actions/cancel-run";
import { StatusBadge } from "./StatusBadge";
import { useCan } from "@/components/auth/ViewerContext";
import { onStreamAccessEnded } from "./stream-access";

type Series = { points: SeriesPoint[]; streamCount: number; sampleCount: number };

type Props = {
  runId: number;
  status: string;
  queuePosition: number | null;
  protocol: "tcp" | "udp";
  isBidir: boolean;
  durationSeconds: number | null;
  omitSeconds: number;
  lineRateBitsPerSecond: number;
  /** the stored series: drawn as is once the run has ended */
  series: Series;
  /** latency under load: whether the run measures it, and its figures once it has ended */
  latency?: { isMeasured: boolean; summary: LatencySummary | null };
};

// Redraw at most this often: a 0.1 s interval with 32 streams sends 10 events a second.
const REDRAW_MS = 250;

type Live = Series & { status: string; lastEnd: number };

/** Follows a run over server-sent events while it is active. */
function useLiveRun(runId: number, isActive: boolean): Live | null {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Live | null>(null);
  useEffect(() => {
    if (!isActive) return;
    const builder = new SeriesBuilder();
    // The stream replays every status event first, so the current one arrives at once.
    let status = "queued";
    let sampleCount = 0;
    let lastEnd = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      setLive({
        points: downsample(builder.points).slice(),
        streamCount: builder.streamCount,
        sampleCount,
        status,
        lastEnd,
      });
    };
    const schedule = () => {
      timer ??= setTimeout(flush, REDRAW_MS);
    };
    // Same-origin GET: the event stream needs no API token. EventSource resumes by itself with Last-Event-ID.
    const source = new EventSource(`/api/runs/${runId}/events`);
    source.addEventListener("sample", (event) => {
      // The one contract of a sample, live or replayed: what does not fit it is not drawn.
      const parsed = SampleEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      const sample = parsed.data;
      builder.add(sample);
      sampleCount += 1;
      lastEnd = Math.max(lastEnd, sample.end);
      schedule();
    });
    // Access ended (signed out, token revoked): the page re-renders, which asks to sign in again.
    onStreamAccessEnded(source, () => router.refresh());
    source.addEventListener("status", (event) => {
      status = (JSON.parse((event as MessageEvent<string>).data) as { status: string }).status;
      schedule();
      if (!isActiveStatus(status)) {
        source.close();
        // The page re-renders from the database: summary, per-stream table, outputs.
        router.refresh();
        // The run's result belongs in the lists, the link's history and the overview now.
        void invalidateRunViews(queryClient);
      } else if (status === "running") {
        // The exact commands are known from now on.
        router.refresh();
      }
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [runId, isActive, router, queryClient]);
  return isActive ? live : null;
}

/** The run's chart: live with progress and Cancel while it runs, the stored samples after. */
export function RunLiveView({
  runId,
  status,
  queuePosition,
  protocol,
  isBidir,
  durationSeconds,
  omitSeconds,
  lineRateBitsPerSecond,
  series,
  latency = { isMeasured: false, summary: null },
}: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const isActive = isActiveStatus(status);
  const live = useLiveRun(runId, isActive);
  const cancel = useActionForm();
  const isCancelling = cancel.isPending;
  const mayCancel = useCan("run");
  const cancelError = cancel.message;
  const shown = live ?? series;
  const liveStatus = live?.status ?? status;
  const totalSeconds = durationSeconds === null ? null : durationSeconds + omitSeconds;
  const elapsed = live?.lastEnd ?? 0;
  const percent = totalSeconds ? Math.min(100, (elapsed / totalSeconds) * 100) : null;
  const pings = useRunLatency(runId, { isMeasured: latency.isMeasured, isActive });
  // Throughput and latency on one time axis: from the idle pings at −5 s to the end.
  const timeDomain = latency.isMeasured
    ? runTimeDomain({
        isLatencyMeasured: true,
        plannedEnd: isActive && totalSeconds ? totalSeconds : null,
        lastIntervalT: shown.points.at(-1)?.t ?? 0,
        samples: pings.samples,
      })
    : undefined;
  // While live, the figures of the pings so far; the stored summary once the run has ended.
  const isSummarySoFar = isActive && latency.summary === null && pings.samples.length > 0;
  // Summarised when the pings change (every 2 s), not at every redraw of the live chart.
  const pingsSoFar = useMemo(
    () => (isSummarySoFar ? summarizeLatency(pings.samples) : null),
    [isSummarySoFar, pings.samples],
  );
  const latencySummary = pingsSoFar ?? latency.summary;

  return (
    <section
      aria-labelledby="chart-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="chart-heading" className="text-lg font-semibold">
          {isActive ? "Live" : "Intervals"}
        </h2>
        <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="sample-count">
          {shown.sampleCount} interval{shown.sampleCount === 1 ? "" : "s"}
          {shown.points.length < shown.sampleCount ? ` · drawn as ${shown.points.length} averaged points` : ""}
        </p>
      </div>
      {isActive ? (
        <div className="mb-4 space-y-2" data-testid="live-progress">
          {/* The chart's text alternative while it moves: rate and intervals, politely, every few seconds. */}
          <LiveRateAnnouncer points={shown.points} sampleCount={shown.sampleCount} />
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <div className="flex items-center gap-2">
              <StatusBadge status={liveStatus} queuePosition={queuePosition} />
              <span className="text-slate-700 dark:text-slate-300">
                {liveStatus === "queued"
                  ? queuePosition
                    ? `Waiting for ${queuePosition === 1 ? "the run before it" : `${queuePosition} runs before it`} on this link`
                    : "Waiting to start"
                  : liveStatus === "preparing"
                    ? "Starting iperf3 on both ends…"
                    : liveStatus === "listening"
                      ? "Waiting for the device to connect…"
                      : totalSeconds
                        ? `${formatDuration(Math.max(0, totalSeconds - elapsed))} left`
                        : "Sending the byte count…"}
              </span>
            </div>
            {mayCancel ? (
              <button
                type="button"
                disabled={isCancelling}
                onClick={() =>
                  cancel.submit(() => cancelRunAction({ runId }), {
                    onSuccess: () => {
                      void invalidateRunViews(queryClient);
                      router.refresh();
                    },
                  })
                }
                className={
                  "rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 " +
                  "hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500 " +
                  "disabled:opacity-60 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 " +
                  "dark:hover:bg-red-950"
                }
              >
                {isCancelling ? "Cancelling…" : "Cancel"}
              </button>
            ) : null}
          </div>
          {cancelError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {cancelError}
            </p>
          ) : null}
          <div
            role="progressbar"
            aria-label="Test progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent === null ? undefined : Math.round(percent)}
            aria-valuetext={percent === null ? "in progress" : `${Math.round(percent)} %`}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div
              className={`h-full rounded-full bg-sky-600 transition-[width] duration-300 dark:bg-sky-400 ${percent === null ? "w-1/3 animate-pulse" : ""}`}
              style={percent === null ? undefined : { width: `${percent}%` }}
            />
          </div>
        </div>
      ) : null}
      {shown.sampleCount === 0 && !isActive ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          This run recorded no intervals: it ended before iperf3 reported any.
        </p>
      ) : (
        <>
          <DownloadChart
            fileName={`wirespeed-run-${runId}.png`}
            title={`Wirespeed run #${runId}: ${protocol.toUpperCase()}${isBidir ? " both ways" : ""}, ${shown.streamCount === 1 ? "1 stream" : `${shown.streamCount} streams`}, every interval`}
          >
            <IntervalChart
              points={shown.points}
              streamCount={shown.streamCount}
              protocol={protocol}
              isBidir={isBidir}
              lineRateBitsPerSecond={lineRateBitsPerSecond}
              sampleCount={shown.sampleCount}
              durationSeconds={isActive && totalSeconds ? totalSeconds : undefined}
              xDomain={timeDomain}
            />
            <IntervalChartLegend protocol={protocol} isBidir={isBidir} streamCount={shown.streamCount} />
          </DownloadChart>
        </>
      )}
      {latency.isMeasured && timeDomain ? (
        <div className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800" data-testid="latency">
          <h3 id="latency-heading" className="text-base font-semibold">
            Latency under load
          </h3>
          <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">
            A ping every {LATENCY_INTERVAL_SECONDS} s from the client host to the server&apos;s link address:{" "}
            {LATENCY_IDLE_SECONDS} s idle before the traffic, then under it, on the time axis of the chart above.
          </p>
          {pings.error ? (
            <QueryError what="the pings" error={pings.error} onRetry={() => void pings.refetch()} />
          ) : null}
          <LatencyChart
            samples={pings.samples}
            domain={timeDomain}
            rightInset={intervalChartRightInset(protocol, shown.points)}
            summary={latencySummary}
          />
          <LatencyChartLegend isThinned={pings.samples.length > LATENCY_MAX_POINTS} />
          <LatencySummaryView summary={latencySummary} isActive={isActive} isSoFar={isSummarySoFar} />
        </div>
      ) : null}
    </section>
  );
}
