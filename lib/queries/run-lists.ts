import "server-only";
import { db } from "@/lib/db";
import { Prisma, type Run } from "@/lib/generated/prisma/client";
import type { IperfOptions } from "@/lib/iperf";
import { queuePositionOf } from "@/lib/runs";
import { ACTIVE_RUN_STATUSES, clientSideOf, directionOf, parseStoredOptions, type ClientSide, type RunDirection, type RunStatus } from "@/lib/runs/contract";
import { RUN_PAGE_SIZE, type RunFilters } from "@/lib/runs/filters";
import type { RunSource } from "@/lib/imports/contract";
import { lineRatePercent, runJson } from "@/lib/runs/serialize";

// Reads of runs as rows and details: the run tables, `GET /api/runs`, a run's API view.

export const runLinkSelect = { select: { id: true, name: true, speedMbps: true } } as const;

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

/** Run row of a table: figures only, no raw output. */
export type RunRow = {
  id: number;
  linkId: number;
  linkName: string;
  linkSpeedMbps: number;
  status: RunStatus;
  /** an imported run was read from an iperf3 output a user brought (lib/imports) */
  source: RunSource;
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

export function toRunRow(run: Omit<Run, "serverOutput" | "clientOutput"> & { link: { id: number; name: string; speedMbps: number } }): RunRow {
  const options = parseStoredOptions(run.options);
  const clientSide = clientSideOf(run.clientSide);
  const status = run.status as RunStatus;
  return {
    id: run.id,
    linkId: run.link.id,
    linkName: run.link.name,
    linkSpeedMbps: run.link.speedMbps,
    status,
    source: run.source === "imported" ? "imported" : "wirespeed",
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
    queuePosition: queuePositionOf({ id: run.id, linkId: run.link.id, status }),
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
  return { runs: rows, total: Number(countRows[0]?.total ?? 0), page, pageSize };
}
/** One page of a run table, as pages render it and `GET /api/runs` answers it. */
export type RunRowsPage = Awaited<ReturnType<typeof listRunRows>>;

/** Runs of a link (or of every link) that are queued, preparing or running now. */
export async function countActiveRuns({ linkId }: { linkId?: number } = {}): Promise<number> {
  return db.run.count({ where: { ...(linkId === undefined ? {} : { linkId }), status: { in: [...ACTIVE_RUN_STATUSES] } } });
}

