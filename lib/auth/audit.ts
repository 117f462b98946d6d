import "server-only";
import { db } from "@/lib/db";
import { currentPrincipal } from "./context";
import type { Principal } from "./principal";

// The audit log: one row per change of the inventory or of users, per run started or
// cancelled, per sign-in. Called by lib/ functions right after the change is written;
// the actor is the principal of the request being served (lib/auth/context.ts).

export type AuditAction =
  | "host.create"
  | "host.update"
  | "host.delete"
  | "host.trust"
  | "nic.create"
  | "nic.update"
  | "nic.delete"
  | "nic.discover"
  | "link.create"
  | "link.update"
  | "link.delete"
  | "run.start"
  | "run.cancel"
  | "run.import"
  | "run.note"
  | "experiment.start"
  | "experiment.cancel"
  | "experiment.note"
  | "schedule.create"
  | "schedule.update"
  | "schedule.delete"
  | "channel.create"
  | "channel.update"
  | "channel.delete"
  | "channel.test"
  | "alert-rule.create"
  | "alert-rule.update"
  | "alert-rule.delete"
  | "alert.ack"
  | "share.create"
  | "share.revoke"
  | "user.create"
  | "user.update"
  | "user.delete"
  | "user.setup"
  | "token.create"
  | "token.revoke"
  | "session.login"
  | "session.logout"
  | "session.login-failed";

export type AuditTarget =
  | "host"
  | "nic"
  | "link"
  | "run"
  | "experiment"
  | "schedule"
  | "channel"
  | "alert-rule"
  | "alert"
  | "share"
  | "user"
  | "token"
  | "session";

export async function recordAudit(
  action: AuditAction,
  target: AuditTarget,
  targetId: number | null,
  detail = "",
  actor: Principal | null = currentPrincipal(),
): Promise<void> {
  await db.auditEvent.create({
    data: {
      actorId: actor?.userId ?? null,
      actorName: actor ? (actor.via === "env-token" ? "WIRESPEED_API_TOKEN" : actor.name) : "system",
      action,
      target,
      targetId,
      detail: detail.slice(0, 500),
    },
  });
}

export type AuditEventView = {
  id: number;
  at: string;
  actorName: string;
  action: string;
  target: string;
  targetId: number | null;
  detail: string;
};

export async function listAuditEvents(
  page: number,
  perPage: number,
): Promise<{ events: AuditEventView[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.auditEvent.findMany({ orderBy: { id: "desc" }, skip: (page - 1) * perPage, take: perPage }),
    db.auditEvent.count(),
  ]);
  return {
    events: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actorName: row.actorName,
      action: row.action,
      target: row.target,
      targetId: row.targetId,
      detail: row.detail,
    })),
    total,
  };
}
