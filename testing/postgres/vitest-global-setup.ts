/**
 * globalSetup of the vitest projects that run on Postgres (`postgres`, `lab-postgres`): a throwaway
 * cluster (testing/postgres/cluster.ts) with a migrated template, up before the first test file and
 * gone after the last. Its URL reaches the test files through WIRESPEED_TEST_POSTGRES_URL, where
 * openTestDatabase (testing/database.ts) makes each file a database of its own. A missing Postgres
 * fails the run, saying what to install: a Postgres test that skips proves nothing.
 */
import { startPostgresCluster, type PostgresCluster } from "./cluster";
import { createTemplate, TEST_POSTGRES_ENV } from "./template";

let cluster: PostgresCluster | null = null;

export async function setup(): Promise<void> {
  cluster = startPostgresCluster();
  const adminUrl = cluster.urlOf("postgres");
  await createTemplate(adminUrl);
  process.env[TEST_POSTGRES_ENV] = adminUrl;
  console.log(`postgres up: a throwaway cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
}

export async function teardown(): Promise<void> {
  cluster?.stop();
  cluster = null;
}
