// What the proof of the path costs a run, on the lab, through the real engine: runs of `-t 1` on
// ab-1g alternate between the engine as Wirespeed runs it (each end's NIC counters read inside the
// commands that start the client and the server) and, as the baseline, the same engine with the
// counters left out. Printed: each mode's median time from the run's creation to its end, and the
// difference. Every counted run must come out on-link, and every baseline run unknown (no
// counters read).
//   WIRESPEED_LAB_INSTANCE=2 node --require ./testing/server-only.cjs --import tsx bench/path-check.bench.ts
//     [--runs 10] [--seconds 1] [--smoke]
// --smoke: one run of each, the same checks.
import { benchOptions, check, engineRun, median, runMain, withLabEngine } from "./lab-bench";

function readArgs(args: string[]) {
  const { isSmoke, number } = benchOptions(args);
  return { isSmoke, runs: number("runs", 10, 1), seconds: number("seconds", 1) };
}

runMain(async () => {
  const { isSmoke, runs, seconds } = readArgs(process.argv.slice(2));
  await withLabEngine("path-check", async (context) => {
    const { RunEngine } = await import("../lib/runs/engine");
    const { agentRunRemote } = await import("../lib/runs/remote-agents");
    const plain = new RunEngine(
      {
        ...agentRunRemote,
        startIperf: (endpoint, role, path, argv, callbacks, options) =>
          agentRunRemote.startIperf(endpoint, role, path, argv, callbacks, { ...options, counters: false }),
      },
      context.bus,
    );
    if (isSmoke) console.log("path-check: SMOKE RUN (--smoke)");
    console.log(`path-check: ${runs} runs of -t ${seconds} on ab-1g per mode, alternating`);
    // A first run opens the SSH connections both modes then share: it is not counted.
    await engineRun(context, "ab-1g", { duration: seconds });
    const times = { with: [] as number[], without: [] as number[] };
    for (let index = 0; index < runs * 2; index += 1) {
      const counted = index % 2 === 0;
      const { run } = await engineRun(counted ? context : { ...context, engine: plain }, "ab-1g", {
        duration: seconds,
      });
      if (counted) check(run.pathVerdict === "on-link", `run ${run.id} on ab-1g: path ${run.pathVerdict}, not on-link`);
      else check(run.pathVerdict === "unknown", `run ${run.id} without counters: path ${run.pathVerdict}, not unknown`);
      (counted ? times.with : times.without).push(run.endedAt!.getTime() - run.createdAt.getTime());
    }
    const withMs = median(times.with);
    const withoutMs = median(times.without);
    console.log(`path-check: a run with the counters: median ${withMs.toFixed(0)} ms (${times.with.join(", ")} ms)`);
    console.log(`path-check: a run without them: median ${withoutMs.toFixed(0)} ms (${times.without.join(", ")} ms)`);
    console.log(
      `path-check: the counters add ${(withMs - withoutMs).toFixed(0)} ms a run (ratio ${(withMs / withoutMs).toFixed(3)})`,
    );
  });
});
