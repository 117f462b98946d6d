import { afterAll } from "vitest";
import { closeAll } from "@/lib/ssh";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { seedLabInventory, type LabInventory } from "@/testing/lab-inventory";
import type { LabState } from "@/testing/lab-state";
import { requireLabState } from "@/testing/lab-targets";

/**
 * A lab test file's own database (openTestDatabase) with the lab's hosts, NICs and links recorded
 * in it (seedLabInventory), the lab's state and the inventory's ids; once the file's tests are
 * done, the SSH connections are closed and the database removed. Called at the top of the file:
 *
 *   const { db, state, linkIds } = await openLabDatabase();
 *
 * `{ postgres: true }`: on the lab project's throwaway Postgres cluster instead of a SQLite file.
 */
export async function openLabDatabase(
  options: { postgres?: boolean } = {},
): Promise<TestDatabase & LabInventory & { state: LabState }> {
  const database = await openTestDatabase(options);
  afterAll(async () => {
    await closeAll();
    await database.close();
  });
  const state = requireLabState();
  return { ...database, ...(await seedLabInventory(state)), state };
}
