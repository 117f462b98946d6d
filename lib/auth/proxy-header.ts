import "server-only";
import { db } from "@/lib/db";
import { fromTrustedProxy, peerAddress } from "./client";
import { AuthError } from "./errors";
import { nameList } from "@/lib/config";
import { groupRolesFromEnv, principalOfExternalUser, roleFromGroups } from "./external";
import type { Principal } from "./principal";
import { isRole, type Role } from "./roles";
import { UsernameSchema } from "./schemas";

// Sign-in by a trusted reverse proxy (Authelia, Authentik's proxy outpost, oauth2-proxy): the proxy
// authenticates the visitor and names them in a header on every request it forwards
// (WIRESPEED_AUTH_HEADER=Remote-User), with their groups in another (WIRESPEED_AUTH_GROUPS_HEADER=
// Remote-Groups, mapped to roles by the WIRESPEED_OIDC_*_GROUPS lists). The header is believed only
// on a connection from an address of WIRESPEED_TRUSTED_PROXIES; from anywhere else it is ignored,
// and said once in the log per address.

type Env = Record<string, string | undefined>;

const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** Why the server refuses to start with these proxy header settings, or null. */
export function proxyHeaderProblem(env: Env = process.env): string | null {
  const header = env.WIRESPEED_AUTH_HEADER;
  const groups = env.WIRESPEED_AUTH_GROUPS_HEADER;
  if (!header) return groups ? "WIRESPEED_AUTH_GROUPS_HEADER is set without WIRESPEED_AUTH_HEADER" : null;
  for (const [name, value] of [
    ["WIRESPEED_AUTH_HEADER", header],
    ["WIRESPEED_AUTH_GROUPS_HEADER", groups],
  ] as const) {
    if (value !== undefined && value !== "" && !HEADER_NAME.test(value))
      return `${name} must be a header name such as Remote-User (letters, digits and '-')`;
  }
  if (!(env.WIRESPEED_TRUSTED_PROXIES ?? "").trim()) {
    return "WIRESPEED_AUTH_HEADER needs WIRESPEED_TRUSTED_PROXIES: the addresses or CIDRs of the proxies allowed to name the user";
  }
  return null;
}

const warned = new Set<string>();

/** The header from an address that may not send it: ignored, and said once per address. */
function warnUntrusted(address: string, header: string): void {
  const key = address || "an unknown address";
  if (warned.has(key) || warned.size >= 1000) return;
  warned.add(key);
  console.warn(
    `[wirespeed] ignored the ${header} header from ${key}: it is not in WIRESPEED_TRUSTED_PROXIES (said once per address)`,
  );
}

/**
 * The user a trusted proxy names in WIRESPEED_AUTH_HEADER, created at first sight; null when the header is
 * not configured, absent, or sent by anyone but a trusted proxy. Throws AuthError (403, saying why) for a
 * disabled user, a local account of that name, a malformed name, or groups that grant no role.
 */
export async function principalOfProxyHeader(headers: Headers, env: Env = process.env): Promise<Principal | null> {
  const header = env.WIRESPEED_AUTH_HEADER;
  if (!header) return null;
  const named = headers.get(header)?.trim();
  if (!named) return null;
  if (!fromTrustedProxy(headers, env)) {
    warnUntrusted(peerAddress(headers, env), header);
    return null;
  }
  const parsed = UsernameSchema.safeParse(named);
  if (!parsed.success) {
    throw new AuthError(
      "forbidden",
      `The trusted proxy's ${header} header names a user Wirespeed cannot hold: a user name ${parsed.error.issues[0]?.message ?? "is malformed"}.`,
    );
  }
  const username = parsed.data;
  const client = peerAddress(headers, env);
  const groupsHeader = env.WIRESPEED_AUTH_GROUPS_HEADER;
  const known = await db.user.findUnique({
    where: { source_subject: { source: "proxy", subject: username } },
    select: { id: true, username: true, role: true, disabledAt: true },
  });
  // Without a groups header, a new user is a viewer and keeps the role an admin gives it on /users.
  const role: Role | null = groupsHeader
    ? roleFromGroups(nameList(headers.get(groupsHeader) ?? ""), groupRolesFromEnv(env))
    : known && isRole(known.role)
      ? known.role
      : "viewer";
  // Every request carries the header: the usual one is a read of the user, not a write.
  if (known && !known.disabledAt && known.role === role && known.username === username) {
    return { userId: known.id, name: known.username, role, via: "proxy" };
  }
  return principalOfExternalUser({ username, subject: username, role, source: "proxy", client });
}
