import { execFile } from "node:child_process";
import { expect, test } from "./fixtures";
import { distDirFor } from "./api";

// The one benchmark that needs a production build (bench/overview-js.bench.ts) runs here, against
// the build and the server this suite tests, so that it cannot rot; the others are smoked by
// bench/smoke.test.ts and bench/smoke.lab.test.ts.

test("the overview's first-load JavaScript benchmark reads this build and the page it serves", async ({ baseURL }) => {
  const port = Number(new URL(baseURL!).port);
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ["--import", "tsx", "bench/overview-js.bench.ts", "--smoke"],
      {
        cwd: process.cwd(),
        env: { ...process.env, WIRESPEED_DIST_DIR: distDirFor(port), WIRESPEED_BENCH_URL: baseURL! },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("SMOKE RUN (--smoke)");
  expect(result.stdout).toMatch(/total: [\d.]+ kB raw, [\d.]+ kB gzipped/);
  expect(result.stdout).toMatch(/cross-check: http:\/\/localhost:\d+ references [1-9]\d* <script src>/);
  expect(result.stdout).toMatch(/verdict: [\d.]+ kB gzipped (meets|MISSES) the goal/);
});
