import path from "node:path";

/** The variables Wirespeed reads; any object with them will do (tests pass plain ones). */
export type ConfigEnv = Record<string, string | undefined>;

// Plain module (no "server-only"): prisma.config.ts and the scripts read it too.

/** Folder for the SQLite file and, later, the secret key file. */
export function resolveDataDir(env: ConfigEnv = process.env): string {
  // turbopackIgnore: a run-time path, not a file the server bundle should trace.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.WIRESPEED_DATA_DIR || "data");
}

/** The two databases Wirespeed runs on: a SQLite file (the default) or a Postgres server. */
export type DatabaseKind = "sqlite" | "postgres";

export type DatabaseConfig =
  | { kind: "sqlite"; url: string; file: string }
  | { kind: "postgres"; url: string; host: string; port: number; database: string };

/** A DATABASE_URL that cannot be used, with what is allowed. */
export class DatabaseUrlError extends Error {}

const POSTGRES_SCHEMES = ["postgres:", "postgresql:"];

/**
 * The database DATABASE_URL names: `postgres://` or `postgresql://` selects Postgres; `file:` (or
 * nothing: `<data dir>/wirespeed.db`) a SQLite file, whose path is returned absolute. Anything else
 * is a DatabaseUrlError naming the variable and what it may be; the password never appears in it.
 */
export function resolveDatabase(env: ConfigEnv = process.env): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (!url) {
    const file = path.join(resolveDataDir(env), "wirespeed.db");
    return { kind: "sqlite", url: `file:${file}`, file };
  }
  if (url.startsWith("file:")) {
    const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), url.slice("file:".length));
    return { kind: "sqlite", url: `file:${file}`, file };
  }
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
  if (scheme && POSTGRES_SCHEMES.includes(scheme)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new DatabaseUrlError(
        "DATABASE_URL is not a valid Postgres URL: write it as postgres://user:password@host:5432/database " +
          "(a password with @, : or / in it must be percent-encoded)",
      );
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    if (!parsed.hostname || !database) {
      throw new DatabaseUrlError(
        `DATABASE_URL names no ${parsed.hostname ? "database" : "host"}: write it as postgres://user:password@host:5432/database`,
      );
    }
    return { kind: "postgres", url, host: parsed.hostname, port: Number(parsed.port || 5432), database };
  }
  throw new DatabaseUrlError(
    `DATABASE_URL must be a SQLite file URL such as file:./data/wirespeed.db or a Postgres URL such as ` +
      `postgres://user:password@host:5432/wirespeed (got ${scheme ? `a ${scheme} URL` : "no scheme"})`,
  );
}

/** The SQLite file (see resolveDatabase); an error when DATABASE_URL names a Postgres server. */
export function resolveDatabaseFile(env: ConfigEnv = process.env): string {
  const database = resolveDatabase(env);
  if (database.kind !== "sqlite") {
    throw new DatabaseUrlError(
      "DATABASE_URL names a Postgres server: this step works on a SQLite file only (on Postgres, use its own tools such as pg_dump)",
    );
  }
  return database.file;
}

/**
 * The folder of Wirespeed's own files (the secret key, backups): the SQLite file's folder, or the data
 * folder when the database is a Postgres server.
 */
export function resolveStateDir(env: ConfigEnv = process.env): string {
  const database = resolveDatabase(env);
  return database.kind === "sqlite" ? path.dirname(database.file) : resolveDataDir(env);
}

export function resolveDatabaseUrl(env: ConfigEnv = process.env): string {
  return resolveDatabase(env).url;
}

/**
 * The address people open Wirespeed at, for links in notifications (WIRESPEED_PUBLIC_URL,
 * e.g. "https://wirespeed.lab.example"), without a trailing slash; null when unset.
 */
export function resolvePublicUrl(env: ConfigEnv = process.env): string | null {
  const value = env.WIRESPEED_PUBLIC_URL?.trim();
  if (!value) return null;
  return value.replace(/\/+$/, "");
}

/** A sign-in setting that cannot be used: the message names the variable and what it may be. */
export class SignInConfigError extends Error {}

/** How long a session lasts at most from its sign-in, used or not, when WIRESPEED_SESSION_MAX_DAYS is unset. */
export const DEFAULT_SESSION_MAX_DAYS = 30;
const MAX_SESSION_MAX_DAYS = 3650;

/**
 * WIRESPEED_SESSION_MAX_DAYS: the days a session lasts at most from its sign-in (password, identity
 * provider or first set-up alike), however often it is used; default 30. Anything but a whole number
 * from 1 to 3650 throws a SignInConfigError naming the variable: checked at start.
 */
export function resolveSessionMaxDays(env: ConfigEnv = process.env): number {
  const raw = env.WIRESPEED_SESSION_MAX_DAYS?.trim();
  if (!raw) return DEFAULT_SESSION_MAX_DAYS;
  const days = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= MAX_SESSION_MAX_DAYS)) {
    throw new SignInConfigError(
      `WIRESPEED_SESSION_MAX_DAYS must be a whole number of days from 1 to ${MAX_SESSION_MAX_DAYS} (default ${DEFAULT_SESSION_MAX_DAYS}), got "${raw.slice(0, 32)}"`,
    );
  }
  return days;
}

/** A comma-separated list of names (groups), trimmed, without empty entries. */
export function nameList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Sign-in through an OpenID Connect provider, from the WIRESPEED_OIDC_* variables. */
export type OidcConfig = {
  /** The issuer's URL as its discovery document names it (no trailing slash added or removed). */
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** `${WIRESPEED_PUBLIC_URL}/api/auth/oidc/callback`, registered at the provider. */
  redirectUri: string;
  /** What the button says after "Sign in with" (WIRESPEED_OIDC_NAME). */
  name: string;
  /** The claim that lists the user's groups (WIRESPEED_OIDC_ROLE_CLAIM, default "groups"). */
  roleClaim: string;
  /** http:// issuer allowed: a loopback address or WIRESPEED_OIDC_ALLOW_HTTP=1. */
  allowHttp: boolean;
  /** WIRESPEED_OIDC_ONLY=1: password sign-in is refused (the first admin's set-up stays possible). */
  only: boolean;
};

const OIDC_REQUIRED = ["WIRESPEED_OIDC_ISSUER", "WIRESPEED_OIDC_CLIENT_ID", "WIRESPEED_OIDC_CLIENT_SECRET"] as const;
const OIDC_GROUPS = ["WIRESPEED_OIDC_ADMIN_GROUPS", "WIRESPEED_OIDC_OPERATOR_GROUPS", "WIRESPEED_OIDC_VIEWER_GROUPS"];

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function flag(env: ConfigEnv, name: string): boolean {
  const value = env[name]?.trim();
  if (!value || value === "0") return false;
  if (value === "1") return true;
  throw new SignInConfigError(`${name} must be 1 (on) or 0 (off), got something else`);
}

/**
 * The OpenID Connect sign-in, or null when none of WIRESPEED_OIDC_ISSUER, _CLIENT_ID and _CLIENT_SECRET is
 * set. Settings half set, an issuer that is not an https:// URL (http:// only for a loopback address or with
 * WIRESPEED_OIDC_ALLOW_HTTP=1), no WIRESPEED_PUBLIC_URL for the redirect, or no group granting a role throw a
 * SignInConfigError naming the variable; checked at start, so the server refuses to start. Values of the
 * client secret never appear in a message.
 */
export function resolveOidc(env: ConfigEnv = process.env): OidcConfig | null {
  const set = OIDC_REQUIRED.filter((name) => env[name]?.trim());
  const only = flag(env, "WIRESPEED_OIDC_ONLY");
  const allowHttpFlag = flag(env, "WIRESPEED_OIDC_ALLOW_HTTP");
  if (set.length === 0) {
    if (only)
      throw new SignInConfigError(
        "WIRESPEED_OIDC_ONLY=1 needs an identity provider: set WIRESPEED_OIDC_ISSUER, WIRESPEED_OIDC_CLIENT_ID and WIRESPEED_OIDC_CLIENT_SECRET",
      );
    return null;
  }
  const missing = OIDC_REQUIRED.filter((name) => !set.includes(name));
  if (missing.length > 0) {
    throw new SignInConfigError(
      `${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not set: sign-in through an identity provider needs ${OIDC_REQUIRED.join(", ")}`,
    );
  }
  let issuer: URL;
  try {
    issuer = new URL(env.WIRESPEED_OIDC_ISSUER!.trim());
  } catch {
    throw new SignInConfigError(
      "WIRESPEED_OIDC_ISSUER must be the provider's issuer URL, such as https://auth.example.com/application/o/wirespeed/",
    );
  }
  if (issuer.protocol !== "https:" && issuer.protocol !== "http:") {
    throw new SignInConfigError(`WIRESPEED_OIDC_ISSUER must be an https:// URL (got a ${issuer.protocol} URL)`);
  }
  if (issuer.username || issuer.password || issuer.search || issuer.hash) {
    throw new SignInConfigError(
      "WIRESPEED_OIDC_ISSUER must be the issuer URL alone: no user, password, query or fragment",
    );
  }
  const allowHttp = issuer.protocol === "http:" && (allowHttpFlag || isLoopback(issuer.hostname));
  if (issuer.protocol === "http:" && !allowHttp) {
    throw new SignInConfigError(
      `WIRESPEED_OIDC_ISSUER must be an https:// URL: http:// is allowed for a loopback address only, or with WIRESPEED_OIDC_ALLOW_HTTP=1 (the provider's answers then travel unprotected)`,
    );
  }
  const publicUrl = resolvePublicUrl(env);
  if (!publicUrl || !/^https?:\/\/[^/]/.test(publicUrl)) {
    throw new SignInConfigError(
      "WIRESPEED_PUBLIC_URL must be set to the address people open Wirespeed at (such as https://wirespeed.lab.example): the identity provider sends them back to <WIRESPEED_PUBLIC_URL>/api/auth/oidc/callback",
    );
  }
  if (OIDC_GROUPS.every((name) => nameList(env[name]).length === 0)) {
    throw new SignInConfigError(
      `${OIDC_GROUPS.join(", ")}: set at least one (comma-separated group names), or no one the identity provider signs in gets a role`,
    );
  }
  const roleClaim = env.WIRESPEED_OIDC_ROLE_CLAIM?.trim() || "groups";
  const name = env.WIRESPEED_OIDC_NAME?.trim() || "single sign-on";
  if (name.length > 64 || /\p{Cc}/u.test(name)) {
    throw new SignInConfigError("WIRESPEED_OIDC_NAME must be at most 64 characters, without control characters");
  }
  return {
    issuer,
    clientId: env.WIRESPEED_OIDC_CLIENT_ID!.trim(),
    clientSecret: env.WIRESPEED_OIDC_CLIENT_SECRET!.trim(),
    redirectUri: `${publicUrl}/api/auth/oidc/callback`,
    name,
    roleClaim,
    allowHttp,
    only,
  };
}
