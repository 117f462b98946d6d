import "server-only";
import { describeOptions } from "@/lib/runs/describe";
import { TIMELINE_RANGES, type TimelineRange, type TimelineZoom } from "@/lib/overview/contract";
import { openAlertsByLink } from "@/lib/alerts/alerts";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf";
import { ACTIVE_RUN_STATUSES, directionOf } from "@/lib/runs/contract";
import { lineRatePercent } from "@/lib/runs/serialize";
import type { ScheduleRunOutcome } from "@/lib/schedules/contract";
import { schedulesByLink } from "@/lib/schedules/store";
import {
  dialect,
  jsonArray,
  jsonGroupArray,
  jsonNested,
  jsonTimestamp,
  jsonValue,
  timestampParam,
} from "@/lib/sql-dialect";

/** The counts the overview's header shows. */
export async function getOverviewCounts() {
  // A plain COUNT(*), which SQLite answers from the size of its smallest index; Prisma's count wraps
  // the table in a subquery and steps through every entry (25 ms at 1.3 million runs, not 5).
  const [row] = await db.$queryRaw<Array<{ hosts: number | bigint; links: number | bigint; runs: number | bigint }>>`
    SELECT (SELECT COUNT(*) FROM "Host") AS "hosts", (SELECT COUNT(*) FROM "Link") AS "links", (SELECT COUNT(*) FROM "Run") AS "runs"`;
  return { hosts: Number(row?.hosts ?? 0), links: Number(row?.links ?? 0), runs: Number(row?.runs ?? 0) };
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
    console.warn(
      `wirespeed: ignoring WIRESPEED_WARN_PERCENT=${env.WIRESPEED_WARN_PERCENT} / ` +
        `WIRESPEED_BAD_PERCENT=${env.WIRESPEED_BAD_PERCENT} (need 0 < bad ≤ warn ≤ 100); using 90 / 70`,
    );
    return DEFAULT_THRESHOLDS;
  }
  return { warnPercent: warn, badPercent: bad };
}

export type OverviewRun = {
  id: number;
  createdAt: string;
  status: string;
  summary: string;
  receivedBitsPerSecond: number | null;
};

export type OverviewLink = {
  id: number;
  name: string;
  speedMbps: number;
  a: { hostId: number; hostName: string; nicName: string };
  b: { hostId: number; hostName: string; nicName: string };
  /** The device at one end (a host with access "device"), whose cards the overview shows apart; null otherwise. */
  device: { hostId: number; name: string; kind: string } | null;
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
  lastScheduled: {
    at: string;
    outcome: ScheduleRunOutcome;
    reason: string | null;
    runId: number | null;
    experimentId: number | null;
    status: string | null;
    receivedBitsPerSecond: number | null;
  } | null;
};

/** A run of a card, as SQL hands it: `json_array(id, createdAt, status, options, clientSide, receivedBitsPerSecond)`. */
type RunTuple = [number, string, string, unknown, string, number | null];

// The run of a card as one JSON value, so that a single statement can bring every card's runs.
// A function, not a constant: the phrase depends on the database of the app running at the time.
const runTupleSql = () =>
  jsonArray([
    Prisma.sql`r."id"`,
    jsonTimestamp(Prisma.sql`r."createdAt"`),
    Prisma.sql`r."status"`,
    jsonNested(Prisma.sql`r."options"`),
    Prisma.sql`r."clientSide"`,
    Prisma.sql`r."receivedBitsPerSecond"`,
  ]);

function toOverviewRun([id, createdAt, status, options, clientSide, receivedBitsPerSecond]: RunTuple): OverviewRun {
  const parsed = parseOptions(options);
  return {
    id,
    createdAt: new Date(createdAt).toISOString(),
    status,
    summary: describeOptions(parsed, directionOf(parsed, clientSide === "b" ? "b" : "a")),
    receivedBitsPerSecond,
  };
}

function parseOptions(value: unknown): IperfOptions {
  const parsed = IperfOptionsSchema.safeParse(value);
  // A stored run passed the schema once; a later, stricter schema must not hide it.
  return parsed.success
    ? parsed.data
    : ({
        protocol: "tcp",
        parallel: 1,
        reverse: false,
        bidir: false,
        interval: 1,
        zerocopy: false,
        ...(value as object),
      } as IperfOptions);
}

type CardRow = {
  id: number;
  name: string;
  speedMbps: number;
  aHostId: number;
  aHostName: string;
  aNicName: string;
  bHostId: number;
  bHostName: string;
  bNicName: string;
  aAccess: string;
  bAccess: string;
  aKind: string | null;
  bKind: string | null;
  /** JSON (text on SQLite, parsed on Postgres): the received rates of the newest SPARKLINE_RUNS succeeded runs, newest first */
  sparkline: unknown;
  /** JSON RunTuples, or null */
  latest: unknown;
  last: unknown;
  active: unknown;
};

/**
 * Every link with what its card shows: latest result, last run, active run and sparkline. One
 * statement reads them all, each through an index that starts with the link (and the status):
 * four queries per link cost about 3 ms each in Prisma, 600 ms for 50 links.
 */
export async function listOverviewLinks(): Promise<OverviewLink[]> {
  const runTuple = runTupleSql();
  const rows = await db.$queryRaw<CardRow[]>`
    SELECT l."id", l."name", l."speedMbps",
      ah."id" AS "aHostId", ah."name" AS "aHostName", an."name" AS "aNicName",
      bh."id" AS "bHostId", bh."name" AS "bHostName", bn."name" AS "bNicName",
      ah."access" AS "aAccess", ah."kind" AS "aKind", bh."access" AS "bAccess", bh."kind" AS "bKind",
      (SELECT ${jsonGroupArray(Prisma.sql`t."rate" ORDER BY t."createdAt" DESC, t."id" DESC`)} FROM (
        SELECT r."id", r."createdAt", r."receivedBitsPerSecond" AS "rate" FROM "Run" r
        WHERE r."linkId" = l."id" AND r."status" = 'succeeded' AND r."receivedBitsPerSecond" IS NOT NULL
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT ${SPARKLINE_RUNS}) t) AS "sparkline",
      (SELECT ${runTuple} FROM "Run" r WHERE r."linkId" = l."id" AND r."status" = 'succeeded' AND r."receivedBitsPerSecond" IS NOT NULL
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "latest",
      (SELECT ${runTuple} FROM "Run" r WHERE r."linkId" = l."id" ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "last",
      (SELECT ${runTuple} FROM "Run" r
        WHERE r."linkId" = l."id" AND r."status" IN (${Prisma.join([...ACTIVE_RUN_STATUSES])}) ORDER BY r."id" DESC LIMIT 1) AS "active"
    FROM "Link" l
    JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Host" ah ON ah."id" = an."hostId"
    JOIN "Nic" bn ON bn."id" = l."bNicId" JOIN "Host" bh ON bh."id" = bn."hostId"
    ORDER BY l."name" ASC, l."id" ASC`;
  // One read each for every card: the firing alerts, and each link's schedules with their last start.
  const [alerts, schedules] = await Promise.all([
    openAlertsByLink(),
    schedulesByLink(rows.map((row) => Number(row.id))),
  ]);
  const tuple = (value: unknown) => (value === null ? null : jsonValue<RunTuple>(value));
  return rows.map((row) => {
    const id = Number(row.id);
    const newest = tuple(row.latest);
    const last = tuple(row.last);
    const active = tuple(row.active);
    const linkAlerts = alerts.get(id) ?? [];
    const lastScheduled = (schedules.get(id) ?? [])
      .flatMap((schedule) => (schedule.lastRun ? [schedule.lastRun] : []))
      .sort((one, other) => Date.parse(other.at) - Date.parse(one.at))[0];
    return {
      id,
      name: row.name,
      speedMbps: Number(row.speedMbps),
      a: { hostId: Number(row.aHostId), hostName: row.aHostName, nicName: row.aNicName },
      b: { hostId: Number(row.bHostId), hostName: row.bHostName, nicName: row.bNicName },
      device:
        row.bAccess === "device"
          ? { hostId: Number(row.bHostId), name: row.bHostName, kind: row.bKind ?? "other" }
          : row.aAccess === "device"
            ? { hostId: Number(row.aHostId), name: row.aHostName, kind: row.aKind ?? "other" }
            : null,
      latest: newest
        ? { ...toOverviewRun(newest), lineRatePercent: lineRatePercent(newest[5], Number(row.speedMbps)) }
        : null,
      last: last ? toOverviewRun(last) : null,
      active: active ? toOverviewRun(active) : null,
      sparkline: jsonValue<number[]>(row.sparkline).reverse(),
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
  });
}

// ---------------------------------------------------------------- timeline

/** Runs drawn at most (the newest); samples read per run at most; points sent to the browser at most. */
export const TIMELINE_MAX_RUNS = 200;
export const TIMELINE_SAMPLES_PER_RUN = 300;
export const TIMELINE_MAX_POINTS = 4000;
/** Runs the timeline draws: those that have started. */
const TIMELINE_STATUSES = ["running", "succeeded", "failed", "cancelled", "interrupted"];

export type TimelineRun = { runId: number; linkId: number; points: Array<[number, number]> };

/**
 * Each run of the range (or of `zoom`, a span of it) as its forward intervals on the wall clock
 * (start + interval end), with a zero before and after so a run is a shape, not a line joined to
 * the next one. Bounded: the newest TIMELINE_MAX_RUNS runs, every k-th sample (SQL picks by seq)
 * so a one-hour 36,000-interval run reads about TIMELINE_SAMPLES_PER_RUN rows, and the total
 * points capped at TIMELINE_MAX_POINTS by thinning the longest runs first (timelineRunLimit), so
 * that short tests keep their intervals. A zoom reads only the runs in its span, so each is drawn finer.
 */
export async function getTimeline(
  range: TimelineRange,
  now: Date = new Date(),
  zoom: TimelineZoom | null = null,
): Promise<{ from: number; to: number; runs: TimelineRun[] }> {
  const from = zoom ? zoom.from : now.getTime() - TIMELINE_RANGES[range] * 3600 * 1000;
  const to = zoom ? zoom.to : now.getTime();
  // A run is in the range when it ended in it or, not ended yet, started in it (it cannot end before
  // it starts): both found in the (endedAt, startedAt) index, then the newest read by id. Asked as
  // one condition, SQLite chose the status index and read every run. A zoom also ends the span:
  // the run started before its end.
  const fromAt = timestampParam(from);
  const startedBy = zoom ? Prisma.sql`AND "startedAt" <= ${timestampParam(to)}` : Prisma.empty;
  const runs = await db.$queryRaw<Array<{ id: number; linkId: number; startedAt: Date | null; createdAt: Date }>>`
    SELECT "id", "linkId", "startedAt", "createdAt" FROM "Run"
    WHERE "id" IN (SELECT "id" FROM "Run" WHERE "endedAt" >= ${fromAt} ${startedBy}
      UNION ALL SELECT "id" FROM "Run" WHERE "endedAt" IS NULL AND "startedAt" >= ${fromAt} ${startedBy})
      AND "status" IN (${Prisma.join(TIMELINE_STATUSES)})
    ORDER BY "id" DESC LIMIT ${TIMELINE_MAX_RUNS}`;
  if (runs.length === 0) return { from, to, runs: [] };
  const ids = runs.map((run) => Number(run.id));
  const counts = await db.$queryRaw<
    Array<{ runId: number; total: number | bigint }>
  >`SELECT "runId", COUNT(*) AS "total" FROM "Sample" WHERE "runId" IN (${Prisma.join(ids)}) GROUP BY "runId"`;
  const strides = counts.map((row) => ({
    runId: Number(row.runId),
    stride: Math.max(1, Math.ceil(Number(row.total) / TIMELINE_SAMPLES_PER_RUN)),
  }));
  // Every run's every k-th sample in one read, not one read per run.
  const sampleRows = strides.length
    ? await db.$queryRaw<Array<{ runId: number; start: number; end: number; bitsPerSecond: number }>>`
        WITH "picks"("runId", "stride") AS (VALUES ${Prisma.join(
          // CAST on Postgres: nothing else in VALUES says these are numbers, and it would take them as text.
          // Not on SQLite: there the CAST made it scan every sample's index entry (a Bloom filter on the
          // picks) instead of seeking each run's: 830 ms for a year's samples (bench/growth.bench.ts), 5 ms without.
          strides.map(({ runId, stride }) =>
            dialect() === "postgres"
              ? Prisma.sql`(CAST(${runId} AS INTEGER), CAST(${stride} AS INTEGER))`
              : Prisma.sql`(${runId}, ${stride})`,
          ),
        )})
        SELECT s."runId", s."start", s."end", s."bitsPerSecond" FROM "picks" p JOIN "Sample" s ON s."runId" = p."runId"
        WHERE s."direction" = 'forward' AND s."omitted" = FALSE AND (s."seq" % p."stride") = 0
        ORDER BY s."runId", s."seq"`
    : [];
  const samplesOf = new Map<number, Array<{ start: number; end: number; bitsPerSecond: number }>>();
  for (const row of sampleRows) {
    const samples = samplesOf.get(Number(row.runId)) ?? [];
    if (samples.length < TIMELINE_SAMPLES_PER_RUN * 2)
      samples.push({ start: row.start, end: row.end, bitsPerSecond: row.bitsPerSecond });
    samplesOf.set(Number(row.runId), samples);
  }
  const perRunPoints = timelineRunLimit(
    runs.map((run) => samplesOf.get(Number(run.id))?.length ?? 0),
    TIMELINE_MAX_POINTS,
  );
  const result = runs.map((run): TimelineRun => {
    const thinned = thin(samplesOf.get(Number(run.id)) ?? [], perRunPoints);
    if (thinned.length === 0) return { runId: Number(run.id), linkId: Number(run.linkId), points: [] };
    const startMs = (run.startedAt ?? run.createdAt).getTime();
    const points: Array<[number, number]> = [[startMs + thinned[0]!.start * 1000, 0]];
    for (const sample of thinned) points.push([startMs + sample.end * 1000, sample.bitsPerSecond]);
    points.push([startMs + thinned.at(-1)!.end * 1000 + 1, 0]);
    return { runId: Number(run.id), linkId: Number(run.linkId), points };
  });
  return { from, to, runs: result.filter((run) => run.points.length > 0).reverse() };
}

/**
 * The most intervals any one run keeps so that all of them, with a zero before and after each,
 * fit in `budget` points: the runs shorter than an equal share keep every interval and the longer
 * ones share what is left (at least 8 each), so a 10 s test beside an hour-long one keeps its shape.
 */
export function timelineRunLimit(lengths: number[], budget: number): number {
  const sorted = lengths.filter((length) => length > 0).sort((one, other) => one - other);
  let left = budget - 2 * sorted.length;
  for (const [index, length] of sorted.entries()) {
    const share = Math.floor(left / (sorted.length - index));
    if (length > share) return Math.max(8, share);
    left -= length;
  }
  return Math.max(8, sorted.at(-1) ?? 0);
}

/** Averages consecutive samples into at most `limit` buckets (rates: the mean keeps the area). */
function thin<T extends { start: number; end: number; bitsPerSecond: number }>(
  samples: T[],
  limit: number,
): Array<{ start: number; end: number; bitsPerSecond: number }> {
  if (samples.length <= limit) return samples;
  const size = Math.ceil(samples.length / limit);
  const result: Array<{ start: number; end: number; bitsPerSecond: number }> = [];
  for (let from = 0; from < samples.length; from += size) {
    const bucket = samples.slice(from, from + size);
    result.push({
      start: bucket[0]!.start,
      end: bucket.at(-1)!.end,
      bitsPerSecond: bucket.reduce((sum, entry) => sum + entry.bitsPerSecond, 0) / bucket.length,
    });
  }
  return result;
}

// ---------------------------------------------------------------- the whole overview

/**
 * Everything the overview shows but the hosts table: the counts, every link's card and the
 * timeline of `range`, or of `zoom` within it. The page renders it first and `GET /api/overview`
 * answers it after, so both read it the same way.
 */
export async function getOverview({
  range,
  zoom = null,
  now = new Date(),
}: {
  range: TimelineRange;
  zoom?: TimelineZoom | null;
  now?: Date;
}) {
  const [counts, links, timeline] = await Promise.all([
    getOverviewCounts(),
    listOverviewLinks(),
    getTimeline(range, now, zoom),
  ]);
  return { range, zoom, counts, links, timeline };
}
export type Overview = Awaited<ReturnType<typeof getOverview>>;
