import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectAppDatabase, openTestDatabase } from "@/testing/database";
import { userWithToken } from "@/testing/user-tokens";
import { createSession } from "@/lib/auth/sessions";
import { getApp } from "@/lib/running-app";
import { GET } from "./route";

// Each case loads the route with its own database: the Prisma client is made once per module load.
async function loadRoute(databaseUrl: string) {
  await connectAppDatabase(databaseUrl);
  return import("./route");
}

const HEALTH_URL = "http://localhost/api/health";
const anonymous = () => new Request(HEALTH_URL);
const withHeaders = (headers: Record<string, string>) => new Request(HEALTH_URL, { headers });

/** console.error's lines from now on, kept out of the test's output. */
function serverLog(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  return lines;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("GET /api/health", () => {
  it("answers ok on a migrated database", async () => {
    const database = await openTestDatabase();
    cleanups.push(database.close);
    const response = await GET(anonymous());
    expect(response.status).toBe(200);
    // The database kind and the instance that answered (an operator behind a balancer tells them apart).
    expect(await response.json()).toEqual({
      ok: true,
      db: "ok",
      database: process.env.WIRESPEED_TEST_POSTGRES_URL ? "postgres" : "sqlite",
      instance: getApp().instance.id,
    });
  });

  it("answers 503 with a generic reason to a caller without an account, a wrong token too, and logs the detail", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-health-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { GET } = await loadRoute(`file:${path.join(dir, "empty.db")}`);
    const log = serverLog();
    // A load balancer sends no credentials; a wrong token is no reason for a 401 here.
    for (const request of [anonymous(), withHeaders({ authorization: "Bearer wst_wrong" })]) {
      const response = await GET(request);
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toEqual({
        ok: false,
        db: "error",
        database: "sqlite",
        instance: getApp().instance.id,
        reason: "database unavailable",
      });
    }
    // The tables are missing: the detail names the one asked for, in the server's log only.
    expect(log).toHaveLength(2);
    for (const line of log) expect(line).toMatch(/^\[wirespeed\] health: the database fails: .*Host/);
  });

  it("tells a signed-in caller (session cookie, API token, WIRESPEED_API_TOKEN) the detail", async () => {
    const database = await openTestDatabase();
    cleanups.push(database.close);
    const { user, token } = await userWithToken("health-viewer", "viewer");
    const session = await createSession(user.id);
    vi.stubEnv("WIRESPEED_API_TOKEN", "health-admin-token");
    cleanups.push(() => vi.unstubAllEnvs());
    // The users and sessions are still there; the hosts' table is not.
    await database.db.$executeRawUnsafe(`ALTER TABLE "Host" RENAME TO "HostAway"`);
    serverLog();
    const credentials: Array<Record<string, string>> = [
      { cookie: `wirespeed_session=${session.token}` },
      { authorization: `Bearer ${token}` },
      { authorization: "Bearer health-admin-token" },
    ];
    for (const headers of credentials) {
      const response = await GET(withHeaders(headers));
      expect(response.status, JSON.stringify(headers)).toBe(503);
      const body = await response.json();
      expect(body).toMatchObject({
        ok: false,
        db: "error",
        database: process.env.WIRESPEED_TEST_POSTGRES_URL ? "postgres" : "sqlite",
      });
      expect(body.reason, JSON.stringify(headers)).toMatch(/Host/);
    }
    // Anonymous still gets the generic reason from the same database.
    expect((await (await GET(anonymous())).json()).reason).toBe("database unavailable");
  });

  it("answers 503 when the database file cannot be opened", async () => {
    const { GET } = await loadRoute("file:/proc/wirespeed-no-such-dir/wirespeed.db");
    serverLog();
    const response = await GET(anonymous());
    expect(response.status).toBe(503);
    expect((await response.json()).ok).toBe(false);
  });
});
