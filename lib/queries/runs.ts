import "server-only";
import { downsample, DISPLAY_POINTS, SeriesBuilder, type SeriesPoint } from "@/components/charts/series";
import { db } from "@/lib/db";
import { addressesOf } from "@/lib/inventory/nics";
import { Prisma, type Run } from "@/lib/generated/prisma/client";
import { IperfOptionsSchema, type IperfOptions, type IperfStreamSample } from "@/lib/iperf";
import { runEngine } from "@/lib/runs";
import { directionOf, type ClientSide, type RunDirection } from "@/lib/runs/request";
import { lineRatePercent, runJson, type RunStatus } from "@/lib/runs/serialize";

export type RunListItem = Awaited<ReturnType<typeof listRuns>>["runs"][number];

/** Runs across all links, newest first, one page at a time. */
export async function listRuns({ page = 1, pageSize = 50 }: { page?: number; pageSize?: number } = {}) {
  const [runs, total] = await Promise.all([
    db.run.findMany({
      orderBy: { createdAt: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        status: true,
        createdAt: true,
        receivedBitsPerSecond: true,
        link: { select: { id: true, name: true, speedMbps: true } },
      },
    }),
    db.run.count(),
  ]);
  return { runs, total, page, pageSize };
}

const runLinkSelect = { select: { id: true, name: true, speedMbps: true } } as const;

/** One run as the API shows it, with both raw outputs; null when there is none. */
export async function getRunDetail(id: number) {
  const run = await db.run.findUnique({ where: { id }, include: { link: runLinkSelect } });
  if (!run) return null;
  return { ...runJson(run, run.link), output: { server: run.serverOutput, client: run.clientOutput } };
}

/** A link's runs, newest first, one page at a time (without raw output). */
export async function listLinkRuns({ linkId, page = 1, pageSize = 50 }: { linkId: number; page?: number; pageSize?: number }) {
  const [runs, total] = await Promise.all([
    db.run.findMany({
      where: { linkId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      omit: { serverOutput: true, clientOutput: true },
      include: { link: runLinkSelect },
    }),
    db.run.count({ where: { linkId } }),
  ]);
  return { runs: runs.map((run) => runJson({ ...run, serverOutput: "", clientOutput: "" }, run.link)), total, page, pageSize };
}

/** A run's samples in order, from sequence `after` on, at most `limit`. */
export async function listRunSamples({ runId, after = 0, limit = 1000 }: { runId: number; after?: number; limit?: number }) {
  return db.sample.findMany({
    where: { runId, seq: { gte: after } },
    orderBy: { seq: "asc" },
    take: limit,
    omit: { id: true, runId: true },
  });
}

// ---------------------------------------------------------------- pages: link page, run page, runs list

/** How many rows the dashboard's run tables show per page. */
export const RUN_PAGE_SIZE = 25;

export type RunFilters = { protocol?: "tcp" | "udp"; direction?: RunDirection; parallel?: number; status?: RunStatus; linkId?: number };

/** Run row of a table: figures only, no raw output. */
export type RunRow = {
  id: number;
  linkId: number;
  linkName: string;
  linkSpeedMbps: number;
  status: RunStatus;
  createdAt: string;
  options: IperfOptions;
  clientSide: ClientSide;
  direction: RunDirection;
  receivedBitsPerSecond: number | null;
  reverseReceivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPercent: number | null;
  errorKind: string | null;
  /** 0 running, 1 next, …; null when not waiting in its link's queue */
  queuePosition: number | null;
};

function parseOptions(value: unknown): IperfOptions {
  const parsed = IperfOptionsSchema.safeParse(value);
  // A stored run always passed the schema; a later, stricter schema must not hide it from the history.
  return parsed.success ? parsed.data : ({ protocol: "tcp", parallel: 1, reverse: false, bidir: false, interval: 1, zerocopy: false, ...(value as object) } as IperfOptions);
}

// Filters on the options JSON: SQLite's json_extract, since Prisma cannot filter inside JSON on SQLite.
function runWhereSql(filters: RunFilters): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`1 = 1`];
  if (filters.linkId !== undefined) conditions.push(Prisma.sql`"linkId" = ${filters.linkId}`);
  if (filters.status !== undefined) conditions.push(Prisma.sql`"status" = ${filters.status}`);
  if (filters.protocol !== undefined) conditions.push(Prisma.sql`COALESCE(json_extract("options", '$.protocol'), 'tcp') = ${filters.protocol}`);
  if (filters.parallel !== undefined) conditions.push(Prisma.sql`COALESCE(json_extract("options", '$.parallel'), 1) = ${filters.parallel}`);
  if (filters.direction === "bidir") conditions.push(Prisma.sql`COALESCE(json_extract("options", '$.bidir'), 0) = 1`);
  else if (filters.direction !== undefined) {
    // a-to-b: the client on a sends (no -R), or the client on b receives (-R).
    const isReverseWanted = filters.direction === "a-to-b" ? 1 : 0;
    conditions.push(Prisma.sql`COALESCE(json_extract("options", '$.bidir'), 0) = 0`);
    conditions.push(
      Prisma.sql`(CASE WHEN "clientSide" = 'b' THEN 1 ELSE 0 END) = (CASE WHEN COALESCE(json_extract("options", '$.reverse'), 0) = 1 THEN ${isReverseWanted} ELSE ${1 - isReverseWanted} END)`,
    );
  }
  return Prisma.join(conditions, " AND ");
}

function toRunRow(run: Omit<Run, "serverOutput" | "clientOutput"> & { link: { id: number; name: string; speedMbps: number } }): RunRow {
  const options = parseOptions(run.options);
  const clientSide = (run.clientSide === "b" ? "b" : "a") as ClientSide;
  const status = run.status as RunStatus;
  return {
    id: run.id,
    linkId: run.link.id,
    linkName: run.link.name,
    linkSpeedMbps: run.link.speedMbps,
    status,
    createdAt: run.createdAt.toISOString(),
    options,
    clientSide,
    direction: directionOf(options, clientSide),
    receivedBitsPerSecond: run.receivedBitsPerSecond,
    reverseReceivedBitsPerSecond: run.reverseReceivedBitsPerSecond,
    lineRatePercent: lineRatePercent(run.receivedBitsPerSecond, run.link.speedMbps),
    retransmits: run.retransmits,
    jitterMs: run.jitterMs,
    lostPercent: run.lostPercent,
    errorKind: run.errorKind,
    queuePosition: status === "queued" ? runEngine.queuePosition(run.link.id, run.id) : null,
  };
}

/**
 * One page of runs, newest first, filtered by link, status and options. The ids come
 * from one indexed SQL query; the rows from Prisma, without raw output.
 */
export async function listRunRows({ filters = {}, page = 1, pageSize = RUN_PAGE_SIZE }: { filters?: RunFilters; page?: number; pageSize?: number }) {
  const where = runWhereSql(filters);
  const [idRows, countRows] = await Promise.all([
    db.$queryRaw<Array<{ id: number }>>`SELECT "id" FROM "Run" WHERE ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    db.$queryRaw<Array<{ total: number | bigint }>>`SELECT COUNT(*) AS "total" FROM "Run" WHERE ${where}`,
  ]);
  const ids = idRows.map((row) => Number(row.id));
  const runs = ids.length
    ? await db.run.findMany({ where: { id: { in: ids } }, omit: { serverOutput: true, clientOutput: true }, include: { link: runLinkSelect } })
    : [];
  const byId = new Map(runs.map((run) => [run.id, run]));
  const rows = ids.map((id) => byId.get(id)).filter((run) => run !== undefined).map(toRunRow);
  return { rows, total: Number(countRows[0]?.total ?? 0), page, pageSize };
}

export type LinkHistoryPoint = { id: number; time: string; receivedBitsPerSecond: number; protocol: "tcp" | "udp"; direction: RunDirection; parallel: number; status: RunStatus };

/** The link's history chart: one point per run with a result, the newest `limit`. */
export async function listLinkHistory({ linkId, limit = 2000 }: { linkId: number; limit?: number }): Promise<LinkHistoryPoint[]> {
  const runs = await db.run.findMany({
    // A point is a result: cancelled and failed runs stay in the table, not on the chart.
    where: { linkId, status: "succeeded", receivedBitsPerSecond: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, createdAt: true, receivedBitsPerSecond: true, options: true, clientSide: true, status: true },
  });
  return runs.reverse().map((run) => {
    const options = parseOptions(run.options);
    return {
      id: run.id,
      time: run.createdAt.toISOString(),
      receivedBitsPerSecond: run.receivedBitsPerSecond ?? 0,
      protocol: options.protocol,
      direction: directionOf(options, run.clientSide === "b" ? "b" : "a"),
      parallel: options.parallel,
      status: run.status as RunStatus,
    };
  });
}

/** A link's name, speed and both ends with their hosts' iperf3 versions (the new-test form's hints). */
export async function getLinkEnds(linkId: number) {
  const link = await db.link.findUnique({
    where: { id: linkId },
    select: {
      name: true,
      speedMbps: true,
      aNic: { select: { name: true, mtu: true, addresses: true, speedMbps: true, host: { select: { id: true, name: true, iperf3Version: true } } } },
      bNic: { select: { name: true, mtu: true, addresses: true, speedMbps: true, host: { select: { id: true, name: true, iperf3Version: true } } } },
    },
  });
  if (!link) return null;
  const end = (nic: typeof link.aNic) => ({
    hostId: nic.host.id,
    hostName: nic.host.name,
    nicName: nic.name,
    address: addressesOf(nic.addresses)[0] ?? null,
    nicSpeedMbps: nic.speedMbps,
    mtu: nic.mtu,
    iperf3Version: nic.host.iperf3Version,
  });
  return { name: link.name, speedMbps: link.speedMbps, a: end(link.aNic), b: end(link.bNic) };
}
export type LinkEnds = NonNullable<Awaited<ReturnType<typeof getLinkEnds>>>;

export type StreamStat = {
  id: number;
  direction: string;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number | null;
  cwndBytes: number | null;
  jitterMs: number | null;
  lostPackets: number | null;
  packets: number | null;
};

const SAMPLE_BATCH = 5000;

type SeriesRow = {
  seq: number | bigint;
  start: number;
  end: number;
  direction: string;
  bitsPerSecond: number;
  retransmits: number | bigint | null;
  jitterMs: number | null;
  lostPackets: number | bigint | null;
  packets: number | bigint | null;
  omitted: number | bigint | boolean;
  /** parsed by the adapter for JSON columns; text on drivers that do not */
  streams: unknown;
};

const toNumber = (value: number | bigint | null): number | null => (value === null ? null : Number(value));

// A finished run never changes: its thinned series is kept, so a one-hour 32-stream run
// (36,000 samples, a million stream values) is read and reduced once, not on every view.
const finishedSeries = new Map<number, Promise<RunSeriesData>>();
const FINISHED_SERIES_KEPT = 16;

type RunSeriesData = {
  points: SeriesPoint[];
  streamCount: number;
  sampleCount: number;
  streams: StreamStat[];
};

/**
 * What the run page draws: the samples as chart points thinned to `points`, and the
 * per-stream totals over every interval that counts (omitted warm-up left out).
 * `isFinished`: the run has ended, so the result may be cached.
 */
export function getRunSeries({ runId, points = DISPLAY_POINTS, isFinished = false }: { runId: number; points?: number; isFinished?: boolean }): Promise<RunSeriesData> {
  if (!isFinished) return readRunSeries(runId, points);
  const key = runId * 10_000 + points;
  let cached = finishedSeries.get(key);
  if (!cached) {
    cached = readRunSeries(runId, points);
    cached.catch(() => finishedSeries.delete(key));
    finishedSeries.set(key, cached);
    if (finishedSeries.size > FINISHED_SERIES_KEPT) finishedSeries.delete(finishedSeries.keys().next().value!);
  }
  return cached;
}

async function readRunSeries(runId: number, points: number): Promise<RunSeriesData> {
  const builder = new SeriesBuilder();
  const streams = new Map<string, StreamStat & { seconds: number; jitterSum: number; jitterCount: number }>();
  let sampleCount = 0;
  for (let after = 0; ; ) {
    // Raw SQL: Prisma's row mapping costs more than the query for tens of thousands of samples.
    const batch = await db.$queryRaw<SeriesRow[]>`SELECT "seq", "start", "end", "direction", "bitsPerSecond", "retransmits", "jitterMs", "lostPackets", "packets", "omitted", "streams" FROM "Sample" WHERE "runId" = ${runId} AND "seq" >= ${after} ORDER BY "seq" LIMIT ${SAMPLE_BATCH}`;
    for (const row of batch) {
      const parsedStreams: unknown = typeof row.streams === "string" ? JSON.parse(row.streams) : row.streams;
      const omitted = Boolean(Number(row.omitted));
      const sample = {
        start: row.start,
        end: row.end,
        direction: row.direction,
        bitsPerSecond: row.bitsPerSecond,
        retransmits: toNumber(row.retransmits),
        jitterMs: row.jitterMs,
        lostPackets: toNumber(row.lostPackets),
        packets: toNumber(row.packets),
        omitted,
        streams: parsedStreams,
      };
      builder.add(sample);
      sampleCount += 1;
      if (omitted || !Array.isArray(parsedStreams)) continue;
      for (const raw of parsedStreams as IperfStreamSample[]) {
        const key = `${sample.direction}:${raw.id}`;
        const stat = streams.get(key) ?? { id: raw.id, direction: sample.direction, bytes: 0, bitsPerSecond: 0, retransmits: null, cwndBytes: null, jitterMs: null, lostPackets: null, packets: null, seconds: 0, jitterSum: 0, jitterCount: 0 };
        stat.bytes += raw.bytes;
        stat.seconds += sample.end - sample.start;
        if (raw.retransmits !== undefined) stat.retransmits = (stat.retransmits ?? 0) + raw.retransmits;
        if (raw.cwndBytes !== undefined) stat.cwndBytes = raw.cwndBytes;
        if (raw.jitterMs !== undefined) {
          stat.jitterSum += raw.jitterMs;
          stat.jitterCount += 1;
        }
        if (raw.lostPackets !== undefined) stat.lostPackets = (stat.lostPackets ?? 0) + raw.lostPackets;
        if (raw.packets !== undefined) stat.packets = (stat.packets ?? 0) + raw.packets;
        streams.set(key, stat);
      }
    }
    if (batch.length < SAMPLE_BATCH) break;
    after = Number(batch.at(-1)!.seq) + 1;
  }
  const streamStats: StreamStat[] = [...streams.values()].map(({ seconds, jitterSum, jitterCount, ...stat }) => ({
    ...stat,
    bitsPerSecond: seconds > 0 ? (stat.bytes * 8) / seconds : 0,
    jitterMs: jitterCount ? jitterSum / jitterCount : null,
  }));
  return { points: downsample(builder.points, points), streamCount: builder.streamCount, sampleCount, streams: streamStats };
}
export type RunSeries = Awaited<ReturnType<typeof getRunSeries>>;

/** Every sample of a run, in order, in batches: for the CSV and JSON exports. */
export async function* iterateRunSamples(runId: number) {
  for (let after = 0; ; ) {
    const batch = await db.sample.findMany({ where: { runId, seq: { gte: after } }, orderBy: { seq: "asc" }, take: SAMPLE_BATCH, omit: { id: true, runId: true } });
    yield* batch;
    if (batch.length < SAMPLE_BATCH) return;
    after = batch.at(-1)!.seq + 1;
  }
}

/** Place of a queued run in its link's queue (0 running, 1 next, …), or null. */
export function getRunQueuePosition(linkId: number, runId: number): number | null {
  return runEngine.queuePosition(linkId, runId);
}

/** Runs to compare side by side: their figures and their interval curves (total bits/s), thinned. */
export async function getRunComparison({ ids, linkId, points = 400 }: { ids: number[]; linkId?: number; points?: number }) {
  const runs = await db.run.findMany({
    where: { id: { in: ids }, ...(linkId === undefined ? {} : { linkId }) },
    omit: { serverOutput: true, clientOutput: true },
    include: { link: runLinkSelect },
  });
  const ordered = ids.map((id) => runs.find((run) => run.id === id)).filter((run) => run !== undefined);
  return Promise.all(
    ordered.map(async (run) => {
      const series = await getRunSeries({ runId: run.id, points, isFinished: !["queued", "preparing", "running"].includes(run.status) });
      return { run: toRunRow(run), sentBitsPerSecond: run.sentBitsPerSecond, points: series.points.map((point) => ({ t: point.t, bps: point.bps })) };
    }),
  );
}
export type RunComparison = Awaited<ReturnType<typeof getRunComparison>>;

/** The stream counts (-P) a link's runs used, for the streams filter. */
export async function listLinkStreamCounts(linkId: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ parallel: number | bigint | null }>>`SELECT DISTINCT COALESCE(json_extract("options", '$.parallel'), 1) AS "parallel" FROM "Run" WHERE "linkId" = ${linkId}`;
  return rows.map((row) => Number(row.parallel ?? 1)).sort((a, b) => a - b);
}
