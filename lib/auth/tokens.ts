import "server-only";
import { AccountError } from "./errors";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { parseInput } from "@/lib/errors";
import { recordAudit } from "./audit";
import { isRole } from "./roles";
import type { Principal } from "./principal";
import { TokenNameSchema } from "./schemas";
import { hashToken, newOpaqueToken } from "./secrets";

export const TOKEN_PREFIX = "wst_";

export type ApiTokenView = {
  id: number;
  userId: number;
  username: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

const select = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { username: true } },
} as const satisfies Prisma.ApiTokenSelect;

type Row = Prisma.ApiTokenGetPayload<{ select: typeof select }>;

function view(row: Row): ApiTokenView {
  return {
    id: row.id,
    userId: row.userId,
    username: row.user.username,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a token for the user; the token itself is in the answer and nowhere else, ever. */
export async function createApiToken(userId: number, name: unknown): Promise<{ token: string; view: ApiTokenView }> {
  const tokenName = parseInput(TokenNameSchema, name, "name");
  const token = newOpaqueToken(TOKEN_PREFIX);
  const row = await db.apiToken.create({
    data: { userId, name: tokenName, prefix: token.slice(0, TOKEN_PREFIX.length + 6), tokenHash: hashToken(token) },
    select,
  });
  await recordAudit("token.create", "token", row.id, `"${tokenName}" for ${row.user.username}`);
  return { token, view: view(row) };
}

/** Tokens of one user, or of everyone (userId undefined), newest first. */
export async function listApiTokens(userId?: number): Promise<ApiTokenView[]> {
  const rows = await db.apiToken.findMany({
    where: userId === undefined ? {} : { userId },
    orderBy: { id: "desc" },
    select,
  });
  return rows.map(view);
}

/**
 * Revokes a token: the next request that carries it is refused (tokens are looked up on
 * every request; nothing caches them). Users revoke their own; admins anyone's.
 */
export async function revokeApiToken(id: number, by: Principal): Promise<ApiTokenView> {
  const row = await db.apiToken.findUnique({ where: { id }, select });
  const mayRevoke = row && (row.userId === by.userId || by.role === "admin");
  if (!row || !mayRevoke) throw new AccountError("not-found", `API token ${id} does not exist.`);
  if (row.revokedAt) return view(row);
  const updated = await db.apiToken.update({ where: { id }, data: { revokedAt: new Date() }, select });
  await recordAudit("token.revoke", "token", id, `"${row.name}" of ${row.user.username}`);
  return view(updated);
}

/** The user behind a bearer token, or null when it is unknown, revoked, or its user is disabled. */
export async function principalOfApiToken(token: string): Promise<Principal | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, username: true, role: true, disabledAt: true } },
    },
  });
  if (!row || row.revokedAt || row.user.disabledAt || !isRole(row.user.role)) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { userId: row.user.id, name: row.user.username, role: row.user.role, via: "token", credentialId: row.id };
}
