import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { BASELINE_MIN_RUNS } from "@/lib/alerts/contract";
import { median } from "@/lib/experiments/kinds/figures";
import { ACTIVE_RUN_STATUSES, FINAL_RUN_STATUSES } from "@/lib/runs/contract";
import { jsonArray, jsonGroupArray, jsonValue, millisecondsBetween, unindexed } from "@/lib/sql-dialect";

// What GET /metrics reports, read from the database at each scrape: a handful of queries whose
// cost grows with the number of links and test signatures, not with the number of runs (the
// per-signature reads walk the index on (linkId, signature, status, …) from the newest run).

export type FinalRunStatus = (typeof FINAL_RUN_STATUSES)[number];

/** Upper bounds of wirespeed_run_duration_seconds, in seconds: a 1 s test to an hour-long soak. */
export const RUN_DURATION_BUCKETS = [1, 2.5, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600] as const;

/** A test signature (lib/runs/signature.ts) as labels: "udp b-to-a P4 1000000000". */
export type SignatureLabels = { protocol: string; direction: string; parallel: string; bitrate: string };

/** The newest succeeded run of a signature outside experiments (any source). */
export type LastResult = {
  runId: number;
  receivedBitsPerSecond: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  /** 0..1; lostPackets / packets, else from lostPercent */
  lostRatio: number | null;
};

export type SignatureMetrics = {
  signature: string;
  labels: SignatureLabels;
  last: LastResult | null;
  /** As lib/alerts/baseline.ts computes it; null with fewer than BASELINE_MIN_RUNS runs. */
  baselineBitsPerSecond: number | null;
};

export type LinkMetrics = {
  id: number;
  name: string;
  speedMbps: number;
  aHost: string;
  bHost: string;
  signatures: SignatureMetrics[];
  /** endedAt, else createdAt, of the newest finished run (any status, any source) */
  lastRunAt: Date | null;
  alertFiring: boolean;
};

export type MetricsSnapshot = {
  links: LinkMetrics[];
  /** Finished runs that Wirespeed ran (source "wirespeed"), by final status. */
  runsByStatus: Record<FinalRunStatus, number>;
  /** endedAt − startedAt of those of them that have both: cumulative counts per RUN_DURATION_BUCKETS bound. */
  durations: { buckets: number[]; count: number; sumSeconds: number };
  /** preparing or running */
  active: number;
  queued: number;
  /** Hosts with a check on record (Host.checkedAt). */
  hosts: { name: string; reachable: boolean }[];
};

/** "tcp a-to-b P1" → { protocol: "tcp", direction: "a-to-b", parallel: "1", bitrate: "" }; UDP keeps its bitrate. */
export function signatureLabels(signature: string): SignatureLabels {
  const [protocol = "tcp", direction = "a-to-b", streams = "P1", bitrate] = signature.split(" ");
  return {
    protocol,
    direction,
    parallel: String(Number(streams.slice(1)) || 1),
    bitrate: protocol === "udp" ? (bitrate ?? "0") : "",
  };
}

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

const finalStatuses = Prisma.join([...FINAL_RUN_STATUSES]);
// The bounds in milliseconds, rounded: julianday's arithmetic is exact to well under a millisecond
// (Postgres's interval exactly), so a 10.000 s run falls in le="10" and not, by a rounding error, in le="15".
const bucketColumns = Prisma.raw(
  RUN_DURATION_BUCKETS.map(
    (bound, index) => `SUM(CASE WHEN "ms" <= ${Math.round(bound * 1000)} THEN 1 ELSE 0 END) AS "le${index}"`,
  ).join(", "),
);

/** The totals and durations of finished runs Wirespeed ran (source "wirespeed"), as counted up to a run id. */
type FinishedTotals = {
  byStatus: Record<FinalRunStatus, number>;
  /** cumulative counts per RUN_DURATION_BUCKETS bound, of the runs with both a start and an end */
  buckets: number[];
  count: number;
  sumMs: number;
};
/** What of the totals is kept between scrapes: the runs up to `watermark` but those `open` then, `counted` of them. */
type KeptTotals = FinishedTotals & { watermark: number; open: number[]; counted: number };

function emptyTotals(): FinishedTotals {
  return {
    byStatus: Object.fromEntries(FINAL_RUN_STATUSES.map((status) => [status, 0])) as Record<FinalRunStatus, number>,
    buckets: RUN_DURATION_BUCKETS.map(() => 0),
    count: 0,
    sumMs: 0,
  };
}

/**
 * The totals of the finished Wirespeed runs that `where` picks, added to `into`; how many runs they
 * were. `byId`: `where` picks a few runs by id, so SQLite is to find them by id, not walk the index
 * of every finished run.
 */
async function addFinished(into: FinishedTotals, where: Prisma.Sql, { byId = false } = {}): Promise<number> {
  // A unary + keeps SQLite from using that column's index.
  const finishedRuns = byId
    ? Prisma.sql`${unindexed(Prisma.sql`"source"`)} = 'wirespeed' AND ${unindexed(Prisma.sql`"status"`)} IN (${finalStatuses})`
    : Prisma.sql`"source" = 'wirespeed' AND "status" IN (${finalStatuses})`;
  // MATERIALIZED: flattened, the duration's expression would be computed again in each bucket's SUM.
  const rows = await db.$queryRaw<
    Array<Record<string, unknown> & { status: string; total: unknown; timed: unknown; sumMs: unknown }>
  >`
    WITH "finished" AS MATERIALIZED (
      SELECT "status", ROUND(${millisecondsBetween(Prisma.sql`"startedAt"`, Prisma.sql`"endedAt"`)}) AS "ms"
      FROM "Run" WHERE ${finishedRuns} AND (${where}))
    SELECT "status", COUNT(*) AS "total", COUNT("ms") AS "timed", SUM("ms") AS "sumMs", ${bucketColumns}
    FROM "finished" GROUP BY "status"`;
  let runs = 0;
  for (const row of rows) {
    const total = Number(row.total);
    runs += total;
    if ((FINAL_RUN_STATUSES as readonly string[]).includes(row.status))
      into.byStatus[row.status as FinalRunStatus] += total;
    into.count += Number(row.timed);
    into.sumMs += Number(row.sumMs ?? 0);
    RUN_DURATION_BUCKETS.forEach((_, index) => (into.buckets[index]! += Number(row[`le${index}`] ?? 0)));
  }
  return runs;
}

// Per database client (tests open several in one process).
const keptTotals = new WeakMap<object, KeptTotals>();

/**
 * The totals and durations of the finished runs Wirespeed ran. Reading every run's two dates was
 * the slowest part of a scrape, and a finished run never changes: so what was counted up to a run
 * id is kept, and each scrape reads only the runs past it and those that were still going then;
 * one count of every finished run then shows that none of those counted before was deleted (else
 * all of them are read again). `open` is read before the runs are counted, and they are counted
 * without it, so a run that ends meanwhile is counted once, by the next scrape.
 */
async function finishedTotals(): Promise<FinishedTotals> {
  const [newest] = await db.$queryRaw<Array<{ id: unknown }>>`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Run"`;
  const watermark = Number(newest?.id ?? 0);
  const open = (
    await db.$queryRaw<
      Array<{ id: unknown }>
    >`SELECT "id" FROM "Run" WHERE "status" IN (${Prisma.join([...ACTIVE_RUN_STATUSES])}) AND +"id" <= ${watermark}`
  ).map((row) => Number(row.id));
  const idsIn = (ids: number[]) => Prisma.join(ids.length > 0 ? ids : [-1]);
  const kept = keptTotals.get(db);
  if (kept) {
    const next: KeptTotals = { ...kept, byStatus: { ...kept.byStatus }, buckets: [...kept.buckets], watermark, open };
    const since = Prisma.sql`(("id" > ${kept.watermark} AND "id" <= ${watermark}) OR "id" IN (${idsIn(kept.open)})) AND +"id" NOT IN (${idsIn(open)})`;
    next.counted += await addFinished(next, since, { byId: true });
    // Every finished run is one now counted: none of those counted before was deleted.
    const [all] = await db.$queryRaw<
      Array<{ runs: unknown }>
    >`SELECT COUNT(*) AS "runs" FROM "Run" WHERE "source" = 'wirespeed' AND "status" IN (${finalStatuses})`;
    if (Number(all?.runs) === next.counted) {
      keptTotals.set(db, next);
      return next;
    }
  }
  const totals = emptyTotals();
  // `+"id"`: a bound on the id must not make SQLite walk the table (its rows hold the outputs)
  // rather than the index on (source, status, startedAt, endedAt), which has the id too.
  const counted = await addFinished(totals, Prisma.sql`+"id" <= ${watermark} AND +"id" NOT IN (${idsIn(open)})`);
  const fresh: KeptTotals = { ...totals, watermark, open, counted };
  keptTotals.set(db, fresh);
  return fresh;
}

/** `last` and `runs` are JSON: text on SQLite, parsed on Postgres. */
type SignatureRow = { linkId: number; signature: string; last: unknown; runs: unknown };

type LinkRow = {
  id: number;
  name: string;
  speedMbps: number;
  baselineRuns: number;
  importsInBaseline: boolean | number;
  aHost: string;
  bHost: string;
};

export async function readMetricsSnapshot(): Promise<MetricsSnapshot> {
  // One after another: the client has one SQLite connection, so they would queue anyway.
  const links = await db.$queryRaw<LinkRow[]>`
    SELECT l."id", l."name", l."speedMbps", l."baselineRuns", l."importsInBaseline", ha."name" AS "aHost", hb."name" AS "bHost"
    FROM "Link" l
    JOIN "Nic" na ON na."id" = l."aNicId" JOIN "Host" ha ON ha."id" = na."hostId"
    JOIN "Nic" nb ON nb."id" = l."bNicId" JOIN "Host" hb ON hb."id" = nb."hostId"
    ORDER BY l."id"`;

  // For each signature of each link, from the signature index: the newest succeeded run outside
  // experiments, whatever its source; and its baseline runs as lib/alerts/baseline.ts picks them
  // (the link's last Link.baselineRuns succeeded runs with a received rate, outside experiments,
  // imported ones only where the link counts them), newest first. One query per N in use (a LIMIT
  // cannot read the link's row), usually one. The signatures of a link are found by skipping
  // through the index, one step per signature, not by reading every run.
  const signatureRows: SignatureRow[] = [];
  const lastTuple = jsonArray(
    ["id", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets"].map((column) =>
      Prisma.raw(`y."${column}"`),
    ),
  );
  for (const n of new Set(links.map((link) => Number(link.baselineRuns)))) {
    signatureRows.push(
      ...(await db.$queryRaw<SignatureRow[]>`
        WITH RECURSIVE "pairs"("linkId", "signature") AS (
          SELECT l."id", (SELECT MIN(r."signature") FROM "Run" r WHERE r."linkId" = l."id" AND r."signature" IS NOT NULL)
          FROM "Link" l WHERE l."baselineRuns" = ${n}
          UNION ALL
          SELECT p."linkId", (SELECT MIN(r."signature") FROM "Run" r WHERE r."linkId" = p."linkId" AND r."signature" > p."signature")
          FROM "pairs" p WHERE p."signature" IS NOT NULL)
        SELECT p."linkId", p."signature", (
          SELECT ${lastTuple} FROM "Run" y
          WHERE y."linkId" = p."linkId" AND y."signature" = p."signature" AND y."status" = 'succeeded' AND y."experimentId" IS NULL
          ORDER BY y."createdAt" DESC, y."id" DESC LIMIT 1) AS "last", (
          SELECT ${jsonGroupArray(Prisma.sql`t."rate" ORDER BY t."createdAt" DESC, t."id" DESC`)} FROM (
            SELECT y."createdAt", y."id", y."receivedBitsPerSecond" AS "rate" FROM "Run" y
            WHERE y."linkId" = p."linkId" AND y."signature" = p."signature" AND y."status" = 'succeeded' AND y."experimentId" IS NULL
              AND y."receivedBitsPerSecond" IS NOT NULL AND (y."source" = 'wirespeed' OR l."importsInBaseline")
            ORDER BY y."createdAt" DESC, y."id" DESC LIMIT ${n}) t) AS "runs"
        FROM "pairs" p JOIN "Link" l ON l."id" = p."linkId"
        WHERE p."signature" IS NOT NULL`),
    );
  }

  const lastRunRows = await db.$queryRaw<Array<{ linkId: number; at: unknown }>>`
    SELECT l."id" AS "linkId", (
      SELECT COALESCE(r."endedAt", r."createdAt") FROM "Run" r
      WHERE r."linkId" = l."id" AND r."status" IN (${finalStatuses})
      ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "at"
    FROM "Link" l`;

  const firingRows = await db.alert.findMany({
    where: { status: "firing" },
    distinct: ["linkId"],
    select: { linkId: true },
  });

  const finished = await finishedTotals();

  const activeRows = await db.run.groupBy({
    by: ["status"],
    where: { status: { in: [...ACTIVE_RUN_STATUSES] } },
    _count: { _all: true },
  });
  const hosts = await db.host.findMany({
    where: { checkedAt: { not: null } },
    select: { name: true, reachable: true },
    orderBy: { name: "asc" },
  });

  const signaturesOf = new Map<number, SignatureMetrics[]>();
  // Every signature of every link is a row here (the baseline query reads them all).
  for (const row of signatureRows) {
    // Newest first (the aggregate's ORDER BY, SQLite 3.44+), the link's own N of them.
    const rates = jsonValue<number[]>(row.runs ?? "[]");
    const baseline = rates.length >= BASELINE_MIN_RUNS ? median(rates) : null;
    const last = row.last === null ? null : lastResultOf(jsonValue<LastRow>(row.last));
    if (!last && baseline === null) continue;
    const list = signaturesOf.get(Number(row.linkId)) ?? [];
    list.push({
      signature: row.signature,
      labels: signatureLabels(row.signature),
      last,
      baselineBitsPerSecond: baseline,
    });
    signaturesOf.set(Number(row.linkId), list);
  }
  const lastRunAtOf = new Map(lastRunRows.map((row) => [Number(row.linkId), toDate(row.at)]));
  const firing = new Set(firingRows.map((row) => row.linkId));

  const activeOf = (status: string) => activeRows.find((row) => row.status === status)?._count._all ?? 0;

  return {
    links: links.map((link) => ({
      id: Number(link.id),
      name: link.name,
      speedMbps: Number(link.speedMbps),
      aHost: link.aHost,
      bHost: link.bHost,
      signatures: (signaturesOf.get(Number(link.id)) ?? []).sort((a, b) =>
        a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0,
      ),
      lastRunAt: lastRunAtOf.get(Number(link.id)) ?? null,
      alertFiring: firing.has(Number(link.id)),
    })),
    runsByStatus: { ...finished.byStatus },
    durations: { buckets: [...finished.buckets], count: finished.count, sumSeconds: finished.sumMs / 1000 },
    active: activeOf("preparing") + activeOf("listening") + activeOf("running"),
    queued: activeOf("queued"),
    hosts: hosts.map((host) => ({ name: host.name, reachable: host.reachable === true })),
  };
}

/** The newest succeeded run's figures as the query's json_array gives them. */
type LastRow = [
  id: number,
  receivedBitsPerSecond: unknown,
  retransmits: unknown,
  jitterMs: unknown,
  lostPercent: unknown,
  lostPackets: unknown,
  packets: unknown,
];

function lastResultOf([
  id,
  receivedBitsPerSecond,
  retransmits,
  jitterMs,
  lostPercent,
  lostPackets,
  packets,
]: LastRow): LastResult {
  return {
    runId: Number(id),
    receivedBitsPerSecond: toNumber(receivedBitsPerSecond),
    retransmits: toNumber(retransmits),
    jitterMs: toNumber(jitterMs),
    lostRatio: lostRatioOf(toNumber(lostPercent), toNumber(lostPackets), toNumber(packets)),
  };
}

/**
 * The loss as a ratio: from the datagram counts, which iperf3 prints exactly, else the stored percent
 * (runs stored before the counts gave the percent kept the 2 digits of the client's text: "13%").
 */
function lostRatioOf(percent: number | null, lost: number | null, packets: number | null): number | null {
  if (lost !== null && packets !== null && packets > 0) return lost / packets;
  return percent === null ? null : percent / 100;
}
