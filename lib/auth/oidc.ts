import "server-only";
import * as client from "openid-client";
import { type OidcConfig, resolveOidc } from "@/lib/config";
import { safeNextPath } from "./next-path";
import { envelopeKind, openText, sealText } from "@/lib/secrets/envelope";
import { loadKeys } from "@/lib/secrets/keys";
import { recordAudit } from "./audit";
import { AuthError } from "./errors";
import { groupRolesFromEnv, principalOfExternalUser, roleFromGroups, type GroupRoles } from "./external";
import type { Principal } from "./principal";
import { ROLES } from "./roles";
import { createSession } from "./sessions";

// Sign-in through an OpenID Connect provider (authorization code flow with PKCE, state and nonce,
// through openid-client). What the browser carries between the two legs (the PKCE verifier, the
// state, the nonce) travels in a cookie sealed with the key of the host credentials (lib/secrets),
// good for 10 minutes and deleted at its first use, so that a replayed callback is refused.

/** The cookie of a sign-in under way, between the redirect to the provider and the callback. */
export const OIDC_PENDING_COOKIE = "wirespeed_oidc_pending";
/** The cookie that carries why a sign-in failed to the page that says so (/login or /login/refused). */
export const OIDC_NOTICE_COOKIE = "wirespeed_oidc_notice";
export const OIDC_PENDING_MS = 10 * 60_000;
export const OIDC_NOTICE_MS = 60_000;
/** Asked of the provider; unknown scopes are ignored by providers (OpenID Connect Core 3.1.2.1). */
const SCOPES = "openid profile email groups";
/** Seconds the provider has to answer discovery, the token and the userinfo requests. */
const TIMEOUT_SECONDS = 10;

/**
 * Why a sign-in through the provider did not happen, written for the user. `page`: "login" when trying
 * again may work (the provider unreachable, the sign-in expired or replayed), "refused" when it will not
 * until someone changes something (no group, a local account of that name, a disabled account).
 */
export class OidcSignInError extends Error {
  constructor(
    readonly page: "login" | "refused",
    message: string,
  ) {
    super(message);
  }
}

/** What the login page needs: the button's name and whether passwords are off; null when sign-in through a provider is off. */
export function oidcSettings(
  env: Record<string, string | undefined> = process.env,
): { name: string; only: boolean } | null {
  const settings = resolveOidc(env);
  return settings ? { name: settings.name, only: settings.only } : null;
}

function settingsOrThrow(): OidcConfig {
  const settings = resolveOidc();
  if (!settings) throw new OidcSignInError("login", "Sign-in through an identity provider is not set up here.");
  return settings;
}

// Discovery happens at the first sign-in and is kept; a failure is forgotten, so the next sign-in asks again.
let discovered: { key: string; configuration: Promise<client.Configuration> } | null = null;

function providerConfiguration(settings: OidcConfig): Promise<client.Configuration> {
  const key = `${settings.issuer.href} ${settings.clientId}`;
  if (discovered?.key === key) return discovered.configuration;
  const configuration = client
    .discovery(
      settings.issuer,
      settings.clientId,
      { client_secret: settings.clientSecret },
      client.ClientSecretBasic(settings.clientSecret),
      { execute: settings.allowHttp ? [client.allowInsecureRequests] : [], timeout: TIMEOUT_SECONDS },
    )
    .catch((error: unknown) => {
      if (discovered?.configuration === configuration) discovered = null;
      console.error(`[wirespeed] OpenID Connect: discovery at ${settings.issuer.href} failed: ${describe(error)}`);
      throw new OidcSignInError(
        "login",
        `${settings.name} cannot be reached (${settings.issuer.href}): try again later, or ask an admin to check WIRESPEED_OIDC_ISSUER.`,
      );
    });
  discovered = { key, configuration };
  return configuration;
}

/** An error's message and cause, for the server's log only (never a token or the client secret). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

// The sealed cookie: the key of the host credentials, loaded once per process (as lib/inventory/secrets.ts does).
let keyring: ReturnType<typeof loadKeys>["keyring"] | undefined;
function keys() {
  keyring ??= loadKeys(process.env).keyring;
  return keyring;
}

export type Pending = {
  purpose: "oidc-pending";
  verifier: string;
  state: string;
  nonce: string;
  /** The page to open once signed in (a path of this app: safeNextPath). */
  next: string;
  expiresAt: number;
};
export type Notice = { purpose: "oidc-notice"; page: "login" | "refused"; message: string; expiresAt: number };

/** `value` sealed (AES-256-GCM under the current key) for a cookie. */
export function sealCookie(value: Pending | Notice): string {
  return Buffer.from(sealText(JSON.stringify(value), keys().current)).toString("base64url");
}

/** The sealed cookie's value when it opens, has this purpose and has not expired; else null. */
export function openCookie<T extends Pending | Notice>(
  cookie: string | undefined,
  purpose: T["purpose"],
  now = Date.now(),
): T | null {
  if (!cookie || cookie.length > 4096) return null;
  const bytes = Buffer.from(cookie, "base64url");
  // Only sealed bytes: openText would also read plain JSON (a legacy host secret), which anyone could write.
  if (envelopeKind(bytes) !== "sealed") return null;
  try {
    const value = JSON.parse(openText(bytes, keys())) as Partial<T>;
    if (value.purpose !== purpose || typeof value.expiresAt !== "number" || value.expiresAt <= now) return null;
    return value as T;
  } catch {
    return null;
  }
}

// The states this process has taken, until their cookie expires: a callback replayed with a copy of the
// cookie is refused too (the provider refuses a code used twice anyway).
const usedStates = new Map<string, number>();

/** False when the state was already taken; else remembers it. */
function takeState(state: string, expiresAt: number, now = Date.now()): boolean {
  for (const [taken, until] of usedStates) if (until <= now) usedStates.delete(taken);
  if (usedStates.has(state)) return false;
  usedStates.set(state, expiresAt);
  return true;
}

/** A sealed notice of why the sign-in failed, for the page that says so. */
export function noticeCookie(error: OidcSignInError): string {
  return sealCookie({
    purpose: "oidc-notice",
    page: error.page,
    message: error.message,
    expiresAt: Date.now() + OIDC_NOTICE_MS,
  });
}

/** The notice a page shows, or null. */
export function readNotice(cookie: string | undefined): { page: "login" | "refused"; message: string } | null {
  const notice = openCookie<Notice>(cookie, "oidc-notice");
  return notice ? { page: notice.page, message: notice.message } : null;
}

/** The provider's authorization URL, and the sealed cookie that the callback needs; `next`: the page to open after. */
export async function beginOidcSignIn(next?: unknown): Promise<{ url: URL; pending: string }> {
  const settings = settingsOrThrow();
  const configuration = await providerConfiguration(settings);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.redirectUri,
    scope: SCOPES,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const pending = sealCookie({
    purpose: "oidc-pending",
    verifier,
    state,
    nonce,
    next: safeNextPath(next),
    expiresAt: Date.now() + OIDC_PENDING_MS,
  });
  return { url, pending };
}

type Claims = Record<string, unknown>;

/** The claim named `name`, or, when no claim has that name and it has dots, the path it names (realm_access.roles). */
function claimAt(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split(".")) {
    if (typeof value !== "object" || value === null || !(part in value)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

/** The group names of a claim: a list of names, or one name. */
export function groupsOf(claims: Claims, claim: string): string[] {
  const value = claimAt(claims, claim);
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((group): group is string => typeof group === "string") : [];
}

/**
 * A user name made of the characters user names allow (lib/auth/schemas.ts), from preferred_username, else
 * the email, else sub: every run of other characters becomes "-", at most 64 characters, starting with a
 * letter or digit.
 */
export function usernameOf(claims: Claims): string {
  const candidates = [claims.preferred_username, claims.email, claims.sub];
  for (const candidate of candidates) {
    if (typeof candidate !== "string") continue;
    const name = candidate
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[^A-Za-z0-9]+/, "")
      .slice(0, 64)
      .replace(/[^A-Za-z0-9]+$/, "");
    if (name) return name;
  }
  throw new OidcSignInError("refused", "The identity provider named no user (no preferred_username, email or sub).");
}

/** Why nobody of these groups gets a role: the claim read and the groups that would give one; never the token. */
export function noRoleMessage(settings: OidcConfig, mapping: GroupRoles, username: string, hasClaim: boolean): string {
  const needed = ROLES.filter((role) => mapping[role].length > 0)
    .map((role) => `${role}: ${mapping[role].join(", ")}`)
    .join("; ");
  const found = hasClaim
    ? `the "${settings.roleClaim}" claim of ${username} names none of the groups that give a role here`
    : `${settings.name} sent no "${settings.roleClaim}" claim for ${username}`;
  return `${found}. One of these groups is needed (${needed}): ask the admin of ${settings.name} to add you to one.`;
}

/**
 * The callback: checks the provider's answer against the sealed cookie (state, nonce, PKCE verifier; an
 * absent, expired or replayed cookie is refused), reads the user and their groups, and opens a session.
 * Every outcome is audited as a password sign-in is. Throws OidcSignInError with a message for the user.
 */
export async function finishOidcSignIn(input: {
  /** The callback URL as the browser asked for it: its query is the provider's answer. */
  search: string;
  pending: string | undefined;
  client: string;
}): Promise<{ token: string; expiresAt: Date; principal: Principal; next: string }> {
  const settings = settingsOrThrow();
  const from = input.client ? ` from ${input.client}` : "";
  const refuse = async (error: OidcSignInError, username = "") => {
    await recordAudit(
      "session.login-failed",
      "session",
      null,
      `${username ? `as "${username}" ` : ""}through ${settings.name}${from}: ${error.message}`,
      null,
    );
    return error;
  };
  const pending = openCookie<Pending>(input.pending, "oidc-pending");
  if (!pending || !takeState(pending.state, pending.expiresAt)) {
    throw await refuse(
      new OidcSignInError(
        "login",
        "This sign-in has expired or was already used (it lasts 10 minutes, once): sign in again.",
      ),
    );
  }
  const answer = new URLSearchParams(input.search);
  const providerError = answer.get("error");
  if (providerError) {
    const description = answer.get("error_description")?.slice(0, 200);
    throw await refuse(
      new OidcSignInError(
        "login",
        `${settings.name} did not sign you in (${providerError.slice(0, 64)}${description ? `: ${description}` : ""}).`,
      ),
    );
  }
  const configuration = await providerConfiguration(settings);
  let claims: Claims;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, new URL(settings.redirectUri + input.search), {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.verifier,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
    // Some providers (Authelia) put the groups and the names in the userinfo answer only.
    if (claimAt(claims, settings.roleClaim) === undefined || claims.preferred_username === undefined) {
      if (configuration.serverMetadata().userinfo_endpoint) {
        const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
        claims = { ...userinfo, ...claims };
      }
    }
  } catch (error) {
    console.error(`[wirespeed] OpenID Connect: the callback failed: ${describe(error)}`);
    throw await refuse(
      new OidcSignInError(
        "login",
        `${settings.name}'s answer could not be verified (${error instanceof Error ? error.message.slice(0, 120) : "unknown error"}): sign in again.`,
      ),
    );
  }
  let username: string;
  try {
    username = usernameOf(claims);
  } catch (error) {
    if (error instanceof OidcSignInError) throw await refuse(error);
    throw error;
  }
  const mapping = groupRolesFromEnv();
  const role = roleFromGroups(groupsOf(claims, settings.roleClaim), mapping);
  if (role === null) {
    throw await refuse(
      new OidcSignInError(
        "refused",
        `You are signed in at ${settings.name} as ${username}, but ${noRoleMessage(settings, mapping, username, claimAt(claims, settings.roleClaim) !== undefined)}`,
      ),
      username,
    );
  }
  let principal: Principal;
  try {
    principal = await principalOfExternalUser({
      username,
      subject: `${String(claims.iss)} ${String(claims.sub)}`,
      role,
      source: "oidc",
      client: input.client,
    });
  } catch (error) {
    if (error instanceof AuthError) throw await refuse(new OidcSignInError("refused", error.message), username);
    throw error;
  }
  const { token, expiresAt } = await createSession(principal.userId!);
  await recordAudit("session.login", "session", null, `through ${settings.name}${from}`, principal);
  return { token, expiresAt, principal, next: safeNextPath(pending.next) };
}
