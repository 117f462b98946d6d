import "server-only";
import { resolveOidc } from "@/lib/config";
import { db } from "@/lib/db";
import { parseInput } from "@/lib/errors";
import { recordAudit } from "./audit";
import { AuthError } from "./errors";
import { verifyAgainstNothing, verifyPassword } from "./password";
import type { Principal } from "./principal";
import { createRateLimiter } from "./rate-limit";
import { isRole } from "./roles";
import { LoginSchema, usernameKey } from "./schemas";
import { createSession } from "./sessions";

// Sign-in attempts: 5 failures per username and 20 per client address within 15
// minutes, then every attempt (right or wrong) is refused until the window passes.
const WINDOW_MS = 15 * 60_000;
const perUser = createRateLimiter(5, WINDOW_MS);
const perClient = createRateLimiter(20, WINDOW_MS);

function tooMany(ms: number): AuthError {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return new AuthError(
    "rate-limited",
    `Too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    { retryAfter: Math.ceil(ms / 1000) },
  );
}

/**
 * Checks a username and password and opens a session. `client` is the caller's address
 * when a trusted proxy gives it (else ""). Wrong username and wrong password get the
 * same answer, in the same time.
 */
export async function signIn(
  input: unknown,
  client: string,
): Promise<{ token: string; expiresAt: Date; principal: Principal }> {
  const oidc = resolveOidc();
  if (oidc?.only) {
    throw new AuthError("forbidden", `Password sign-in is turned off here: sign in with ${oidc.name} instead.`);
  }
  const { username, password } = parseInput(LoginSchema, input);
  const userKey = `user:${usernameKey(username)}`;
  const clientKey = `client:${client}`;
  const wait = Math.max(perUser.blockedFor(userKey), client ? perClient.blockedFor(clientKey) : 0);
  if (wait > 0) throw tooMany(wait);

  const user = await db.user.findUnique({
    where: { usernameKey: usernameKey(username) },
    select: { id: true, username: true, role: true, passwordHash: true, disabledAt: true, source: true },
  });
  // A user an identity provider or a proxy signs in has no password: refused as a wrong one, in the same time.
  const matches =
    user?.source === "local" ? await verifyPassword(password, user.passwordHash) : await verifyAgainstNothing(password);
  if (!user || !matches || user.disabledAt || !isRole(user.role)) {
    perUser.fail(userKey);
    if (client) perClient.fail(clientKey);
    await recordAudit(
      "session.login-failed",
      "session",
      null,
      `as "${username.slice(0, 64)}"${client ? ` from ${client}` : ""}`,
      null,
    );
    throw new AuthError("unauthorized", "Wrong username or password.");
  }
  perUser.reset(userKey);
  const { token, expiresAt } = await createSession(user.id);
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  const principal: Principal = { userId: user.id, name: user.username, role: user.role, via: "session" };
  await recordAudit("session.login", "session", null, client ? `from ${client}` : "", principal);
  return { token, expiresAt, principal };
}

/** The client's address as a trusted reverse proxy reports it (WIRESPEED_TRUST_PROXY=1), else "". */
export function clientAddress(headers: Headers, env: Record<string, string | undefined> = process.env): string {
  if (env.WIRESPEED_TRUST_PROXY !== "1") return "";
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? headers.get("x-real-ip")?.trim() ?? "";
  return /^[0-9a-fA-F:.]{2,45}$/.test(forwarded) ? forwarded : "";
}
