import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { IperfOptions } from "@/lib/iperf";
import { queuePositionOf } from "@/lib/runs";
import {
  ACTIVE_RUN_STATUSES,
  clientSideOf,
  directionOf,
  parseStoredOptions,
  PATH_VERDICTS,
  RUN_STATUSES,
  type ClientSide,
  type PathVerdict,
  type RunDirection,
  type RunStatus,
} from "@/lib/runs/contract";
import { RUN_PAGE_SIZE, type RunFilters } from "@/lib/runs/filters";
import type { RunSource } from "@/lib/imports/contract";
import { lineRatePercent, RUN_LABELS, runJson } from "@/lib/runs/serialize";
import { jsonFlag, jsonNumber, jsonText, unindexed } from "@/lib/sql-dialect";

// Reads of runs as rows and details: the run tables, `GET /api/runs`, a run's API view.

export const runLinkSelect = {
  select: { id: true, name: true, speedMbps: true },
} as const satisfies Prisma.LinkDefaultArgs;

/** The run tables read no raw output. */
const withoutOutputs = { serverOutput: true, clientOutput: true } as const satisfies Prisma.RunOmit;

/** What a run table reads with a run: its link's id, name and speed, and its labels. */
export const runRowInclude = { link: runLinkSelect, labels: RUN_LABELS } as const satisfies Prisma.RunInclude;

/** A run as the tables read it: without its raw outputs, with its link and labels. */
type RunWithLink = Prisma.RunGetPayload<{ omit: typeof withoutOutputs; include: typeof runRowInclude }>;

/** One run as the API shows it, with both raw outputs; null when there is none. */
export async function getRunDetail(id: number) {
  const run = await db.run.findUnique({ where: { id }, include: runRowInclude });
  if (!run) return null;
  return { ...runJson(run, run.link), output: { server: run.serverOutput, client: run.clientOutput } };
}

/** A link's runs, newest first, one page at a time (without raw output). */
export async function listLinkRuns({
  linkId,
  page = 1,
  pageSize = 50,
}: {
  linkId: number;
  page?: number;
  pageSize?: number;
}) {
  const [runs, total] = await Promise.all([
    db.run.findMany({
      where: { linkId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      omit: withoutOutputs,
      include: runRowInclude,
    }),
    db.run.count({ where: { linkId } }),
  ]);
  return {
    runs: runs.map((run) => runJson({ ...run, serverOutput: "", clientOutput: "" }, run.link)),
    total,
    page,
    pageSize,
  };
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
  /** The device at the other end of the link (a host with access "device"); null for links between hosts Wirespeed logs in to. */
  device: RunDevice | null;
  /** where its bytes went: its path check's verdict (lib/runs/path-check.ts); null when it was not checked */
  pathVerdict: PathVerdict | null;
  /** what a user wrote down about it, and its labels (lib/notes) */
  note: string;
  labels: string[];
};

/** A device a run measured: the runs list gives it a column of its own. */
export type RunDevice = { id: number; name: string; kind: string };

/** The device end of each of these links that has one, by link id: one query for a page of runs. */
export async function devicesOfLinks(linkIds: number[]): Promise<Map<number, RunDevice>> {
  if (linkIds.length === 0) return new Map();
  const host = { select: { id: true, name: true, kind: true, access: true } } as const;
  const links = await db.link.findMany({
    where: {
      id: { in: linkIds },
      OR: [{ aNic: { host: { access: "device" } } }, { bNic: { host: { access: "device" } } }],
    },
    select: { id: true, aNic: { select: { host } }, bNic: { select: { host } } },
  });
  const devices = new Map<number, RunDevice>();
  for (const link of links) {
    const end = [link.aNic.host, link.bNic.host].find((candidate) => candidate.access === "device");
    if (end) devices.set(link.id, { id: end.id, name: end.name, kind: end.kind ?? "other" });
  }
  return devices;
}

// Filters on the options JSON: SQLite's json_extract (Postgres's ->>), since Prisma cannot filter inside JSON on SQLite.
// Only for runs without a signature (rows written before signatures, or by hand): every other run is
// found through its signature, which an index holds (`signatureBranches`).
function optionsWhereSql(filters: RunFilters): Prisma.Sql[] {
  const options = Prisma.sql`"options"`;
  const conditions: Prisma.Sql[] = [];
  if (filters.protocol !== undefined)
    conditions.push(Prisma.sql`COALESCE(${jsonText(options, "protocol")}, 'tcp') = ${filters.protocol}`);
  if (filters.parallel !== undefined)
    conditions.push(Prisma.sql`COALESCE(${jsonNumber(options, "parallel")}, 1) = ${filters.parallel}`);
  if (filters.direction === "bidir") conditions.push(Prisma.sql`COALESCE(${jsonFlag(options, "bidir")}, 0) = 1`);
  else if (filters.direction !== undefined) {
    // a-to-b: the client on a sends (no -R), or the client on b receives (-R).
    const isReverseWanted = filters.direction === "a-to-b" ? 1 : 0;
    conditions.push(Prisma.sql`COALESCE(${jsonFlag(options, "bidir")}, 0) = 0`);
    // The CASTs give the bound numbers a type: Postgres cannot tell one from a CASE of parameters.
    conditions.push(
      Prisma.sql`(CASE WHEN "clientSide" = 'b' THEN 1 ELSE 0 END) =
        (CASE WHEN COALESCE(${jsonFlag(options, "reverse")}, 0) = 1 THEN CAST(${isReverseWanted} AS INTEGER) ELSE CAST(${1 - isReverseWanted} AS INTEGER) END)`,
    );
  }
  return conditions;
}

/** Runs that have the label asked for: through RunLabel's (label, runId) index. */
function labelWhereSql(filters: RunFilters): Prisma.Sql[] {
  return filters.label === undefined
    ? []
    : [Prisma.sql`"id" IN (SELECT "runId" FROM "RunLabel" WHERE "label" = ${filters.label})`];
}

function hasOptionFilters(filters: RunFilters): boolean {
  return filters.protocol !== undefined || filters.direction !== undefined || filters.parallel !== undefined;
}

/**
 * What a test signature says of its runs ("tcp a-to-b P4", "udp b-to-a P1 1000000000": protocol,
 * direction, streams, then the UDP bitrate, as lib/runs/signature.ts writes them), so that reads
 * of many runs need not parse each one's options.
 */
export function signatureParts(signature: string): { protocol: string; direction: string; parallel: number } {
  const [protocol = "tcp", direction = "a-to-b", streams = "P1"] = signature.split(" ");
  return { protocol, direction, parallel: Number(streams.slice(1)) || 1 };
}

/** Whether runs of a test signature pass the option filters. */
function signatureMatches(signature: string, filters: RunFilters): boolean {
  const parts = signatureParts(signature);
  return (
    (filters.protocol === undefined || parts.protocol === filters.protocol) &&
    (filters.direction === undefined || parts.direction === filters.direction) &&
    (filters.parallel === undefined || parts.parallel === filters.parallel)
  );
}

/**
 * The distinct signatures of a link's runs (or of every run), found by skipping through an index
 * that starts with them, one step per signature, rather than by reading every run.
 */
export async function listSignatures(linkId: number | undefined): Promise<string[]> {
  const rows =
    linkId === undefined
      ? await db.$queryRaw<Array<{ signature: string }>>`
          WITH RECURSIVE "found"("signature") AS (
            SELECT (SELECT MIN("signature") FROM "Run" WHERE "signature" IS NOT NULL)
            UNION ALL
            SELECT (SELECT MIN("signature") FROM "Run" WHERE "signature" > "found"."signature") FROM "found" WHERE "found"."signature" IS NOT NULL)
          SELECT "signature" FROM "found" WHERE "signature" IS NOT NULL`
      : await db.$queryRaw<Array<{ signature: string }>>`
          WITH RECURSIVE "found"("signature") AS (
            SELECT (SELECT MIN("signature") FROM "Run" WHERE "linkId" = ${linkId} AND "signature" IS NOT NULL)
            UNION ALL
            SELECT (SELECT MIN("signature") FROM "Run" WHERE "linkId" = ${linkId} AND "signature" > "found"."signature")
            FROM "found" WHERE "found"."signature" IS NOT NULL)
          SELECT "signature" FROM "found" WHERE "signature" IS NOT NULL`;
  return rows.map((row) => row.signature);
}

/**
 * The runs a filter selects, as parts that an index returns newest first: one per matching
 * signature and status (statuses are few, and a part that has no runs costs one seek), and one for
 * runs without a signature, read through their options.
 */
async function signatureBranches(filters: RunFilters): Promise<Array<{ where: Prisma.Sql; order: Prisma.Sql }>> {
  const link = filters.linkId === undefined ? [] : [Prisma.sql`"linkId" = ${filters.linkId}`];
  const statuses = filters.status === undefined ? RUN_STATUSES : [filters.status];
  const signatures = (await listSignatures(filters.linkId)).filter((signature) => signatureMatches(signature, filters));
  const newestFirst = Prisma.sql`ORDER BY "createdAt" DESC, "id" DESC`;
  const branches = signatures.flatMap((signature) =>
    statuses.map((status) => ({
      where: Prisma.join(
        [...link, Prisma.sql`"signature" = ${signature}`, Prisma.sql`"status" = ${status}`, ...labelWhereSql(filters)],
        " AND ",
      ),
      order: newestFirst,
    })),
  );
  const unsigned = [
    ...link,
    Prisma.sql`"signature" IS NULL`,
    ...(filters.status === undefined ? [] : [Prisma.sql`"status" = ${filters.status}`]),
    ...optionsWhereSql(filters),
    ...labelWhereSql(filters),
  ];
  // `+"createdAt"`: sorted after the index finds the few runs without a signature; ordered by the
  // creation index instead, SQLite would read every run of the link to find them.
  return [
    ...branches,
    {
      where: Prisma.join(unsigned, " AND "),
      order: Prisma.sql`ORDER BY ${unindexed(Prisma.sql`"createdAt"`)} DESC, "id" DESC`,
    },
  ];
}

/**
 * The ids of one page of runs, newest first, and how many runs match in all: both read from
 * indexes (link, status and signature first, then the creation time), never from the runs' rows,
 * so that neither grows with the size of a run or with the runs a filter leaves out.
 */
async function pageOfRunIds(
  filters: RunFilters,
  offset: number,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  if (!hasOptionFilters(filters)) {
    const conditions = [
      ...(filters.linkId === undefined ? [] : [Prisma.sql`"linkId" = ${filters.linkId}`]),
      ...(filters.status === undefined ? [] : [Prisma.sql`"status" = ${filters.status}`]),
      ...labelWhereSql(filters),
    ];
    const where = conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
    const [idRows, countRows] = await Promise.all([
      db.$queryRaw<
        Array<{ id: number }>
      >`SELECT "id" FROM "Run" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit} OFFSET ${offset}`,
      db.$queryRaw<Array<{ total: number | bigint }>>`SELECT COUNT(*) AS "total" FROM "Run" ${where}`,
    ]);
    return { ids: idRows.map((row) => Number(row.id)), total: Number(countRows[0]?.total ?? 0) };
  }
  const branches = await signatureBranches(filters);
  // Each part gives at most the rows the page could need; their merge is then small to sort.
  const parts = branches.map(
    ({ where, order }) =>
      Prisma.sql`SELECT * FROM (SELECT "id", "createdAt" FROM "Run" WHERE ${where} ${order} LIMIT ${offset + limit}) AS "part"`,
  );
  const counts = branches.map(({ where }) => Prisma.sql`SELECT COUNT(*) AS "total" FROM "Run" WHERE ${where}`);
  const [idRows, countRows] = await Promise.all([
    db.$queryRaw<
      Array<{ id: number }>
    >`SELECT "id" FROM (${Prisma.join(parts, " UNION ALL ")}) AS "parts" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit} OFFSET ${offset}`,
    db.$queryRaw<
      Array<{ total: number | bigint }>
    >`SELECT SUM("total") AS "total" FROM (${Prisma.join(counts, " UNION ALL ")}) AS "counts"`,
  ]);
  return { ids: idRows.map((row) => Number(row.id)), total: Number(countRows[0]?.total ?? 0) };
}

export function toRunRow(run: RunWithLink, device: RunDevice | null = null): RunRow {
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
    device,
    pathVerdict: PATH_VERDICTS.find((verdict) => verdict === run.pathVerdict) ?? null,
    note: run.note,
    labels: run.labels.map(({ label }) => label),
  };
}

/**
 * One page of runs, newest first, filtered by link, status and options. The ids and the total
 * come from indexes (`pageOfRunIds`); the rows from Prisma, without raw output.
 */
export async function listRunRows({
  filters = {},
  page = 1,
  pageSize = RUN_PAGE_SIZE,
}: {
  filters?: RunFilters;
  page?: number;
  pageSize?: number;
}) {
  const { ids, total } = await pageOfRunIds(filters, (page - 1) * pageSize, pageSize);
  const runs = ids.length
    ? await db.run.findMany({
        where: { id: { in: ids } },
        omit: withoutOutputs,
        include: runRowInclude,
      })
    : [];
  const byId = new Map(runs.map((run) => [run.id, run]));
  const devices = await devicesOfLinks([...new Set(runs.map((run) => run.linkId))]);
  const rows = ids
    .map((id) => byId.get(id))
    .filter((run) => run !== undefined)
    .map((run) => toRunRow(run, devices.get(run.linkId) ?? null));
  return { runs: rows, total, page, pageSize };
}
/** One page of a run table, as pages render it and `GET /api/runs` answers it. */
export type RunRowsPage = Awaited<ReturnType<typeof listRunRows>>;

/** Runs of a link (or of every link) that are queued, preparing or running now. */
export async function countActiveRuns({ linkId }: { linkId?: number } = {}): Promise<number> {
  return db.run.count({
    where: { ...(linkId === undefined ? {} : { linkId }), status: { in: [...ACTIVE_RUN_STATUSES] } },
  });
}
