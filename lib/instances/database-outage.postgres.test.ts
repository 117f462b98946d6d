import { afterAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { parseRunRequest } from "@/lib/runs/request";
import { SampleWriter } from "@/lib/runs/samples";
import { connectAppDatabase } from "@/testing/database";
import { seedLocalLinks } from "@/testing/local-links";
import { startPostgresCluster, testPostgresPort } from "@/testing/postgres/cluster";
import { createPostgresDatabase, createTemplate } from "@/testing/postgres/template";

// The database going away while Wirespeed runs, on a Postgres cluster of this file's own (its port
// apart from the project's), stopped and started again mid-test: the health check says so with a
// 503 and the reason, a run's samples meanwhile wait in memory, and once the server is back the app
// answers again by itself and every sample is stored. Only in the `postgres` project.

const cluster = startPostgresCluster(testPostgresPort() + 300);
const adminUrl = cluster.urlOf("postgres");
await createTemplate(adminUrl);
const database = await createPostgresDatabase(adminUrl);
const db = await connectAppDatabase(database.url);

afterAll(async () => {
  await db.$disconnect();
  cluster.stop();
});

const interval = (second: number) => ({
  start: second,
  end: second + 1,
  seconds: 1,
  bytes: 125_000_000,
  bitsPerSecond: 1e9,
  retransmits: 0,
  omitted: false,
  streams: [],
});

async function healthOf() {
  const response = await health(new Request("http://localhost/api/health"));
  return { status: response.status, body: (await response.json()) as { ok: boolean; reason?: string } };
}

async function until(condition: () => Promise<boolean>, what: string, ms = 30_000) {
  for (const deadline = Date.now() + ms; !(await condition()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe("Postgres going away and coming back", () => {
  it(
    "answers 503 with the reason meanwhile, keeps a run's samples in memory, and stores every one once it is back",
    { timeout: 90_000 },
    async () => {
      expect((await healthOf()).status).toBe(200);
      const [linkId] = await seedLocalLinks(db, 1);
      const run = await db.run.create({
        data: {
          linkId: linkId!,
          clientSide: "a",
          options: parseRunRequest({ duration: 6 }).options,
          status: "running",
        },
      });
      const writer = new SampleWriter(run.id, { retryMs: 200, closeRetries: 150 });
      for (let second = 0; second < 3; second += 1) writer.add(interval(second));
      await writer.flush();
      expect(await db.sample.count({ where: { runId: run.id } })).toBe(3);

      cluster.pause();
      const away = await healthOf();
      expect(away.status).toBe(503);
      expect(away.body.ok).toBe(false);
      expect(away.body.reason).toBeTruthy();
      // The run goes on: its next samples cannot be written, and are kept.
      for (let second = 3; second < 6; second += 1) writer.add(interval(second));
      await writer.flush();

      cluster.resume();
      await until(async () => (await healthOf()).status === 200, "the health check to answer 200 again");
      await writer.close();
      const stored = await db.sample.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      expect(stored.map((sample) => sample.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    },
  );
});
