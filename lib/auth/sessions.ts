import "server-only";
import { resolveSessionMaxDays } from "@/lib/config";
import { db } from "@/lib/db";
import { isRole } from "./roles";
import type { Principal } from "./principal";
import { hashToken, newOpaqueToken } from "./secrets";

export const SESSION_COOKIE = "wirespeed_session";
const DAY_MS = 24 * 3600_000;
/** A session lasts this long after its last use... */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/** lastSeenAt (and the expiry) move at most this often, to spare the database a write per request. */
const TOUCH_EVERY_MS = 5 * 60_000;

// ... and WIRESPEED_SESSION_MAX_DAYS (default 30) after its sign-in at most, however often it is used:
// a session opened through an identity provider does not outlive by much the account there, nor a
// stolen cookie its owner's next sign-in.

/** The earliest creation of a session that has not reached its absolute lifetime at `now`. */
export function sessionsCreatedAfter(now: Date): Date {
  return new Date(now.getTime() - resolveSessionMaxDays() * DAY_MS);
}

/** The expiry of a session created at `createdAt` and used at `now`: idle time from now, within its lifetime. */
function expiryOf(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + resolveSessionMaxDays() * DAY_MS));
}

export async function createSession(userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newOpaqueToken("wss_");
  const now = new Date();
  const expiresAt = expiryOf(now, now);
  await db.session.create({ data: { tokenHash: hashToken(token), userId, createdAt: now, expiresAt } });
  // Expired sessions of anyone are cleared now and then, here rather than on a timer.
  await db.session.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } }, { createdAt: { lt: sessionsCreatedAfter(now) } }] },
  });
  return { token, expiresAt };
}

/** The signed-in user of a session cookie, or null when it is unknown, expired, or its user is disabled. */
export async function principalOfSession(token: string | undefined): Promise<Principal | null> {
  if (!token || token.length > 200) return null;
  const session = await db.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      lastSeenAt: true,
      user: { select: { id: true, username: true, role: true, disabledAt: true } },
    },
  });
  const now = new Date();
  if (!session || session.expiresAt <= now || session.createdAt <= sessionsCreatedAfter(now)) return null;
  const { user } = session;
  if (user.disabledAt || !isRole(user.role)) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.session.update({
      where: { id: session.id },
      data: { lastSeenAt: now, expiresAt: expiryOf(session.createdAt, now) },
    });
  }
  return { userId: user.id, name: user.username, role: user.role, via: "session", credentialId: session.id };
}

export async function deleteSession(token: string): Promise<void> {
  await db.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}

/**
 * Cookie attributes: httpOnly (no script reads it), SameSite=Lax (not sent on another
 * site's form posts or fetches), Secure when the app is reached over HTTPS.
 */
export function sessionCookieOptions(secure: boolean, expires: Date) {
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", expires };
}

/**
 * Whether the request came over HTTPS: directly, or through a proxy that says so in
 * X-Forwarded-Proto. WIRESPEED_SECURE_COOKIES=1 forces Secure cookies whatever the request says.
 */
export function isSecureRequest(headers: Headers, env: Record<string, string | undefined> = process.env): boolean {
  if (env.WIRESPEED_SECURE_COOKIES === "1") return true;
  const forwarded = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}
