// What went wrong reaching the Postgres server DATABASE_URL names, in words that name the variable:
// for the start (scripts/migrate.ts), which exits on it, and the health check, which reports it.
// The password never appears. Plain module (no "server-only"): the scripts use it too.
import pg from "pg";
import type { DatabaseConfig } from "../config";

type PostgresConfig = Extract<DatabaseConfig, { kind: "postgres" }>;

/** One sentence for a failed connection or query; the error's own text only when it is none of the known kinds. */
export function describePostgresError(error: unknown, database: PostgresConfig): string {
  const where = `${database.host}:${database.port}`;
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case "28P01":
      return `DATABASE_URL: the Postgres server at ${where} refused the password of the user in the URL`;
    case "28000":
      return `DATABASE_URL: the Postgres server at ${where} does not let the user in the URL connect (pg_hba.conf)`;
    case "3D000":
      return `DATABASE_URL: the Postgres server at ${where} has no database "${database.database}" (create it with createdb)`;
    case "ECONNREFUSED":
      return `DATABASE_URL: nothing accepts connections at ${where} (is Postgres running and listening there?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `DATABASE_URL: the host ${database.host} cannot be found`;
    case "ETIMEDOUT":
      return `DATABASE_URL: the Postgres server at ${where} did not answer in time`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `DATABASE_URL: the Postgres server at ${where} cannot be used: ${message.replaceAll(database.url, "DATABASE_URL")}`;
    }
  }
}

/** Connects once and asks `SELECT 1`; null when that works, else what went wrong. */
export async function checkPostgres(database: PostgresConfig, timeoutMs = 5_000): Promise<string | null> {
  const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    const message = (error as Error | null)?.message ?? "";
    // pg reports its own connection timeout without a code
    if (/timeout/i.test(message) && !(error as { code?: string }).code) {
      return describePostgresError(Object.assign(new Error(message), { code: "ETIMEDOUT" }), database);
    }
    return describePostgresError(error, database);
  } finally {
    await client.end().catch(() => {});
  }
}
