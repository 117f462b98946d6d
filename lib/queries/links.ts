import "server-only";
import { db } from "@/lib/db";
import { listLinks as listInventoryLinks, type LinkView } from "@/lib/inventory/links";
import { addressesOf, listNics } from "@/lib/inventory/nics";
import { clientSideOf, directionOf, parseStoredOptions, type RunDirection, type RunStatus } from "@/lib/runs/contract";
import { countActiveRuns } from "./run-lists";

export type LinkListItem = LinkView;

/** Every link with the hosts and NICs at both ends. */
export async function listLinks(): Promise<LinkListItem[]> {
  return listInventoryLinks();
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
    .sort((a, b) => a.host.name.localeCompare(b.host.name) || a.name.localeCompare(b.name, undefined, { numeric: true }));
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
};

/** The link's history chart: one point per run with a result, the newest `limit`. */
export async function listLinkHistory({ linkId, limit = 2000 }: { linkId: number; limit?: number }): Promise<LinkHistoryPoint[]> {
  const runs = await db.run.findMany({
    // A point is a result: cancelled and failed runs stay in the table, not on the chart.
    where: { linkId, status: "succeeded", receivedBitsPerSecond: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, createdAt: true, receivedBitsPerSecond: true, options: true, clientSide: true, signature: true, status: true, latencyLoadedMedianMs: true, source: true },
  });
  return runs.reverse().map((run) => {
    const options = parseStoredOptions(run.options);
    return {
      id: run.id,
      time: run.createdAt.toISOString(),
      receivedBitsPerSecond: run.receivedBitsPerSecond ?? 0,
      protocol: options.protocol,
      direction: directionOf(options, clientSideOf(run.clientSide)),
      parallel: options.parallel,
      signature: run.signature,
      status: run.status as RunStatus,
      loadedLatencyMs: run.latencyLoadedMedianMs,
      imported: run.source === "imported",
    };
  });
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

/** The stream counts (-P) a link's runs used, for the streams filter. */
export async function listLinkStreamCounts(linkId: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ parallel: number | bigint | null }>>`SELECT DISTINCT COALESCE(json_extract("options", '$.parallel'), 1) AS "parallel" FROM "Run" WHERE "linkId" = ${linkId}`;
  return rows.map((row) => Number(row.parallel ?? 1)).sort((a, b) => a - b);
}
