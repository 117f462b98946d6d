import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectAppDatabase, openTestDatabase } from "@/testing/database";
import { getApp } from "@/lib/running-app";
import { GET } from "./route";

// Each case loads the route with its own database: the Prisma client is made once per module load.
async function loadRoute(databaseUrl: string) {
  await connectAppDatabase(databaseUrl);
  return import("./route");
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("GET /api/health", () => {
  it("answers ok on a migrated database", async () => {
    const database = await openTestDatabase();
    cleanups.push(database.close);
    const response = await GET();
    expect(response.status).toBe(200);
    // The database kind and the instance that answered (an operator behind a balancer tells them apart).
    expect(await response.json()).toEqual({
      ok: true,
      db: "ok",
      database: process.env.WIRESPEED_TEST_POSTGRES_URL ? "postgres" : "sqlite",
      instance: getApp().instance.id,
    });
  });

  it("answers 503 with the reason when the tables are missing", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-health-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { GET } = await loadRoute(`file:${path.join(dir, "empty.db")}`);
    const response = await GET();
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({ ok: false, db: "error", database: "sqlite" });
    expect(body.reason).toMatch(/Host/);
  });

  it("answers 503 when the database file cannot be opened", async () => {
    const { GET } = await loadRoute("file:/proc/wirespeed-no-such-dir/wirespeed.db");
    const response = await GET();
    expect(response.status).toBe(503);
    expect((await response.json()).ok).toBe(false);
  });
});
