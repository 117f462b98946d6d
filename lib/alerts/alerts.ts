import "server-only";
import { recordAudit } from "@/lib/auth/audit";
import { currentPrincipal } from "@/lib/auth/context";
import { db } from "@/lib/db";
import { AppError, parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/auth/roles";
import { deliveryErrorAsSeenBy } from "@/lib/notify/contract";
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

/**
 * Who reads: `role` when given (the pages pass their principal's), else the principal of the API request
 * or action being served, else a viewer. A viewer reads delivery errors with every URL cut to its origin.
 */
function readerRole(role?: Role): Role {
  return role ?? currentPrincipal()?.role ?? "viewer";
}

export function toAlertJson(row: AlertRow, role: Role = "viewer"): AlertJson {
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
      error: deliveryErrorAsSeenBy(notification.error, role),
      at: notification.at.toISOString(),
    })),
  };
}

function alertNotFound(id: number): AppError {
  return new AppError("not-found", `no alert has id ${id}`);
}

export type ListAlertsOptions = {
  status?: AlertStatus;
  linkId?: number;
  page?: number;
  pageSize?: number;
  /** The reader's role (see readerRole). */
  role?: Role;
};

/** Alerts, the most recently opened first; `status` and `linkId` narrow them. */
export async function listAlerts({
  status,
  linkId,
  page = 1,
  pageSize = 50,
  role,
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
  const reader = readerRole(role);
  return { alerts: rows.map((row) => toAlertJson(row, reader)), total, page, pageSize };
}

export async function getAlert(id: number, role?: Role): Promise<AlertJson> {
  const alertId = parseInput(IdSchema, id, "id");
  const row = await db.alert.findUnique({ where: { id: alertId }, include: alertInclude });
  if (!row) throw alertNotFound(alertId);
  return toAlertJson(row, readerRole(role));
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
  return toAlertJson(row, readerRole());
}

/** The firing alerts of every link that has one, oldest first: the overview's and link page's marks. */
export async function openAlertsByLink(role?: Role): Promise<Map<number, AlertJson[]>> {
  const reader = readerRole(role);
  const rows = await db.alert.findMany({
    where: { status: "firing" },
    orderBy: [{ openedAt: "asc" }, { id: "asc" }],
    include: alertInclude,
  });
  const byLink = new Map<number, AlertJson[]>();
  for (const row of rows) byLink.set(row.linkId, [...(byLink.get(row.linkId) ?? []), toAlertJson(row, reader)]);
  return byLink;
}
