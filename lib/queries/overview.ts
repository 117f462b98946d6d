import "server-only";
import { describeOptions } from "@/lib/runs/describe";
import { openAlertsByLink } from "@/lib/alerts/alerts";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf";
import { directionOf } from "@/lib/runs/contract";
import { lineRatePercent } from "@/lib/runs/serialize";
import type { ScheduleRunOutcome } from "@/lib/schedules/contract";
import { schedulesByLink } from "@/lib/schedules/store";
import { listLinks } from "./links";

/** The counts the overview's header shows. */
export async function getOverviewCounts() {
  const [hosts, links, runs] = await Promise.all([db.host.count(), db.link.count(), db.run.count()]);
  return { hosts, links, runs };
}

// ---------------------------------------------------------------- link cards

/** Runs drawn in a card's sparkline. */
export const SPARKLINE_RUNS = 20;

export type LineRateThresholds = { warnPercent: number; badPercent: number };

const DEFAULT_THRESHOLDS: LineRateThresholds = { warnPercent: 90, badPercent: 70 };

/**
 * The line-rate bar's colours: amber below WIRESPEED_WARN_PERCENT (default 90), red below
 * WIRESPEED_BAD_PERCENT (default 70). Both must be numbers with 0 < bad ≤ warn ≤ 100, else
 * the defaults apply (with a warning in the server log) rather than a page that lies.
 */
export function lineRateThresholds(env: NodeJS.ProcessEnv = process.env): LineRateThresholds {
  const warn = env.WIRESPEED_WARN_PERCENT?.trim() ? Number(env.WIRESPEED_WARN_PERCENT) : DEFAULT_THRESHOLDS.warnPercent;
  const bad = env.WIRESPEED_BAD_PERCENT?.trim() ? Number(env.WIRESPEED_BAD_PERCENT) : DEFAULT_THRESHOLDS.badPercent;
  if (!Number.isFinite(warn) || !Number.isFinite(bad) || bad <= 0 || warn > 100 || bad > warn) {
    console.warn(`wirespeed: ignoring WIRESPEED_WARN_PERCENT=${env.WIRESPEED_WARN_PERCENT} / WIRESPEED_BAD_PERCENT=${env.WIRESPEED_BAD_PERCENT} (need 0 < bad ≤ warn ≤ 100); using 90 / 70`);
    return DEFAULT_THRESHOLDS;
  }
  return { warnPercent: warn, badPercent: bad };
}

export type OverviewRun = { id: number; createdAt: string; status: string; summary: string; receivedBitsPerSecond: number | null };

export type OverviewLink = {
  id: number;
  name: string;
  speedMbps: number;
  a: { hostId: number; hostName: string; nicName: string };
  b: { hostId: number; hostName: string; nicName: string };
  /** The newest succeeded run: the card's figure. */
  latest: (OverviewRun & { lineRatePercent: number | null }) | null;
  /** The newest run of any status: what Run again repeats. */
  last: OverviewRun | null;
  /** A queued, preparing or running run, shown live. */
  active: OverviewRun | null;
  /** Received bits/s of the last SPARKLINE_RUNS succeeded runs, oldest first. */
  sparkline: number[];
  /** The oldest firing alert of the link: the card's "Alert" mark. */
  alert: { id: number; title: string; count: number } | null;
  /** The newest start of the link's schedules: the run it started and its result, or why it skipped. */
  lastScheduled: { at: string; outcome: ScheduleRunOutcome; reason: string | null; runId: number | null; experimentId: number | null; status: string | null; receivedBitsPerSecond: number | null } | null;
};

const overviewRunSelect = { id: true, createdAt: true, status: true, options: true, clientSide: true, receivedBitsPerSecond: true } as const;

function toOverviewRun(run: { id: number; createdAt: Date; status: string; options: unknown; clientSide: string; receivedBitsPerSecond: number | null }): OverviewRun {
  const options = parseOptions(run.options);
  return {
    id: run.id,
    createdAt: run.createdAt.toISOString(),
    status: run.status,
    summary: describeOptions(options, directionOf(options, run.clientSide === "b" ? "b" : "a")),
    receivedBitsPerSecond: run.receivedBitsPerSecond,
  };
}

function parseOptions(value: unknown): IperfOptions {
  const parsed = IperfOptionsSchema.safeParse(value);
  // A stored run passed the schema once; a later, stricter schema must not hide it.
  return parsed.success ? parsed.data : ({ protocol: "tcp", parallel: 1, reverse: false, bidir: false, interval: 1, zerocopy: false, ...(value as object) } as IperfOptions);
}

/** Every link with what its card shows: latest result, last run, active run and sparkline (four indexed queries per link). */
export async function listOverviewLinks(): Promise<OverviewLink[]> {
  const links = await listLinks();
  // One read each for every card: the firing alerts, and each link's schedules with their last start.
  const [alerts, schedules] = await Promise.all([openAlertsByLink(), schedulesByLink(links.map((link) => link.id))]);
  return Promise.all(
    links.map(async (link) => {
      const [recent, last, active] = await Promise.all([
        db.run.findMany({
          where: { linkId: link.id, status: "succeeded", receivedBitsPerSecond: { not: null } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: SPARKLINE_RUNS,
          select: overviewRunSelect,
        }),
        db.run.findFirst({ where: { linkId: link.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: overviewRunSelect }),
        db.run.findFirst({ where: { linkId: link.id, status: { in: ["queued", "preparing", "running"] } }, orderBy: { id: "desc" }, select: overviewRunSelect }),
      ]);
      const newest = recent[0];
      const linkAlerts = alerts.get(link.id) ?? [];
      const lastScheduled = (schedules.get(link.id) ?? [])
        .flatMap((schedule) => (schedule.lastRun ? [schedule.lastRun] : []))
        .sort((one, other) => Date.parse(other.at) - Date.parse(one.at))[0];
      return {
        id: link.id,
        name: link.name,
        speedMbps: link.speedMbps,
        a: { hostId: link.a.host.id, hostName: link.a.host.name, nicName: link.a.nic.name },
        b: { hostId: link.b.host.id, hostName: link.b.host.name, nicName: link.b.nic.name },
        latest: newest ? { ...toOverviewRun(newest), lineRatePercent: lineRatePercent(newest.receivedBitsPerSecond, link.speedMbps) } : null,
        last: last ? toOverviewRun(last) : null,
        active: active ? toOverviewRun(active) : null,
        sparkline: recent.map((run) => run.receivedBitsPerSecond ?? 0).reverse(),
        alert: linkAlerts[0] ? { id: linkAlerts[0].id, title: linkAlerts[0].title, count: linkAlerts.length } : null,
        lastScheduled: lastScheduled
          ? {
              at: lastScheduled.at,
              outcome: lastScheduled.outcome,
              reason: lastScheduled.reason,
              runId: lastScheduled.runId,
              experimentId: lastScheduled.experimentId,
              status: lastScheduled.status,
              receivedBitsPerSecond: lastScheduled.receivedBitsPerSecond,
            }
          : null,
      };
    }),
  );
}

// ---------------------------------------------------------------- timeline

export const TIMELINE_RANGES = { "6h": 6, "24h": 24, "7d": 168 } as const;
export type TimelineRange = keyof typeof TIMELINE_RANGES;

/** Runs drawn at most (the newest); samples read per run at most; points sent to the browser at most. */
export const TIMELINE_MAX_RUNS = 200;
export const TIMELINE_SAMPLES_PER_RUN = 300;
export const TIMELINE_MAX_POINTS = 4000;

export type TimelineRun = { runId: number; linkId: number; points: Array<[number, number]> };

export function parseTimelineRange(value: unknown): TimelineRange {
  return typeof value === "string" && value in TIMELINE_RANGES ? (value as TimelineRange) : "24h";
}

/**
 * Each run of the range as its forward intervals on the wall clock (start + interval end),
 * with a zero before and after so a run is a shape, not a line joined to the next one.
 * Bounded: the newest TIMELINE_MAX_RUNS runs, every k-th sample (SQL picks by seq) so a
 * one-hour 36,000-interval run reads about TIMELINE_SAMPLES_PER_RUN rows, and the total
 * points capped by thinning each run further.
 */
export async function getTimeline(range: TimelineRange, now: Date = new Date()): Promise<{ from: number; to: number; runs: TimelineRun[] }> {
  const from = now.getTime() - TIMELINE_RANGES[range] * 3600 * 1000;
  const runs = await db.run.findMany({
    where: { OR: [{ startedAt: { gte: new Date(from) } }, { endedAt: { gte: new Date(from) } }], status: { in: ["running", "succeeded", "failed", "cancelled", "interrupted"] } },
    orderBy: { id: "desc" },
    take: TIMELINE_MAX_RUNS,
    select: { id: true, linkId: true, startedAt: true, createdAt: true },
  });
  if (runs.length === 0) return { from, to: now.getTime(), runs: [] };
  const ids = runs.map((run) => run.id);
  const counts = await db.$queryRaw<Array<{ runId: number; total: number | bigint }>>`SELECT "runId", COUNT(*) AS "total" FROM "Sample" WHERE "runId" IN (${Prisma.join(ids)}) GROUP BY "runId"`;
  const countOf = new Map(counts.map((row) => [Number(row.runId), Number(row.total)]));
  const perRunPoints = Math.max(8, Math.floor(TIMELINE_MAX_POINTS / runs.length) - 2);
  const result = await Promise.all(
    runs.map(async (run): Promise<TimelineRun> => {
      const total = countOf.get(run.id) ?? 0;
      if (total === 0) return { runId: run.id, linkId: run.linkId, points: [] };
      const stride = Math.max(1, Math.ceil(total / TIMELINE_SAMPLES_PER_RUN));
      const samples = await db.$queryRaw<Array<{ start: number; end: number; bitsPerSecond: number }>>`
        SELECT "start", "end", "bitsPerSecond" FROM "Sample"
        WHERE "runId" = ${run.id} AND "direction" = 'forward' AND "omitted" = 0 AND ("seq" % ${stride}) = 0
        ORDER BY "seq" ASC LIMIT ${TIMELINE_SAMPLES_PER_RUN * 2}`;
      const startMs = (run.startedAt ?? run.createdAt).getTime();
      const thinned = thin(samples, perRunPoints);
      if (thinned.length === 0) return { runId: run.id, linkId: run.linkId, points: [] };
      const points: Array<[number, number]> = [[startMs + thinned[0]!.start * 1000, 0]];
      for (const sample of thinned) points.push([startMs + sample.end * 1000, sample.bitsPerSecond]);
      points.push([startMs + thinned.at(-1)!.end * 1000 + 1, 0]);
      return { runId: run.id, linkId: run.linkId, points };
    }),
  );
  return { from, to: now.getTime(), runs: result.filter((run) => run.points.length > 0).reverse() };
}

/** Averages consecutive samples into at most `limit` buckets (rates: the mean keeps the area). */
function thin<T extends { start: number; end: number; bitsPerSecond: number }>(samples: T[], limit: number): Array<{ start: number; end: number; bitsPerSecond: number }> {
  if (samples.length <= limit) return samples;
  const size = Math.ceil(samples.length / limit);
  const result: Array<{ start: number; end: number; bitsPerSecond: number }> = [];
  for (let from = 0; from < samples.length; from += size) {
    const bucket = samples.slice(from, from + size);
    result.push({ start: bucket[0]!.start, end: bucket.at(-1)!.end, bitsPerSecond: bucket.reduce((sum, entry) => sum + entry.bitsPerSecond, 0) / bucket.length });
  }
  return result;
}

// ---------------------------------------------------------------- the whole overview

/**
 * Everything the overview shows but the hosts table: the counts, every link's card and the
 * timeline of `range`. The page renders it first and `GET /api/overview` answers it after,
 * so both read it the same way.
 */
export async function getOverview({ range, now = new Date() }: { range: TimelineRange; now?: Date }) {
  const [counts, links, timeline] = await Promise.all([getOverviewCounts(), listOverviewLinks(), getTimeline(range, now)]);
  return { range, counts, links, timeline };
}
export type Overview = Awaited<ReturnType<typeof getOverview>>;
