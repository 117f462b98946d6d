import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIGURE, LAB_BENCHES, runBenchProcess } from "./lab-bench";

// The benchmarks are not part of `npm test` (`npm run bench` runs them), but a smoke run of
// each is, so that none can rot: each one that needs no lab runs here with --smoke, as its own
// process, and must exit 0 having printed its figures. A smoke run still checks its results,
// and exits non-zero when one is wrong. The lab's benchmarks: bench/smoke.lab.test.ts. Those that
// run on Postgres too are smoked there as well (they need Debian's postgresql package, as `npm test` has).

/** Every benchmark that needs no lab, by file name (bench/<name>.bench.ts). */
const BENCHES = ["parse", "link-page", "run-page", "metrics", "growth", "backup", "grid", "shares"];
/**
 * Those that also run on Postgres: smoked again with --postgres, each on a throwaway cluster of its
 * own (port 55632, or 200 past WIRESPEED_LAB_INSTANCE's test port), started and stopped by the bench.
 */
const POSTGRES_BENCHES = ["link-page", "growth"];
/** Needs a production build (`next build`): the end-to-end suite smokes it, beside one. */
const SMOKED_ELSEWHERE = ["overview-js"];

const BENCH_DIR = path.resolve(__dirname);
const benchFile = (name: string) => path.join(BENCH_DIR, `${name}.bench.ts`);

describe("every benchmark has a smoke run", () => {
  it("is listed: each bench/*.bench.ts is smoked here, on the lab, or by the end-to-end suite", () => {
    const files = fs
      .readdirSync(BENCH_DIR)
      .filter((file) => file.endsWith(".bench.ts"))
      .map((file) => file.slice(0, -".bench.ts".length));
    const listed = new Set<string>([...BENCHES, ...LAB_BENCHES, ...SMOKED_ELSEWHERE]);
    expect(
      files.filter((name) => !listed.has(name)),
      "benchmarks in no smoke list: add each to BENCHES (bench/smoke.test.ts) or LAB_BENCHES (bench/lab-bench.ts)",
    ).toEqual([]);
  });

  it("knows the lab's benchmarks by their lab: those that bring a lab up are the LAB_BENCHES, and only those", () => {
    const usesLab = fs
      .readdirSync(BENCH_DIR)
      .filter(
        (file) =>
          file.endsWith(".bench.ts") && fs.readFileSync(path.join(BENCH_DIR, file), "utf8").includes("withLabEngine("),
      )
      .map((file) => file.slice(0, -".bench.ts".length))
      .sort();
    expect(usesLab).toEqual([...LAB_BENCHES].sort());
  });

  // One after the other: each is a process of its own that takes a core while it runs.
  it.each([
    ...BENCHES.map((name) => ({ name, flags: "--smoke" })),
    ...POSTGRES_BENCHES.map((name) => ({ name, flags: "--smoke --postgres" })),
  ])(
    "$name: `$flags` exits 0 and prints its figures",
    async ({ name, flags }) => {
      const args = flags.split(" ");
      if (!fs.existsSync(benchFile(name))) {
        expect.fail(
          `bench/${name}.bench.ts does not exist: the smoke list names it (BENCHES in bench/smoke.test.ts), so it must be there`,
        );
      }
      const run = await runBenchProcess(name, args);
      const output = `${run.stdout}\n${run.stderr}`.trim();
      const command = `bench/${name}.bench.ts ${args.join(" ")}`;
      expect(
        run.code,
        `${command} exited ${run.code ?? run.signal} after ${run.seconds.toFixed(1)} s:\n${output.slice(-3000)}`,
      ).toBe(0);
      expect(run.stdout, `${command} printed no figure:\n${output.slice(-3000)}`).toMatch(FIGURE);
    },
    180_000,
  );
});
