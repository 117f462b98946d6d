/**
 * globalSetup of the vitest project `postgres`: a throwaway cluster (testing/postgres/cluster.ts) with
 * a migrated template, up before the first test file and gone after the last. Its URL reaches the
 * test files through WIRESPEED_TEST_POSTGRES_URL, where openTestDatabase (testing/database.ts) makes
 * each file a database of its own on it. A missing Postgres fails the run, saying what to install: a
 * Postgres test that skips proves nothing. The `lab` project starts one too (lab-global-setup.ts),
 * for the lab tests that ask for Postgres.
 */
import { startPostgresCluster, type PostgresCluster } from "./cluster";
import { createTemplate, TEST_POSTGRES_ENV } from "./template";

let cluster: PostgresCluster | null = null;

/** Starts the cluster, makes the template and sets `variable` to the admin URL. */
export async function startTestCluster(variable: string, port?: number): Promise<void> {
  cluster = startPostgresCluster(port);
  const adminUrl = cluster.urlOf("postgres");
  await createTemplate(adminUrl);
  process.env[variable] = adminUrl;
  console.log(`postgres up: a throwaway cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
}

export async function setup(): Promise<void> {
  await startTestCluster(TEST_POSTGRES_ENV);
}

export async function teardown(): Promise<void> {
  cluster?.stop();
  cluster = null;
}
