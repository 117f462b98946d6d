import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { lineRatePercent } from "@/lib/runs/serialize";

// Each link's state in a few figures, for what watches Wirespeed from outside: Home Assistant's
// sensors (lib/mqtt) and the dashboard widgets' GET /api/summary. One statement for every link,
// each figure a subquery through an index that starts with the link (and the status).

export type LinkStatus = {
  id: number;
  name: string;
  speedMbps: number;
  /** Whether Home Assistant's "Run again" button may start the link's last test. */
  homeAssistantRunButton: boolean;
  /** The newest succeeded run's received rate, bits/s; null without one. */
  receivedBitsPerSecond: number | null;
  /** That rate as a share of the link's line rate, one decimal; null without a rate or a line rate. */
  lineRatePercent: number | null;
  /** The loaded latency (median RTT under load, ms) of the newest succeeded run that measured it. */
  loadedLatencyMs: number | null;
  /** When the newest run that ended, ended (any status); null when none has. */
  lastRunAt: Date | null;
  /** The status of the newest result: succeeded or failed (cancelled and interrupted runs are no result). */
  latestResult: "succeeded" | "failed" | null;
  /** How many of the link's alerts are firing. */
  firingAlerts: number;
};

type StatusRow = {
  id: number | bigint;
  name: string;
  speedMbps: number | bigint;
  homeAssistantRunButton: boolean | number | bigint;
  rate: number | null;
  latency: number | null;
  lastRunAt: Date | string | number | null;
  latestResult: string | null;
  firingAlerts: number | bigint;
};

/** Every link's status, by id; `linkId` for one link only (an empty list when it does not exist). */
export async function listLinkStatuses({ linkId }: { linkId?: number } = {}): Promise<LinkStatus[]> {
  const where = linkId === undefined ? Prisma.empty : Prisma.sql`WHERE l."id" = ${linkId}`;
  const rows = await db.$queryRaw<StatusRow[]>`
    SELECT l."id", l."name", l."speedMbps", l."homeAssistantRunButton",
      (SELECT r."receivedBitsPerSecond" FROM "Run" r
        WHERE r."linkId" = l."id" AND r."status" = 'succeeded' AND r."receivedBitsPerSecond" IS NOT NULL
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "rate",
      (SELECT r."latencyLoadedMedianMs" FROM "Run" r
        WHERE r."linkId" = l."id" AND r."status" = 'succeeded' AND r."latencyLoadedMedianMs" IS NOT NULL
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "latency",
      (SELECT r."endedAt" FROM "Run" r WHERE r."linkId" = l."id" AND r."endedAt" IS NOT NULL
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "lastRunAt",
      (SELECT r."status" FROM "Run" r WHERE r."linkId" = l."id" AND r."status" IN ('succeeded', 'failed')
        ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1) AS "latestResult",
      (SELECT COUNT(*) FROM "Alert" a WHERE a."linkId" = l."id" AND a."status" = 'firing') AS "firingAlerts"
    FROM "Link" l ${where}
    ORDER BY l."id" ASC`;
  return rows.map((row) => {
    const speedMbps = Number(row.speedMbps);
    const rate = row.rate === null ? null : Number(row.rate);
    return {
      id: Number(row.id),
      name: row.name,
      speedMbps,
      homeAssistantRunButton: Boolean(Number(row.homeAssistantRunButton)),
      receivedBitsPerSecond: rate,
      lineRatePercent: lineRatePercent(rate, speedMbps),
      loadedLatencyMs: row.latency === null ? null : Number(row.latency),
      lastRunAt: row.lastRunAt === null ? null : new Date(row.lastRunAt),
      latestResult: row.latestResult === "succeeded" || row.latestResult === "failed" ? row.latestResult : null,
      firingAlerts: Number(row.firingAlerts),
    };
  });
}

/** GET /api/summary: the lab in five figures, for a dashboard's widget. Its shape is kept stable. */
export type SummaryJson = {
  /** How many links there are. */
  links: number;
  /** Links whose newest result failed or that have a firing alert. */
  failingLinks: number;
  /** Alerts firing, over every link. */
  firingAlerts: number;
  /** When the newest run that ended, ended (ISO 8601), over every link; null when none has. */
  lastRunAt: string | null;
  /** The link with the lowest share of its line rate in its newest succeeded run; null when no link has one. */
  slowest: { linkName: string; lineRatePercent: number } | null;
};

/** The summary of `statuses` (listLinkStatuses); pure. Ties for the slowest go to the link named first. */
export function summarize(statuses: LinkStatus[]): SummaryJson {
  let lastRunAt: Date | null = null;
  let slowest: { linkName: string; lineRatePercent: number } | null = null;
  for (const link of statuses) {
    if (link.lastRunAt && (!lastRunAt || link.lastRunAt > lastRunAt)) lastRunAt = link.lastRunAt;
    const percent = link.lineRatePercent;
    if (percent === null) continue;
    if (
      !slowest ||
      percent < slowest.lineRatePercent ||
      (percent === slowest.lineRatePercent && link.name.localeCompare(slowest.linkName) < 0)
    )
      slowest = { linkName: link.name, lineRatePercent: percent };
  }
  return {
    links: statuses.length,
    failingLinks: statuses.filter((link) => link.latestResult === "failed" || link.firingAlerts > 0).length,
    firingAlerts: statuses.reduce((total, link) => total + link.firingAlerts, 0),
    lastRunAt: lastRunAt?.toISOString() ?? null,
    slowest,
  };
}

/** GET /api/summary's answer. */
export async function getSummary(): Promise<SummaryJson> {
  return summarize(await listLinkStatuses());
}
