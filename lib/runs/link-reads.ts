import "server-only";
import { labelsOf } from "@/lib/notes/contract";
import { HOST_ACCESS, type HostAccess } from "@/lib/inventory/schemas";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { addressesOf, listNics } from "@/lib/inventory/nics";
import { clientSideOf, directionOf, parseStoredOptions, type RunDirection, type RunStatus } from "@/lib/runs/contract";
import { countActiveRuns, listSignatures, signatureParts } from "@/lib/runs/lists";
import { jsonNested, jsonNumber, jsonObject, jsonValue, unindexed } from "@/lib/sql-dialect";

/**
 * Every link's id and name, in the order of `listLinks`: for a filter's choices. `listLinks` counts
 * every link's runs, which takes about 100 ms at 1.3 million runs and grows with them.
 */
export async function listLinkNames(): Promise<Array<{ id: number; name: string }>> {
  return db.link.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true } });
}

export type LinkableNic = Awaited<ReturnType<typeof listLinkableNics>>[number];

/**
 * Every NIC a link could join, with its host's name and the NIC ids it is already
 * linked to (so the form does not suggest a pair that exists).
 */
export async function listLinkableNics() {
  const [nics, links] = await Promise.all([listNics(), db.link.findMany({ select: { aNicId: true, bNicId: true } })]);
  const linkedTo = new Map<number, number[]>();
  for (const link of links) {
    linkedTo.set(link.aNicId, [...(linkedTo.get(link.aNicId) ?? []), link.bNicId]);
    linkedTo.set(link.bNicId, [...(linkedTo.get(link.bNicId) ?? []), link.aNicId]);
  }
  return nics
    .map((nic) => ({
      id: nic.id,
      name: nic.name,
      host: nic.host,
      addresses: nic.addresses,
      speedMbps: nic.speedMbps,
      mtu: nic.mtu,
      model: nic.model,
      linkedNicIds: linkedTo.get(nic.id) ?? [],
    }))
    .sort(
      (a, b) => a.host.name.localeCompare(b.host.name) || a.name.localeCompare(b.name, undefined, { numeric: true }),
    );
}

/**
 * `signature`: the run's test signature (lib/runs/signature.ts), which its baseline band matches;
 * `loadedLatencyMs`: the median round-trip time under load, for runs that measured latency.
 */
export type LinkHistoryPoint = {
  id: number;
  time: string;
  receivedBitsPerSecond: number;
  protocol: "tcp" | "udp";
  direction: RunDirection;
  parallel: number;
  signature: string | null;
  status: RunStatus;
  loadedLatencyMs: number | null;
  /** read from an iperf3 output a user brought (lib/imports), not run by Wirespeed */
  imported: boolean;
  /** its bytes went through another NIC than the link's (an off-link path check): not in the baseline */
  offLink: boolean;
  /** what a user wrote down about it and its labels (lib/notes): only on the runs that have them */
  note?: string;
  labels?: string[];
};

type HistoryRow = {
  id: number;
  createdAt: Date | string;
  receivedBitsPerSecond: number;
  signature: string | null;
  latencyLoadedMedianMs: number | null;
  source: string;
  pathVerdict: string | null;
  /** only for runs without a signature */
  options: unknown;
  clientSide: string | null;
};

/**
 * The link's history chart: one point per run with a result, the newest `limit`. Each of the link's
 * signatures gives its newest runs from the signature index, which holds every value a point needs
 * (its protocol, direction and streams are its signature's), so no run's row is read: their late
 * columns sit behind the raw outputs, and reading them was three quarters of the time. Runs without a
 * signature are read with their options.
 */
export async function listLinkHistory({
  linkId,
  limit = 2000,
}: {
  linkId: number;
  limit?: number;
}): Promise<LinkHistoryPoint[]> {
  // A point is a result: cancelled and failed runs stay in the table, not on the chart.
  const result = Prisma.sql`"status" = 'succeeded' AND "receivedBitsPerSecond" IS NOT NULL`;
  // The options are read as text on both databases: Postgres types each column of a UNION once, and
  // the signed parts' NULL would otherwise be text beside the unsigned part's jsonb.
  const parts = (await listSignatures(linkId)).map(
    (
      signature,
    ) => Prisma.sql`SELECT * FROM (SELECT "id", "createdAt", "receivedBitsPerSecond", "signature", "latencyLoadedMedianMs",
      "source", "pathVerdict", CAST(NULL AS TEXT) AS "options", CAST(NULL AS TEXT) AS "clientSide" FROM "Run"
      WHERE "linkId" = ${linkId} AND "signature" = ${signature} AND ${result} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}) AS "signed"`,
  );
  // `+"createdAt"`: found by the signature index (the few without one), then sorted.
  parts.push(Prisma.sql`SELECT * FROM (SELECT "id", "createdAt", "receivedBitsPerSecond", "signature", "latencyLoadedMedianMs",
    "source", "pathVerdict", CAST("options" AS TEXT) AS "options", "clientSide" FROM "Run"
      WHERE "linkId" = ${linkId} AND "signature" IS NULL AND ${result} ORDER BY ${unindexed(Prisma.sql`"createdAt"`)} DESC, "id" DESC LIMIT ${limit}) AS "unsigned"`);
  const runs = await db.$queryRaw<
    HistoryRow[]
  >`SELECT * FROM (${Prisma.join(parts, " UNION ALL ")}) AS "points" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`;
  const notes = await notesOfLinkRuns(linkId);
  return runs.reverse().map((run) => {
    let test: { protocol: string; direction: string; parallel: number };
    if (run.signature !== null) test = signatureParts(run.signature);
    else {
      const options = parseStoredOptions(jsonValue(run.options));
      test = {
        protocol: options.protocol,
        direction: directionOf(options, clientSideOf(run.clientSide ?? "a")),
        parallel: options.parallel,
      };
    }
    return {
      id: Number(run.id),
      time: new Date(run.createdAt).toISOString(),
      receivedBitsPerSecond: run.receivedBitsPerSecond,
      protocol: test.protocol === "udp" ? "udp" : "tcp",
      direction: test.direction as RunDirection,
      parallel: test.parallel,
      signature: run.signature,
      status: "succeeded",
      loadedLatencyMs: run.latencyLoadedMedianMs,
      imported: run.source === "imported",
      offLink: run.pathVerdict === "off-link",
      ...notes.get(Number(run.id)),
    };
  });
}

/**
 * The notes and labels of a link's runs, by run id: the few runs that have one, found through
 * indexes ("linkId", "note" for notes; RunLabel for labels) without reading any run's row.
 */
async function notesOfLinkRuns(linkId: number): Promise<Map<number, { note?: string; labels?: string[] }>> {
  const [noted, labelled] = await Promise.all([
    db.$queryRaw<Array<{ id: number | bigint; note: string }>>`
      SELECT "id", "note" FROM "Run" WHERE "linkId" = ${linkId} AND "note" > ''`,
    db.$queryRaw<Array<{ runId: number | bigint; label: string }>>`
      SELECT rl."runId", rl."label" FROM "RunLabel" rl JOIN "Run" r ON r."id" = rl."runId"
      WHERE r."linkId" = ${linkId} ORDER BY rl."label"`,
  ]);
  const byId = new Map<number, { note?: string; labels?: string[] }>();
  for (const { id, note } of noted) byId.set(Number(id), { note });
  for (const { runId, label } of labelled) {
    const entry = byId.get(Number(runId)) ?? {};
    entry.labels = [...(entry.labels ?? []), label];
    byId.set(Number(runId), entry);
  }
  return byId;
}

/**
 * A link's history chart as pages render it and `GET /api/links/:id/history` answers it,
 * with how many of its runs are active, so that a page knows to keep asking. The count is
 * read first: a run that ends between the two reads is then counted, and its point comes
 * with the next read, rather than missed by a page that stops asking.
 */
export async function getLinkHistory({ linkId }: { linkId: number }) {
  const activeRunCount = await countActiveRuns({ linkId });
  const points = await listLinkHistory({ linkId });
  return { linkId, activeRunCount, points };
}
export type LinkHistory = Awaited<ReturnType<typeof getLinkHistory>>;

type EndColumns = {
  nicName: string;
  mtu: number | null;
  addresses: unknown;
  nicSpeedMbps: number | null;
  hostId: number;
  hostName: string;
  iperf3Version: string | null;
  access: string;
};

/**
 * A link's name, speed and both ends with their hosts' iperf3 versions (the new-test form's hints).
 * One joined read: through Prisma's relations it took five queries, each a few milliseconds.
 */
export async function getLinkEnds(linkId: number) {
  const end = (side: "a" | "b") => {
    const [nic, host] = side === "a" ? [Prisma.sql`an`, Prisma.sql`ah`] : [Prisma.sql`bn`, Prisma.sql`bh`];
    return jsonObject([
      Prisma.sql`'nicName'`,
      Prisma.sql`${nic}."name"`,
      Prisma.sql`'mtu'`,
      Prisma.sql`${nic}."mtu"`,
      Prisma.sql`'addresses'`,
      jsonNested(Prisma.sql`${nic}."addresses"`),
      Prisma.sql`'nicSpeedMbps'`,
      Prisma.sql`${nic}."speedMbps"`,
      Prisma.sql`'hostId'`,
      Prisma.sql`${host}."id"`,
      Prisma.sql`'hostName'`,
      Prisma.sql`${host}."name"`,
      Prisma.sql`'iperf3Version'`,
      Prisma.sql`${host}."iperf3Version"`,
      Prisma.sql`'access'`,
      Prisma.sql`${host}."access"`,
    ]);
  };
  const [link] = await db.$queryRaw<
    Array<{ name: string; speedMbps: number; notes: string; labels: unknown; a: unknown; b: unknown }>
  >`
    SELECT l."name", l."speedMbps", l."notes", l."labels", ${end("a")} AS "a", ${end("b")} AS "b"
    FROM "Link" l
    JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Host" ah ON ah."id" = an."hostId"
    JOIN "Nic" bn ON bn."id" = l."bNicId" JOIN "Host" bh ON bh."id" = bn."hostId"
    WHERE l."id" = ${linkId}`;
  if (!link) return null;
  const toEnd = (value: unknown) => {
    const columns = jsonValue<EndColumns>(value);
    return {
      hostId: Number(columns.hostId),
      hostName: columns.hostName,
      nicName: columns.nicName,
      address: addressesOf(columns.addresses)[0] ?? null,
      nicSpeedMbps: columns.nicSpeedMbps,
      mtu: columns.mtu,
      iperf3Version: columns.iperf3Version,
      /** how Wirespeed reaches the host: ssh, iperf3-server or device (lib/inventory/schemas.ts) */
      access: (HOST_ACCESS.find((value) => value === columns.access) ?? "ssh") as HostAccess,
    };
  };
  return {
    id: linkId,
    name: link.name,
    speedMbps: Number(link.speedMbps),
    /** what a user wrote down about the link, and its labels (lib/notes) */
    note: link.notes,
    labels: labelsOf(jsonValue(link.labels)),
    a: toEnd(link.a),
    b: toEnd(link.b),
  };
}
export type LinkEnds = NonNullable<Awaited<ReturnType<typeof getLinkEnds>>>;

/**
 * The stream counts (-P) a link's runs used, for the streams filter: from the link's signatures,
 * found in an index, and the options of the runs that have none.
 */
export async function listLinkStreamCounts(linkId: number): Promise<number[]> {
  const [signatures, unsigned] = await Promise.all([
    listSignatures(linkId),
    db.$queryRaw<
      Array<{ parallel: number | bigint | null }>
    >`SELECT DISTINCT COALESCE(${jsonNumber(Prisma.sql`"options"`, "parallel")}, 1) AS "parallel" FROM "Run" WHERE "linkId" = ${linkId} AND "signature" IS NULL`,
  ]);
  const counts = new Set([
    ...signatures.map((signature) => signatureParts(signature).parallel),
    ...unsigned.map((row) => Number(row.parallel ?? 1)),
  ]);
  return [...counts].sort((a, b) => a - b);
}
