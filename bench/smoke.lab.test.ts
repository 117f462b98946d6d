import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { labDir, LAB_INSTANCE_MAX, netnsPrefix } from "@/testing/lab/lab";
import { FIGURE, LAB_BENCHES, runBenchProcess } from "./lab-bench";

// The smoke runs of the benchmarks that need the lab (bench/smoke.test.ts has the others): each
// runs with --smoke as its own process, builds a lab of its own and tears it down, and must exit
// 0 having printed its figures. A smoke run still checks its results (every sample stored and
// seen, rates that belong to the link) and exits non-zero when one is wrong.

/** The suite's lab instance, which the benchmarks refuse: they build their own beside it. */
const SUITE_INSTANCE = Number(process.env.WIRESPEED_LAB_INSTANCE || "0");

/** Nothing of this instance is up: no namespace with its prefix, no state folder. */
function isFree(instance: number): boolean {
  const namespaces = spawnSync("ip", ["netns", "list"], { encoding: "utf8" }).stdout ?? "";
  const prefix = netnsPrefix(instance);
  return !namespaces.split("\n").some((line) => line.startsWith(prefix)) && !fs.existsSync(labDir(instance));
}

/**
 * The benchmarks' instance: WIRESPEED_BENCH_LAB_INSTANCE when set; 1 beside the suite's usual 0
 * (`npm test`); else the first instance that is not the suite's and has nothing up, since
 * bringing a lab up tears down whatever that instance had.
 */
function benchInstance(): number {
  const chosen = process.env.WIRESPEED_BENCH_LAB_INSTANCE;
  if (chosen) {
    if (!/^[1-7]$/.test(chosen) || Number(chosen) === SUITE_INSTANCE) {
      throw new Error(
        `WIRESPEED_BENCH_LAB_INSTANCE must be a lab instance from 1 to ${LAB_INSTANCE_MAX} other than the suite's (${SUITE_INSTANCE}), got ${JSON.stringify(chosen)}`,
      );
    }
    return Number(chosen);
  }
  if (SUITE_INSTANCE === 0) return 1;
  for (let instance = 1; instance <= LAB_INSTANCE_MAX; instance += 1) {
    if (instance !== SUITE_INSTANCE && isFree(instance)) return instance;
  }
  throw new Error(
    `no free lab instance for the benchmarks beside the suite's ${SUITE_INSTANCE}: set WIRESPEED_BENCH_LAB_INSTANCE`,
  );
}

describe("the lab's benchmarks have smoke runs", () => {
  const instance = benchInstance();

  // One after the other (lab test files run one at a time too): each takes both cores while it measures.
  it.each(LAB_BENCHES)(
    `%s: \`--smoke\` on lab instance ${instance} exits 0, prints its figures and takes its lab down`,
    async (name) => {
      const run = await runBenchProcess(name, ["--smoke"], { WIRESPEED_LAB_INSTANCE: String(instance) }, 230_000);
      const output = `${run.stdout}\n${run.stderr}`.trim();
      expect(
        run.code,
        `bench/${name}.bench.ts --smoke exited ${run.code ?? run.signal} after ${run.seconds.toFixed(1)} s:\n${output.slice(-4000)}`,
      ).toBe(0);
      expect(run.stdout).toContain("SMOKE RUN (--smoke)");
      expect(run.stdout, `bench/${name}.bench.ts --smoke printed no figure:\n${output.slice(-4000)}`).toMatch(FIGURE);
      expect(run.stdout).toContain(`lab instance ${instance} down`);
      expect(isFree(instance), `lab instance ${instance} is still up after bench/${name}.bench.ts`).toBe(true);
    },
    240_000,
  );
});
