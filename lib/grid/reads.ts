import "server-only";
import { compareWithBaseline, figuresOf } from "@/lib/alerts/baseline";
import { db } from "@/lib/db";
import { invalidInput } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { lineRatePercent } from "@/lib/runs/serialize";
import { jsonArray, jsonArrayHas, jsonGroupArray, jsonTimestamp, jsonTimestampAt, jsonValue } from "@/lib/sql-dialect";
import type { GridAnswer, GridCell, GridCellStatus, GridHost } from "./contract";
import type { GridQuery } from "./schemas";

// The grid's read (lib/grid/contract.ts says what a cell is). Three statements whatever the size of the
// lab: the hosts, the links among them, and for every TCP signature of those links its latest success,
// its latest failure and the baseline runs before that success, each found by a seek in the signature
// index (Run_signature_results_idx), never by reading a link's history.

const DAY_MS = 24 * 3600 * 1000;

type LinkRow = { id: number; speedMbps: number; aHostId: number; bHostId: number; baselineRuns: number };

/**
 * The latest success of a signature, as SQL hands it: `json_array(id, createdAt, received, reverseReceived,
 * clientSide, pathVerdict)`. All a cell shows of its run comes through this tuple: another figure of the run (how its
 * path was checked, say) is one more element here and one more field of the cell.
 */
type SuccessTuple = [number, string, number, number | null, string, string | null];

type SignatureRow = {
  linkId: number;
  signature: string;
  /** JSON SuccessTuple (text on SQLite, parsed on Postgres), or null */
  ok: unknown;
  /** text on SQLite, a Date on Postgres */
  failedAt: string | Date | null;
  /** JSON [id, rate] of the baseline runs before the success, newest first */
  baseline: unknown;
};

/** One way over one link: its latest success (with its figures) and its latest failure. */
type Way = {
  ok: { runId: number; at: string; received: number; baselinePercent: number | null; offLink: boolean } | null;
  failedAt: string | null;
};

const iso = (value: unknown) => new Date(value as string).toISOString();

/** The hosts of the grid's rows and columns; a 400 naming the field for ids of no host or a tag no host has. */
async function gridHosts(query: Pick<GridQuery, "hostIds" | "tag">): Promise<GridHost[]> {
  if (query.hostIds) {
    const hosts = await db.host.findMany({
      where: { id: { in: query.hostIds } },
      select: { id: true, name: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    });
    const missing = query.hostIds.filter((id) => !hosts.some((host) => host.id === id));
    if (missing.length > 0)
      throw invalidInput([
        { field: "hostIds", message: `names no host: ${missing.join(", ")} (GET /api/hosts lists the hosts)` },
      ]);
    return hosts;
  }
  if (query.tag !== undefined) {
    const hosts = await db.$queryRaw<GridHost[]>`
      SELECT h."id", h."name" FROM "Host" h
      WHERE ${jsonArrayHas(Prisma.sql`h."tags"`, query.tag)}
      ORDER BY h."name", h."id"`;
    if (hosts.length === 0)
      throw invalidInput([
        {
          field: "tag",
          message: `is on no host: ${query.tag} (tags are set on each host's page, or PATCH /api/hosts/:id)`,
        },
      ]);
    return hosts.map((host) => ({ id: Number(host.id), name: host.name }));
  }
  // Without a filter, a host no link joins would only add an empty row and column.
  const hosts = await db.$queryRaw<GridHost[]>`
    SELECT h."id", h."name" FROM "Host" h
    WHERE h."id" IN (SELECT n."hostId" FROM "Nic" n
      WHERE n."id" IN (SELECT l."aNicId" FROM "Link" l UNION ALL SELECT l."bNicId" FROM "Link" l))
    ORDER BY h."name", h."id"`;
  return hosts.map((host) => ({ id: Number(host.id), name: host.name }));
}

/**
 * Every TCP signature of the links (found by skipping through the signature index, one step per
 * signature) with its latest success, its latest failure and the baseline runs before that success as
 * lib/alerts/baseline.ts picks them (outside experiments; imported ones where the link counts them). The
 * runs of a channels experiment each carry a share of the link, and are left out: asked only of an
 * experiment's run, since `channel` is not in the index and reading a run's row is what costs.
 */
async function signatureRows(linkFilter: Prisma.Sql, maxBaselineRuns: number): Promise<SignatureRow[]> {
  const successTuple = jsonArray([
    Prisma.sql`y."id"`,
    jsonTimestamp(Prisma.sql`y."createdAt"`),
    Prisma.sql`y."receivedBitsPerSecond"`,
    Prisma.sql`y."reverseReceivedBitsPerSecond"`,
    Prisma.sql`y."clientSide"`,
    Prisma.sql`y."pathVerdict"`,
  ]);
  return db.$queryRaw<SignatureRow[]>`
    WITH RECURSIVE "links" AS (
      SELECT l."id" FROM "Link" l JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Nic" bn ON bn."id" = l."bNicId" ${linkFilter}),
    "pairs"("linkId", "signature") AS (
      SELECT k."id", (SELECT MIN(r."signature") FROM "Run" r WHERE r."linkId" = k."id" AND r."signature" >= 'tcp ' AND r."signature" < 'tcp!')
      FROM "links" k
      UNION ALL
      SELECT p."linkId", (SELECT MIN(r."signature") FROM "Run" r WHERE r."linkId" = p."linkId" AND r."signature" > p."signature" AND r."signature" < 'tcp!')
      FROM "pairs" p WHERE p."signature" IS NOT NULL),
    -- MATERIALIZED: the success is read once, not again for each use of it below.
    "latest" AS MATERIALIZED (
      SELECT p."linkId", p."signature", (
        SELECT ${successTuple} FROM "Run" y
        WHERE y."linkId" = p."linkId" AND y."signature" = p."signature" AND y."status" = 'succeeded'
          AND y."receivedBitsPerSecond" IS NOT NULL AND (y."experimentId" IS NULL OR y."channel" IS NULL)
        ORDER BY y."createdAt" DESC, y."id" DESC LIMIT 1) AS "ok", (
        SELECT y."createdAt" FROM "Run" y
        WHERE y."linkId" = p."linkId" AND y."signature" = p."signature" AND y."status" = 'failed' AND (y."experimentId" IS NULL OR y."channel" IS NULL)
        ORDER BY y."createdAt" DESC, y."id" DESC LIMIT 1) AS "failedAt"
      FROM "pairs" p WHERE p."signature" IS NOT NULL)
    SELECT t."linkId", t."signature", t."ok", t."failedAt", CASE WHEN t."ok" IS NULL THEN NULL ELSE (
      SELECT ${jsonGroupArray(Prisma.sql`${jsonArray([Prisma.sql`b."id"`, Prisma.sql`b."rate"`])} ORDER BY b."createdAt" DESC, b."id" DESC`)} FROM (
        SELECT z."id", z."createdAt", z."receivedBitsPerSecond" AS "rate" FROM "Run" z
        WHERE z."linkId" = t."linkId" AND z."signature" = t."signature" AND z."status" = 'succeeded' AND z."experimentId" IS NULL
          AND z."receivedBitsPerSecond" IS NOT NULL AND (z."source" = 'wirespeed' OR l."importsInBaseline")
          AND z."createdAt" < ${jsonTimestampAt(Prisma.sql`t."ok"`, 1)}
        ORDER BY z."createdAt" DESC, z."id" DESC LIMIT ${maxBaselineRuns}) b) END AS "baseline"
    FROM "latest" t JOIN "Link" l ON l."id" = t."linkId"`;
}

/** The later of two ways' results: the newer success, and the newer failure. */
function merge(way: Way, ok: Way["ok"], failedAt: string | null): Way {
  return {
    ok: ok && (!way.ok || ok.at > way.ok.at || (ok.at === way.ok.at && ok.runId > way.ok.runId)) ? ok : way.ok,
    failedAt: failedAt && (!way.failedAt || failedAt > way.failedAt) ? failedAt : way.failedAt,
  };
}

function statusOf(way: Way): GridCellStatus {
  if (way.failedAt && (!way.ok || way.failedAt > way.ok.at)) return "failed";
  return way.ok ? "succeeded" : "never";
}

/** Each link's two ways, `${linkId} ${fromHostId}`: its a-to-b and bidir runs count from a, b-to-a and bidir from b. */
function waysOf(links: Map<number, LinkRow>, rows: SignatureRow[]): Map<string, Way> {
  const ways = new Map<string, Way>();
  const add = (linkId: number, fromHostId: number, ok: Way["ok"], failedAt: string | null) => {
    const key = `${linkId} ${fromHostId}`;
    ways.set(key, merge(ways.get(key) ?? { ok: null, failedAt: null }, ok, failedAt));
  };
  for (const row of rows) {
    const link = links.get(Number(row.linkId));
    if (!link) continue;
    const direction = row.signature.split(" ")[1];
    const failedAt = row.failedAt === null ? null : iso(row.failedAt);
    const tuple = row.ok === null ? null : jsonValue<SuccessTuple>(row.ok);
    const at = tuple ? iso(tuple[1]) : null;
    // The baseline of the run's signature as the run page says it: from the runs before it.
    const baseline = () => {
      const runs = jsonValue<Array<[number, number]>>(row.baseline ?? "[]").slice(0, link.baselineRuns);
      return compareWithBaseline(tuple![2], figuresOf(runs.map(([id, rate]) => ({ id, rate })))).percentOfBaseline;
    };
    const offLink = tuple?.[5] === "off-link";
    const first = tuple
      ? { runId: Number(tuple[0]), at: at!, received: tuple[2], baselinePercent: baseline(), offLink }
      : null;
    if (direction === "a-to-b") add(link.id, link.aHostId, first, failedAt);
    else if (direction === "b-to-a") add(link.id, link.bHostId, first, failedAt);
    else if (direction === "bidir") {
      // The client's host sends the first way; the second way's rate has no baseline of its own.
      const [client, server] = tuple?.[4] === "b" ? [link.bHostId, link.aHostId] : [link.aHostId, link.bHostId];
      const second =
        tuple && tuple[3] !== null
          ? { runId: Number(tuple[0]), at: at!, received: tuple[3], baselinePercent: null, offLink }
          : null;
      add(link.id, client, first, failedAt);
      add(link.id, server, second, failedAt);
    }
  }
  return ways;
}

type Candidate = { link: LinkRow; way: Way; status: GridCellStatus };

/** The link a cell shows: the fastest latest result; without one, a failed link before one never tested, then the faster line. */
function fastestFirst(one: Candidate, other: Candidate): number {
  const rate = (candidate: Candidate) => candidate.way.ok?.received ?? -1;
  const rank = (candidate: Candidate) => (candidate.status === "never" ? 0 : 1);
  return (
    rate(other) - rate(one) ||
    rank(other) - rank(one) ||
    other.link.speedMbps - one.link.speedMbps ||
    one.link.id - other.link.id
  );
}

/**
 * GET /api/grid and the /grid page: the hosts of `query` (or every host a link joins) and one cell per
 * ordered pair of them that a link joins. Throws a 400 naming `hostIds` or `tag` when they name no host.
 */
export async function getGrid(query: GridQuery, now: Date = new Date()): Promise<GridAnswer> {
  const hosts = await gridHosts(query);
  if (hosts.length === 0) return { hosts, cells: [] };
  const ids = hosts.map((host) => host.id);
  const filter =
    query.hostIds || query.tag !== undefined
      ? Prisma.sql`WHERE an."hostId" IN (${Prisma.join(ids)}) AND bn."hostId" IN (${Prisma.join(ids)})`
      : Prisma.empty;
  const linkRows = await db.$queryRaw<LinkRow[]>`
    SELECT l."id", l."speedMbps", l."baselineRuns", an."hostId" AS "aHostId", bn."hostId" AS "bHostId"
    FROM "Link" l JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Nic" bn ON bn."id" = l."bNicId" ${filter}`;
  if (linkRows.length === 0) return { hosts, cells: [] };
  const links = new Map(
    linkRows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        speedMbps: Number(row.speedMbps),
        aHostId: Number(row.aHostId),
        bHostId: Number(row.bHostId),
        baselineRuns: Number(row.baselineRuns),
      },
    ]),
  );
  const maxBaselineRuns = Math.max(...[...links.values()].map((link) => link.baselineRuns));
  const ways = waysOf(links, await signatureRows(filter, maxBaselineRuns));

  const candidates = new Map<string, Candidate[]>();
  for (const link of links.values()) {
    for (const [from, to] of [
      [link.aHostId, link.bHostId],
      [link.bHostId, link.aHostId],
    ] as const) {
      const key = `${from} ${to}`;
      const way = ways.get(`${link.id} ${from}`) ?? { ok: null, failedAt: null };
      const list = candidates.get(key) ?? [];
      // A link between two NICs of one host is the diagonal's, once, both its ways merged.
      if (!list.some((candidate) => candidate.link.id === link.id)) list.push({ link, way, status: statusOf(way) });
      candidates.set(key, list);
    }
  }

  const order = new Map(hosts.map((host, index) => [host.id, index]));
  const staleBefore = now.getTime() - query.staleDays * DAY_MS;
  const cells: GridCell[] = [...candidates.entries()].map(([key, list]) => {
    const [fromHostId, toHostId] = key.split(" ").map(Number) as [number, number];
    const [best] = [...list].sort(fastestFirst) as [Candidate];
    const ok = best.way.ok;
    return {
      fromHostId,
      toHostId,
      linkId: best.link.id,
      linkCount: list.length,
      runId: ok?.runId ?? null,
      at: ok?.at ?? null,
      receivedBitsPerSecond: ok?.received ?? null,
      lineRatePercent: ok ? lineRatePercent(ok.received, best.link.speedMbps) : null,
      baselinePercent: ok?.baselinePercent ?? null,
      stale: ok !== null && Date.parse(ok.at) < staleBefore,
      offLink: ok?.offLink ?? false,
      status: best.status,
    };
  });
  cells.sort(
    (one, other) =>
      order.get(one.fromHostId)! - order.get(other.fromHostId)! ||
      order.get(one.toHostId)! - order.get(other.toHostId)!,
  );
  return { hosts, cells };
}

/** Every host with its tags, by name: the grid's host filter offers them. */
export async function listGridHostChoices(): Promise<Array<GridHost & { tags: string[] }>> {
  const hosts = await db.host.findMany({ select: { id: true, name: true, tags: true }, orderBy: { name: "asc" } });
  return hosts.map((host) => ({
    id: host.id,
    name: host.name,
    tags: Array.isArray(host.tags) ? host.tags.filter((tag): tag is string => typeof tag === "string") : [],
  }));
}
