// Databases for tests on the throwaway cluster (testing/postgres/cluster.ts): the migrations are applied
// once, to a template; each test file gets a copy of it (CREATE DATABASE … TEMPLATE), which takes a
// fraction of a second.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migratePostgres } from "../../lib/postgres/migrate";

export const TEMPLATE_DATABASE = "wirespeed_template";

/** Set by the Postgres projects' global setup: the URL of the cluster's `postgres` database. */
export const TEST_POSTGRES_ENV = "WIRESPEED_TEST_POSTGRES_URL";

/** Set by the lab project's global setup (lab-global-setup.ts), for lab tests that ask for Postgres. */
export const LAB_POSTGRES_ENV = "WIRESPEED_LAB_POSTGRES_URL";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The migrated template, made afresh. */
export async function createTemplate(adminUrl: string): Promise<void> {
  await admin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}"`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  await migratePostgres(withDatabase(adminUrl, TEMPLATE_DATABASE));
}

/** A new database copied from the template; its URL and how to drop it. */
export async function createPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`));
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () =>
      admin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
