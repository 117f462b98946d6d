import path from "node:path";

/** The variables Wirespeed reads; any object with them will do (tests pass plain ones). */
export type ConfigEnv = Record<string, string | undefined>;

// Plain module (no "server-only"): prisma.config.ts and the scripts read it too.

/** Folder for the SQLite file and, later, the secret key file. */
export function resolveDataDir(env: ConfigEnv = process.env): string {
  // turbopackIgnore: a run-time path, not a file the server bundle should trace.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.WIRESPEED_DATA_DIR || "data");
}

/**
 * The SQLite file: DATABASE_URL (`file:/abs/path.db` or `file:./rel.db`) wins,
 * else `<data dir>/wirespeed.db`. Always returned as an absolute path.
 */
export function resolveDatabaseFile(env: ConfigEnv = process.env): string {
  const url = env.DATABASE_URL;
  if (url) {
    if (!url.startsWith("file:")) {
      throw new Error(
        `DATABASE_URL must be a SQLite file URL such as file:./data/wirespeed.db (got a ${url.split(":")[0]}: URL)`,
      );
    }
    return path.resolve(/*turbopackIgnore: true*/ process.cwd(), url.slice("file:".length));
  }
  return path.join(resolveDataDir(env), "wirespeed.db");
}

export function resolveDatabaseUrl(env: ConfigEnv = process.env): string {
  return `file:${resolveDatabaseFile(env)}`;
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
