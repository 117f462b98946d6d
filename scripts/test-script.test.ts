// scripts/test.sh (`npm test`) itself: what it takes as installed, and its closing line.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-test-script-"));
  made.push(dir);
  return dir;
}

/** A /usr/lib/postgresql as Debian lays it out, with these programs in 15/bin. */
function postgresLib(programs: string[]): string {
  const bin = path.join(tempDir(), "15", "bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const program of programs) fs.writeFileSync(path.join(bin, program), "#!/bin/sh\n", { mode: 0o755 });
  return path.dirname(path.dirname(bin));
}

async function missingPackages(postgresLibDir: string): Promise<string[]> {
  const { stdout } = await run("bash", [path.join(ROOT, "scripts/test.sh"), "--missing-packages"], {
    cwd: ROOT,
    env: { ...process.env, WIRESPEED_POSTGRES_LIB: postgresLibDir },
  });
  return stdout.split("\n").filter(Boolean);
}

describe("npm test's check of the system packages", () => {
  it("takes Postgres as missing when only its client is installed (no initdb)", async () => {
    // postgresql-client-15 alone makes /usr/lib/postgresql/15/bin, with psql and pg_dump in it
    expect(await missingPackages(postgresLib(["psql", "pg_dump"]))).toContain("postgresql");
    expect(await missingPackages(path.join(tempDir(), "none"))).toContain("postgresql");
  });

  it("takes Postgres as installed when a version's initdb is there", async () => {
    expect(await missingPackages(postgresLib(["psql", "initdb", "pg_ctl"]))).not.toContain("postgresql");
  });
});

describe("npm test's closing line", () => {
  it("adds up the vitest and Playwright reports, and reads no suite's log as a report", async () => {
    const dir = tempDir();
    const vitest = (passed: number, failed: number, pending: number) =>
      JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: pending, numTodoTests: 0 });
    fs.writeFileSync(path.join(dir, "unit.json"), vitest(10, 0, 1));
    fs.writeFileSync(path.join(dir, "lab.json"), vitest(5, 0, 0));
    fs.writeFileSync(
      path.join(dir, "e2e.json"),
      JSON.stringify({ stats: { expected: 7, unexpected: 0, skipped: 0, flaky: 0 } }),
    );
    // the suites that ran beside another leave their output here too
    fs.writeFileSync(path.join(dir, "lab.log"), "✓ 5 passed\n");
    const { stdout } = await run("node", [path.join(ROOT, "scripts/test-summary.mjs"), dir]);
    expect(stdout.trim().split("\n").at(-1)).toBe("tests: 22 passed, 0 failed, 1 skipped");
  });
});
