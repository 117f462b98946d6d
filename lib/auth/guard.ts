import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { clientAddress } from "./client";
import { AuthError, forbidden } from "./errors";
import { currentPrincipal } from "./context";
import type { Principal } from "./principal";
import { createThrottle, describeWait, throttleClientKey } from "./rate-limit";
import { can, type Permission } from "./roles";
import { principalOfProxyHeader } from "./proxy-header";
import { principalOfSession, SESSION_COOKIE } from "./sessions";
import { principalOfApiToken } from "./tokens";
import { countUsers } from "./users";

// The one permission check. Pages (requirePage), server actions (runAction), route
// handlers and server-sent event streams (withApiAuth) each find the principal of the
// request their own way, then all call `authorize` with the permission they need.

/** The principal if it holds the permission; else a 401 (nobody signed in) or 403 AuthError. */
export function authorize(principal: Principal | null, permission: Permission): Principal {
  if (!principal) throw new AuthError("unauthorized", "Sign in first: this needs an account.");
  if (!can(principal.role, permission)) throw forbidden(principal.role, permission);
  return principal;
}

/** For checks below the wrapper (say, a host update that also changes credentials): the request's principal must hold `permission` too. */
export function authorizeCurrent(permission: Permission): void {
  const principal = currentPrincipal();
  // Outside a request (start-up, the CLI, tests of lib/) the system acts, and may.
  if (principal) authorize(principal, permission);
}

/** The read-only public overview (WIRESPEED_PUBLIC_OVERVIEW=1): who a visitor without an account is there. */
export const PUBLIC_VIEWER: Principal = { userId: null, name: "public", role: "viewer", via: "public" };

export function publicOverviewEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.WIRESPEED_PUBLIC_OVERVIEW === "1";
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

const ENV_TOKEN_ADMIN: Principal = { userId: null, name: "WIRESPEED_API_TOKEN", role: "admin", via: "env-token" };

/** WIRESPEED_API_TOKEN is an admin's key: shorter than this, it could be guessed. */
export const MIN_API_TOKEN_LENGTH = 32;

/** The reason the server refuses to start with this WIRESPEED_API_TOKEN, or null when it is fine (or unset). */
export function apiTokenProblem(env: Record<string, string | undefined> = process.env): string | null {
  const token = env.WIRESPEED_API_TOKEN;
  if (!token) return null;
  if (token.length < MIN_API_TOKEN_LENGTH || /\s/.test(token)) {
    return (
      `WIRESPEED_API_TOKEN must be at least ${MIN_API_TOKEN_LENGTH} characters without spaces (it has ${token.length}): ` +
      "make one with `openssl rand -hex 32`"
    );
  }
  return null;
}

// Wrong bearer tokens slow their client down after 10: each further one doubles the wait, from 1 s to 5 minutes.
// An IPv6 client is counted by its /64 (throttleClientKey).
const bearerFailures = createThrottle({ free: 10, baseMs: 1000, maxMs: 5 * 60_000, forgetMs: 60 * 60_000 });

/**
 * The principal of a bearer token: a user's API token, or WIRESPEED_API_TOKEN (an admin)
 * when that is set. A wrong token is a 401 even when a session cookie is also sent; a client
 * (`client`, its address; "" when unknown) that keeps sending wrong ones is answered 429 for a while.
 */
export async function principalOfBearer(
  header: string,
  client = "",
  env: Record<string, string | undefined> = process.env,
): Promise<Principal> {
  const clientKey = throttleClientKey(client);
  const wait = clientKey ? bearerFailures.waitFor(clientKey) : 0;
  if (wait > 0) {
    throw new AuthError("rate-limited", `Too many wrong bearer tokens: try again in ${describeWait(wait)}.`, {
      retryAfter: Math.ceil(wait / 1000),
    });
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new AuthError("unauthorized", "The Authorization header must be Bearer <token>.");
  const token = match[1]!;
  const expected = env.WIRESPEED_API_TOKEN;
  if (expected && sameSecret(token, expected)) return ENV_TOKEN_ADMIN;
  const principal = await principalOfApiToken(token);
  if (!principal) {
    if (clientKey) bearerFailures.fail(clientKey);
    throw new AuthError("unauthorized", "The bearer token is wrong, revoked, or its user is disabled.");
  }
  return principal;
}

function cookieOf(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return undefined; // a malformed %-escape: no session, not a server error
    }
  }
  return undefined;
}

/**
 * A request's principal from its bearer token, a trusted proxy's user header (lib/auth/proxy-header.ts)
 * or its session cookie; null when it carries none of them.
 */
export async function principalOfRequest(request: Request): Promise<Principal | null> {
  const authorization = request.headers.get("authorization");
  if (authorization) return principalOfBearer(authorization, clientAddress(request.headers));
  const session =
    (await principalOfProxyHeader(request.headers)) ??
    (await principalOfSession(cookieOf(request.headers.get("cookie"), SESSION_COOKIE)));
  if (!session) return null;
  // A cookie (and the proxy's header, added to whatever the browser sends) rides along on any
  // request the browser makes, another site's too: writes made with one must come from the app's own pages.
  if (request.method !== "GET" && request.method !== "HEAD" && !fromOwnPages(request)) {
    throw new AuthError(
      "forbidden",
      "A cookie-authenticated change must come from Wirespeed's own pages: use a bearer token from scripts.",
    );
  }
  return session;
}

function fromOwnPages(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host === (request.headers.get("x-forwarded-host") ?? request.headers.get("host"));
  } catch {
    return false;
  }
}

/**
 * What a trusted proxy's user header says of the page or server action being served: its user, or
 * why that user is refused (shown on the login page). Read once per request.
 */
export const currentProxyOutcome = cache(async (): Promise<{ principal: Principal | null; refused: string | null }> => {
  try {
    return { principal: await principalOfProxyHeader(await headers()), refused: null };
  } catch (error) {
    if (error instanceof AuthError) return { principal: null, refused: error.message };
    throw error;
  }
});

/**
 * The signed-in user of the page or server action being served (a trusted proxy's header, else the
 * session cookie), or null. Read once per request: the layout, `generateMetadata` and the page all ask.
 */
export const currentSessionPrincipal = cache(async (): Promise<Principal | null> => {
  const proxied = await currentProxyOutcome();
  if (proxied.principal) return proxied.principal;
  const jar = await cookies();
  return principalOfSession(jar.get(SESSION_COOKIE)?.value);
});

/**
 * The check at the top of every page: sends visitors without a session to /setup (no
 * account exists yet) or /login, and signed-in users without the permission to /forbidden.
 * `allowPublic`: the page is the overview, which WIRESPEED_PUBLIC_OVERVIEW opens to all.
 */
export async function requirePage(permission: Permission, options: { allowPublic?: boolean } = {}): Promise<Principal> {
  const principal = await currentSessionPrincipal();
  if (!principal) {
    if (options.allowPublic && permission === "read" && publicOverviewEnabled()) return PUBLIC_VIEWER;
    if ((await countUsers()) === 0) redirect("/setup");
    const path = (await headers()).get("x-wirespeed-path");
    // Back to the page asked for after signing in (the overview is where sign-in goes anyway).
    redirect(
      path && path !== "/" && path.startsWith("/") && !path.startsWith("//")
        ? `/login?next=${encodeURIComponent(path)}`
        : "/login",
    );
  }
  try {
    return authorize(principal, permission);
  } catch {
    redirect(`/forbidden?need=${permission}`);
  }
}
