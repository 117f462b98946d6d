import "server-only";
import { resolveOidc } from "@/lib/config";
import { db } from "@/lib/db";
import { parseInput } from "@/lib/errors";
import { recordAudit } from "./audit";
import { AuthError } from "./errors";
import { verifyAgainstNothing, verifyPassword } from "./password";
import type { Principal } from "./principal";
import { createThrottle, describeWait, throttleClientKey } from "./rate-limit";
import { isRole } from "./roles";
import { LoginSchema, usernameKey } from "./schemas";
import { createSession } from "./sessions";

// Failed sign-ins slow down the pair (user name, client address) after 5, and the client address,
// whatever names it tries, after 20: each further failure doubles the wait, from 5 s up to 15
// minutes. The right password from another address is never held up by someone else's guesses.
// An IPv6 client is counted by its /64 (throttleClientKey): one subscriber holds all of it.
const perPair = createThrottle({ free: 5, baseMs: 5000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 });
const perClient = createThrottle({ free: 20, baseMs: 5000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 });

function tooMany(ms: number): AuthError {
  return new AuthError("rate-limited", `Too many failed sign-ins: try again in ${describeWait(ms)}.`, {
    retryAfter: Math.ceil(ms / 1000),
  });
}

/**
 * Checks a username and password and opens a session. `client` is the caller's address
 * (lib/auth/client.ts; "" when unknown). Wrong username and wrong password get the same
 * answer, in the same time.
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
  const clientKey = throttleClientKey(client);
  const pairKey = `${usernameKey(username)} ${clientKey}`;
  const wait = Math.max(perPair.waitFor(pairKey), clientKey ? perClient.waitFor(clientKey) : 0);
  if (wait > 0) throw tooMany(wait);

  const user = await db.user.findUnique({
    where: { usernameKey: usernameKey(username) },
    select: { id: true, username: true, role: true, passwordHash: true, disabledAt: true, source: true },
  });
  // A user an identity provider or a proxy signs in has no password: refused as a wrong one, in the same time.
  const matches =
    user?.source === "local" ? await verifyPassword(password, user.passwordHash) : await verifyAgainstNothing(password);
  if (!user || !matches || user.disabledAt || !isRole(user.role)) {
    perPair.fail(pairKey);
    if (clientKey) perClient.fail(clientKey);
    await recordAudit(
      "session.login-failed",
      "session",
      null,
      `as "${username.slice(0, 64)}"${client ? ` from ${client}` : ""}`,
      null,
    );
    throw new AuthError("unauthorized", "Wrong username or password.");
  }
  perPair.reset(pairKey);
  const { token, expiresAt } = await createSession(user.id);
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  const principal: Principal = { userId: user.id, name: user.username, role: user.role, via: "session" };
  await recordAudit("session.login", "session", null, client ? `from ${client}` : "", principal);
  return { token, expiresAt, principal };
}
