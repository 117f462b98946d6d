import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../testing/database";
import { insertLinkRows } from "../testing/sql-link";

// `npm run compact` as a user runs it, in a process of its own, on a real database: old runs lose
// their samples and keep a digest, recent ones are untouched, --vacuum shrinks the file, and a
// bad --keep-days is refused with what it allows.

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function compact(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--require", "./testing/server-only.cjs", "--import", "tsx", "scripts/compact.ts", ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run compact", { timeout: 120_000 }, () => {
  let database: ReturnType<typeof createTestDatabase>;
  let env: Record<string, string>;
  const file = () => path.join(database.dataDir, "wirespeed.db");

  beforeAll(() => {
    database = createTestDatabase();
    env = { DATABASE_URL: database.url, WIRESPEED_SAMPLES_KEEP_DAYS: "" };
    const sqlite = new Database(file());
    const linkId = insertLinkRows(sqlite, "c");
    const insertSample = sqlite.prepare(
      `INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "omitted", "streams") VALUES (?, ?, ?, ?, 'forward', 1e7, 8e8, 0, ?)`,
    );
    const streams = JSON.stringify(
      Array.from({ length: 8 }, (_, index) => ({ id: 5 + index, bytes: 1.25e6, bitsPerSecond: 1e8, retransmits: 0 })),
    );
    for (const [daysAgo, label] of [
      [400, "old"],
      [200, "old"],
      [10, "recent"],
    ] as const) {
      const endedAt = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
      const runId = Number(
        sqlite
          .prepare(
            `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "endedAt", "clientOutput") VALUES (?, 'succeeded', 'a', '{"protocol":"tcp","parallel":8}', ?, ?, ?)`,
          )
          .run(linkId, endedAt, endedAt, label).lastInsertRowid,
      );
      sqlite.transaction(() => {
        for (let seq = 0; seq < 3000; seq += 1) insertSample.run(runId, seq, seq / 10, (seq + 1) / 10, streams);
      })();
    }
    sqlite.close();
  });

  afterAll(() => database?.remove());

  it("refuses a --keep-days it cannot use, naming the flag and what it allows, and changes nothing", async () => {
    const result = await compact(["--keep-days", "3"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--keep-days must be 0 (keep every sample forever) or a whole number of days from 7 to 36500",
    );
    expect(await compact(["--vaccum"], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unexpected argument "--vaccum"'),
    });
    const sqlite = new Database(file(), { readonly: true });
    expect(sqlite.prepare(`SELECT COUNT(*) AS n FROM "Sample"`).get()).toEqual({ n: 9000 });
    sqlite.close();
  });

  it("compacts the runs older than 180 days by default, and --vacuum gives the space back", async () => {
    const sizeBefore = fs.statSync(file()).size;
    const result = await compact(["--vacuum"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("compacted 2 run(s) that ended more than 180 days ago: 6000 samples deleted");
    const sqlite = new Database(file(), { readonly: true });
    const left = sqlite
      .prepare(
        `SELECT r."clientOutput" AS label, COUNT(s."id") AS samples, d."compactedAt" IS NOT NULL AS compacted, d."sampleCount" AS sampleCount FROM "Run" r LEFT JOIN "Sample" s ON s."runId" = r."id" LEFT JOIN "RunDigest" d ON d."runId" = r."id" GROUP BY r."id" ORDER BY r."id"`,
      )
      .all();
    sqlite.close();
    expect(left).toEqual([
      { label: "old", samples: 0, compacted: 1, sampleCount: 3000 },
      { label: "old", samples: 0, compacted: 1, sampleCount: 3000 },
      { label: "recent", samples: 3000, compacted: 0, sampleCount: null },
    ]);
    expect(fs.statSync(file()).size).toBeLessThan(sizeBefore * 0.6);
    // Again: nothing left to do.
    expect((await compact([], env)).stdout).toContain("compacted 0 run(s)");
  });
});
