import "server-only";
import { recordAudit } from "@/lib/auth/audit";
import { currentPrincipal } from "@/lib/auth/context";
import { db } from "@/lib/db";
import { AppError, parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AlertJson, AlertListPage, AlertStatus } from "./contract";

// Reads of alerts for the API and the pages, and acknowledging one. Alerts are opened and
// resolved by the watcher (watcher.ts) only.

const alertInclude = {
  rule: { select: { id: true, name: true } },
  link: { select: { id: true, name: true } },
  notifications: { orderBy: [{ at: "asc" }, { id: "asc" }] },
} as const satisfies Prisma.AlertInclude;

type AlertRow = Prisma.AlertGetPayload<{ include: typeof alertInclude }>;

/** A stored list of run ids; anything else reads as none. */
function runIdsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : [];
}

export function toAlertJson(row: AlertRow): AlertJson {
  return {
    id: row.id,
    status: row.status === "resolved" ? "resolved" : "firing",
    rule: row.rule,
    link: row.link,
    title: row.title,
    body: row.body,
    runIds: runIdsOf(row.runIds),
    resolvedRunIds: runIdsOf(row.resolvedRunIds),
    receivedBitsPerSecond: row.receivedBitsPerSecond,
    baselineBitsPerSecond: row.baselineBitsPerSecond,
    lineRatePercent: row.lineRatePercent,
    openedAt: row.openedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
    notifications: row.notifications.map((notification) => ({
      channelName: notification.channelName,
      event: notification.event,
      status: notification.status,
      attempts: notification.attempts,
      error: notification.error,
      at: notification.at.toISOString(),
    })),
  };
}

function alertNotFound(id: number): AppError {
  return new AppError("not-found", `no alert has id ${id}`);
}

export type ListAlertsOptions = { status?: AlertStatus; linkId?: number; page?: number; pageSize?: number };

/** Alerts, the most recently opened first; `status` and `linkId` narrow them. */
export async function listAlerts({
  status,
  linkId,
  page = 1,
  pageSize = 50,
}: ListAlertsOptions = {}): Promise<AlertListPage> {
  const where: Prisma.AlertWhereInput = { ...(status ? { status } : {}), ...(linkId === undefined ? {} : { linkId }) };
  const [total, rows] = await Promise.all([
    db.alert.count({ where }),
    db.alert.findMany({
      where,
      orderBy: [{ openedAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: alertInclude,
    }),
  ]);
  return { alerts: rows.map(toAlertJson), total, page, pageSize };
}

export async function getAlert(id: number): Promise<AlertJson> {
  const alertId = parseInput(IdSchema, id, "id");
  const row = await db.alert.findUnique({ where: { id: alertId }, include: alertInclude });
  if (!row) throw alertNotFound(alertId);
  return toAlertJson(row);
}

/**
 * Marks an alert as seen by the current principal. It stays firing until its runs recover;
 * acknowledging again keeps the first acknowledgement.
 */
export async function acknowledgeAlert(id: number): Promise<AlertJson> {
  const alertId = parseInput(IdSchema, id, "id");
  const principal = currentPrincipal();
  const by = principal ? (principal.via === "env-token" ? "WIRESPEED_API_TOKEN" : principal.name) : "system";
  // Conditioned on not acknowledged yet: two people acknowledging at once leave the first name.
  const { count } = await db.alert.updateMany({
    where: { id: alertId, acknowledgedAt: null },
    data: { acknowledgedAt: new Date(), acknowledgedBy: by },
  });
  const row = await db.alert.findUnique({ where: { id: alertId }, include: alertInclude });
  if (!row) throw alertNotFound(alertId);
  if (count > 0) await recordAudit("alert.ack", "alert", row.id, row.title);
  return toAlertJson(row);
}

/** The firing alerts of every link that has one, oldest first: the overview's and link page's marks. */
export async function openAlertsByLink(): Promise<Map<number, AlertJson[]>> {
  const rows = await db.alert.findMany({
    where: { status: "firing" },
    orderBy: [{ openedAt: "asc" }, { id: "asc" }],
    include: alertInclude,
  });
  const byLink = new Map<number, AlertJson[]>();
  for (const row of rows) byLink.set(row.linkId, [...(byLink.get(row.linkId) ?? []), toAlertJson(row)]);
  return byLink;
}
