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
