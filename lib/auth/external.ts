import "server-only";
import { nameList } from "@/lib/config";
import { db } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db-errors";
import { recordAudit } from "./audit";
import { AuthError } from "./errors";
import type { Principal } from "./principal";
import { ROLES, type Role } from "./roles";
import { usernameKey } from "./schemas";

// Users an external authority vouches for (an OpenID Connect provider, a trusted proxy's header):
// created at their first sign-in without a password, their role set from the authority's groups at
// every sign-in. A local account is never handed to an external identity of the same name.

export type ExternalSource = "oidc" | "proxy";
export type GroupRoles = { admin: string[]; operator: string[]; viewer: string[] };

/** How each source is named in messages. */
export const SOURCE_NAMES: Record<ExternalSource, string> = {
  oidc: "the identity provider",
  proxy: "the trusted proxy",
};

/** The highest role whose groups include one of `groups`; null when none. */
export function roleFromGroups(groups: readonly string[], mapping: GroupRoles): Role | null {
  // ROLES runs from the highest role down: the first that matches wins.
  return ROLES.find((role) => mapping[role].some((group) => groups.includes(group))) ?? null;
}

/** The group → role mapping from WIRESPEED_OIDC_ADMIN_GROUPS / _OPERATOR_GROUPS / _VIEWER_GROUPS. */
export function groupRolesFromEnv(env: Record<string, string | undefined> = process.env): GroupRoles {
  return {
    admin: nameList(env.WIRESPEED_OIDC_ADMIN_GROUPS),
    operator: nameList(env.WIRESPEED_OIDC_OPERATOR_GROUPS),
    viewer: nameList(env.WIRESPEED_OIDC_VIEWER_GROUPS),
  };
}

const select = {
  id: true,
  username: true,
  role: true,
  source: true,
  subject: true,
  disabledAt: true,
} as const;

/**
 * The principal of a user an external authority vouches for: created on first sight (marked with its source,
 * no password), its role set from `role`; throws AuthError (kind "forbidden", a message saying why) when the
 * user is disabled, when a local account of that name exists, or when role is null.
 * `subject` is the stable identity (OIDC: issuer + sub; proxy: the user name).
 */
export async function principalOfExternalUser(input: {
  username: string;
  subject: string;
  role: Role | null;
  source: ExternalSource;
  client: string;
}): Promise<Principal> {
  const { username, subject, role, source, client } = input;
  const from = SOURCE_NAMES[source];
  const key = usernameKey(username);
  const known = await db.user.findUnique({ where: { source_subject: { source, subject } }, select });
  if (known?.disabledAt) throw new AuthError("forbidden", `The account ${known.username} is disabled: ask an admin.`);
  // The name may already belong to someone else: a local account is never taken over, nor another external user.
  const holder =
    known && usernameKey(known.username) === key
      ? null
      : await db.user.findUnique({ where: { usernameKey: key }, select });
  if (holder) {
    throw new AuthError(
      "forbidden",
      holder.source === "local"
        ? `A local account named ${holder.username} exists: it is not handed to ${from}. Sign in with its password, or ask an admin to rename or delete it.`
        : `Another account named ${holder.username} exists (${holder.source === source ? "another identity" : `signed in by ${SOURCE_NAMES[holder.source as ExternalSource] ?? holder.source}`}): ask an admin to delete it.`,
    );
  }
  if (role === null) {
    const sentence = `${from.charAt(0).toUpperCase()}${from.slice(1)} grants ${username} no role in Wirespeed`;
    throw new AuthError("forbidden", `${sentence}: none of their groups is one that gives a role.`);
  }

  const now = new Date();
  let row;
  try {
    row = known
      ? await db.user.update({
          where: { id: known.id },
          data: { username, usernameKey: key, role, lastLoginAt: now },
          select,
        })
      : await db.user.create({
          data: { username, usernameKey: key, passwordHash: "", role, source, subject, lastLoginAt: now },
          select,
        });
  } catch (error) {
    // Two first sign-ins of one name at once: the loser is told to try again rather than shown a 500.
    if (isUniqueViolation(error))
      throw new AuthError("forbidden", `The account ${username} was being created meanwhile: sign in again.`);
    throw error;
  }
  const principal: Principal = {
    userId: row.id,
    name: row.username,
    role,
    via: source === "proxy" ? "proxy" : "session",
  };
  if (!known) {
    await recordAudit(
      "user.create",
      "user",
      row.id,
      `${row.username} as ${role}, at the first sign-in through ${from}${client ? ` from ${client}` : ""}`,
      principal,
    );
  } else if (known.role !== role || known.username !== username) {
    const what = [
      known.username !== username && `renamed from ${known.username}`,
      known.role !== role && `role ${known.role} → ${role}`,
    ].filter(Boolean);
    await recordAudit("user.update", "user", row.id, `${row.username}: ${what.join(", ")} by ${from}`, principal);
  }
  return principal;
}
