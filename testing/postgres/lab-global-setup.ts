/**
 * globalSetup of the vitest project `lab`, beside the lab's own: a throwaway Postgres cluster for the
 * lab tests that run on Postgres (several app instances on one database). Its URL is in
 * WIRESPEED_LAB_POSTGRES_URL, which openLabDatabase({ postgres: true }) reads; the other lab tests stay
 * on SQLite. Its port is apart from the `postgres` project's, so that both may run at once.
 */
import { testPostgresPort } from "./cluster";
import { LAB_POSTGRES_ENV } from "./template";
import { startTestCluster, teardown as stopTestCluster } from "./vitest-global-setup";

export async function setup(): Promise<void> {
  await startTestCluster(LAB_POSTGRES_ENV, testPostgresPort() + 100);
}

export const teardown = stopTestCluster;
