import "server-only";
import { randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/auth/audit";
import { hashToken } from "@/lib/auth/secrets";
import { currentPrincipal } from "@/lib/auth/context";
import { resolvePublicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { AppError, parseInput } from "@/lib/errors";
import { getApp } from "@/lib/running-app";
import type { ShareJson, ShareListItem } from "./contract";
import { CreateShareSchema, type ShareKind } from "./schemas";

// Share links: a run, an experiment or a link's history, readable by anyone who holds the link's
// token until it expires or is revoked (deleted). The token is the secret: the database keeps only
// its SHA-256, as it keeps sessions' and API tokens' (lib/auth/secrets.ts), so its URL is shown once,
// to the one who made the share; it is never logged, nor written to the audit log.

const DAY_MS = 24 * 3600_000;
const KIND_WORDS: Record<ShareKind, string> = { run: "Run", experiment: "Experiment", link: "Link" };

type ShareRow = {
  id: number;
  tokenHash: string;
  kind: string;
  targetId: number;
  hideAddresses: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  createdBy: string;
};

/** Where a share's URL starts: WIRESPEED_PUBLIC_URL, else the origin the request came to. */
export function shareUrlOf(token: string, origin: string): string {
  return `${resolvePublicUrl() ?? origin.replace(/\/+$/, "")}/s/${token}`;
}

function isKind(value: string): value is ShareKind {
  return value === "run" || value === "experiment" || value === "link";
}

/** A share as listed: everything but its URL, which only its creation knows. */
function shareFields(row: ShareRow): Omit<ShareJson, "url"> {
  return {
    id: row.id,
    kind: isKind(row.kind) ? row.kind : "run",
    expiresAt: row.expiresAt?.toISOString() ?? null,
    hideAddresses: row.hideAddresses,
  };
}

/** The name of what a share shows, or null when it no longer exists. */
async function titlesOf(rows: ShareRow[]): Promise<Map<string, string>> {
  const idsOf = (kind: ShareKind) => [...new Set(rows.filter((row) => row.kind === kind).map((row) => row.targetId))];
  const [runs, experiments, links] = await Promise.all([
    db.run.findMany({ where: { id: { in: idsOf("run") } }, select: { id: true, link: { select: { name: true } } } }),
    db.experiment.findMany({ where: { id: { in: idsOf("experiment") } }, select: { id: true, name: true } }),
    db.link.findMany({ where: { id: { in: idsOf("link") } }, select: { id: true, name: true } }),
  ]);
  const titles = new Map<string, string>();
  for (const run of runs) titles.set(`run:${run.id}`, `Run #${run.id} on ${run.link.name}`);
  for (const experiment of experiments)
    titles.set(`experiment:${experiment.id}`, `Experiment #${experiment.id}: ${experiment.name}`);
  for (const link of links) titles.set(`link:${link.id}`, `Link ${link.name}`);
  return titles;
}

async function targetExists(kind: ShareKind, id: number): Promise<boolean> {
  const where = { where: { id }, select: { id: true } } as const;
  if (kind === "run") return (await db.run.findUnique(where)) !== null;
  if (kind === "experiment") return (await db.experiment.findUnique(where)) !== null;
  return (await db.link.findUnique(where)) !== null;
}

/**
 * Makes a share link of a run, an experiment or a link (`{ kind, id, expiresInDays, hideAddresses }`,
 * validated here: 400 naming each field, 404 naming `id` when there is nothing of that kind with it).
 * `origin`: the request's, for the URL when WIRESPEED_PUBLIC_URL is not set.
 */
export async function createShare(
  input: unknown,
  { origin, now = new Date() }: { origin: string; now?: Date },
): Promise<ShareJson> {
  const request = parseInput(CreateShareSchema, input);
  if (!(await targetExists(request.kind, request.id))) {
    throw new AppError("not-found", `${KIND_WORDS[request.kind]} ${request.id} does not exist.`, {
      fields: [{ field: "id", message: `names no ${request.kind}` }],
    });
  }
  const principal = currentPrincipal();
  const createdBy = principal ? (principal.via === "env-token" ? "WIRESPEED_API_TOKEN" : principal.name) : "system";
  const token = randomBytes(32).toString("base64url");
  const row = await db.share.create({
    data: {
      tokenHash: hashToken(token),
      kind: request.kind,
      targetId: request.id,
      hideAddresses: request.hideAddresses,
      expiresAt: request.expiresInDays === null ? null : new Date(now.getTime() + request.expiresInDays * DAY_MS),
      createdBy,
    },
  });
  await recordAudit(
    "share.create",
    "share",
    row.id,
    `${request.kind} #${request.id}, ${request.hideAddresses ? "addresses hidden" : "addresses shown"}, ${
      row.expiresAt ? `expires ${row.expiresAt.toISOString()}` : "never expires"
    }`,
  );
  const { id, kind, expiresAt, hideAddresses } = shareFields(row);
  return { id, url: shareUrlOf(token, origin), kind, expiresAt, hideAddresses };
}

/** Every share, newest first, expired ones too (they answer 404 until revoked); without their URLs. */
export async function listShares({ now = new Date() }: { now?: Date } = {}): Promise<ShareListItem[]> {
  const rows = await db.share.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const titles = await titlesOf(rows);
  return rows.map((row) => ({
    ...shareFields(row),
    targetId: row.targetId,
    title: titles.get(`${row.kind}:${row.targetId}`) ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    isExpired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  }));
}

/** Revokes a share: its link answers 404 from now on, here and on every instance. 404 when there is none. */
export async function revokeShare(id: number): Promise<void> {
  const row = await db.share.findUnique({ where: { id } });
  if (!row) throw new AppError("not-found", `Share ${id} does not exist.`);
  await db.share.deleteMany({ where: { id } });
  getApp().sharedPages.drop(row.id);
  await recordAudit("share.revoke", "share", id, `${row.kind} #${row.targetId}`);
}

/** A token as made: 43 base64url characters. Its hash is 64 hex characters, never one of these. */
const CLEAR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The share a token opens: null when there is none, or it has expired. */
export async function findOpenShare(token: string, now = new Date()): Promise<ShareRow | null> {
  // Anything but a token is looked up nowhere.
  if (!CLEAR_TOKEN.test(token)) return null;
  const row = await db.share.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return null;
  return row;
}

/**
 * At start, before a request is served: a share made before its token was kept hashed still holds
 * the token itself (the migration 20270110000000_share_token_hash only renamed the column, SQLite
 * having no SHA-256): it is hashed here, so that its link keeps working. Instances starting at once
 * write the same hash. Returns how many were hashed.
 */
export async function hashStoredShareTokens(): Promise<number> {
  const rows = await db.share.findMany({ select: { id: true, tokenHash: true } });
  const clear = rows.filter((row) => CLEAR_TOKEN.test(row.tokenHash));
  for (const row of clear) {
    await db.share.updateMany({
      where: { id: row.id, tokenHash: row.tokenHash },
      data: { tokenHash: hashToken(row.tokenHash) },
    });
  }
  return clear.length;
}
