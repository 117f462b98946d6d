// Latency under load for the run page, without React: the chart's points (thinned for long
// runs), the time axis the throughput and latency charts share, and the words of the summary.
import { formatNumber } from "@/lib/format";
import {
  LATENCY_IDLE_SECONDS,
  type BufferbloatGrade,
  type LatencyPhase,
  type LatencySample,
  type LatencySummary,
} from "@/lib/diagnosis/contract";

/** One point of the latency chart: a ping, or the pings of a stretch of a long run. */
export type LatencyPoint = {
  t: number;
  phase: LatencyPhase;
  /** the round-trip time on the line of its phase, null on the other (the two lines never join) */
  idle: number | null;
  loaded: number | null;
  /** 0 where a ping of the point was lost: a mark on the time axis */
  lost: number | null;
  /** pings behind the point, and how many of them got no answer */
  count: number;
  lostCount: number;
};

/** At most this many points: a day's run pings 432,000 times. */
export const LATENCY_MAX_POINTS = 600;

/**
 * The chart's points, in time order. Up to `maxPoints` pings, one point each; beyond, each
 * point is a stretch of consecutive pings of one phase, drawn at its mean time with its highest
 * round-trip time: the peaks of a queue that fills are what bufferbloat is, and an average
 * would flatten them.
 */
export function latencyChartPoints(samples: readonly LatencySample[], maxPoints = LATENCY_MAX_POINTS): LatencyPoint[] {
  const ordered = samples.filter((sample) => Number.isFinite(sample.t)).sort((left, right) => left.t - right.t);
  const size = Math.max(1, Math.ceil(ordered.length / Math.max(1, maxPoints)));
  const points: LatencyPoint[] = [];
  let bucket: LatencySample[] = [];
  const flush = () => {
    if (bucket.length === 0) return;
    const replies = bucket
      .map((sample) => sample.rttMs)
      .filter((rtt): rtt is number => rtt !== null && Number.isFinite(rtt));
    const rtt = replies.length ? Math.max(...replies) : null;
    const phase = bucket[0]!.phase;
    const lostCount = bucket.length - replies.length;
    points.push({
      t: bucket.reduce((sum, sample) => sum + sample.t, 0) / bucket.length,
      phase,
      idle: phase === "idle" ? rtt : null,
      loaded: phase === "loaded" ? rtt : null,
      lost: lostCount > 0 ? 0 : null,
      count: bucket.length,
      lostCount,
    });
    bucket = [];
  };
  for (const sample of ordered) {
    // A stretch never spans both phases: the idle line ends where the traffic starts.
    if (bucket.length >= size || (bucket.length > 0 && bucket[0]!.phase !== sample.phase)) flush();
    bucket.push(sample);
  }
  flush();
  return points;
}

/**
 * The time axis the throughput and latency charts share, in seconds of the traffic: from the
 * idle pings before it (−5 s) when latency is measured, else 0; to the planned end while the
 * run is live (so the charts fill from the left), else to the last interval or ping.
 */
export function runTimeDomain({
  isLatencyMeasured,
  plannedEnd,
  lastIntervalT,
  samples,
}: {
  isLatencyMeasured: boolean;
  /** the planned duration with its warm-up, while the run is live; null otherwise */
  plannedEnd: number | null;
  lastIntervalT: number;
  samples: readonly LatencySample[];
}): [number, number] {
  const times = samples.map((sample) => sample.t).filter(Number.isFinite);
  const firstPing = times.length ? Math.min(...times) : 0;
  const lastPing = times.length ? Math.max(...times) : 0;
  const start = isLatencyMeasured ? Math.min(-LATENCY_IDLE_SECONDS, Math.floor(firstPing)) : 0;
  return [start, Math.max(plannedEnd ?? 0, lastIntervalT, lastPing, 1)];
}

/** "0.42 ms", "12.3 ms", "150 ms"; "–" for none. */
export function formatMs(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? "–" : `${formatNumber(value)} ms`;
}

/** How much the median rose under load, the figure the grade is read from; null without both medians. */
export function latencyIncreaseMs(summary: Pick<LatencySummary, "idleMedianMs" | "loadedMedianMs">): number | null {
  if (summary.idleMedianMs == null || summary.loadedMedianMs == null) return null;
  return summary.loadedMedianMs - summary.idleMedianMs;
}

/** The grades' bounds, as the issue sets them: the rise of the median under load. */
export const GRADE_MEANINGS: Record<BufferbloatGrade, string> = {
  A: "under 5 ms more under load",
  B: "5 to 30 ms more under load",
  C: "30 to 60 ms more under load",
  D: "60 to 200 ms more under load",
  F: "200 ms or more under load",
};

/** The chart in a sentence, for a screen reader: pings, each phase's median, the lost ones. */
export function describeLatency(samples: readonly LatencySample[], summary: LatencySummary | null): string {
  if (samples.length === 0) return "Round-trip time under load: no pings yet";
  const lost = samples.filter((sample) => sample.rttMs === null).length;
  const parts = [`Round-trip time of ${samples.length} pings`];
  if (summary)
    parts.push(
      `idle median ${formatMs(summary.idleMedianMs)}`,
      `under load median ${formatMs(summary.loadedMedianMs)}`,
    );
  parts.push(lost === 0 ? "none lost" : `${lost} lost`);
  return parts.join(", ");
}
