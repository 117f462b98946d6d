// Experiments on the lab, through the real runner and engine:
//  (a) the step gap: from the moment one step's last sample reaches the engine to the moment
//      the next step's first sample does, over a stream sweep (every gap includes one iperf3
//      interval: the first sample of a test cannot come sooner). Goal: median <= 1.0 s. Rounds
//      alternate between SSH commands in standby sessions (lib/ssh/standby.ts, the way Wirespeed
//      runs them) and, as the baseline, each command in a session of its own through the login
//      shell's start-up, as before; the ratio of their medians is printed.
//  (b) the start skew of a concurrent experiment's clients: the spread of the clients' start
//      times (as the engine records them) and of the runs' first samples. Goal: < 200 ms.
//   WIRESPEED_LAB_INSTANCE=6 node --require ./testing/server-only.cjs --import tsx bench/experiment.bench.ts
//     [--values 1,2,3,4,5,6,7,8] [--seconds 2] [--interval 0.5] [--pairs 5] [--rounds 2] [--no-baseline] [--smoke]
// --rounds: per mode. --smoke: a sweep of -P 1,2 once and one concurrent experiment, 1 s tests, the same checks, no baseline.
import { benchOptions, check, median, ms, runMain, withLabEngine } from "./lab-bench";

const GOAL_GAP_MS = 1000;
const GOAL_SKEW_MS = 200;

function readArgs(args: string[]) {
  const { isSmoke, value, number } = benchOptions(args);
  return {
    isSmoke,
    values: value("values", "1,2,3,4,5,6,7,8", "1,2").split(",").map(Number),
    seconds: number("seconds", 2, 1),
    interval: number("interval", 0.5),
    pairs: number("pairs", 5, 1),
    rounds: number("rounds", 2, 1),
    baseline: !isSmoke && !args.includes("--no-baseline"),
  };
}

runMain(async () => {
  const { isSmoke, values, seconds, interval, pairs, rounds, baseline } = readArgs(process.argv.slice(2));
  await withLabEngine("experiment", async ({ engine, bus, db, linkIds }) => {
    const { ExperimentRunner } = await import("../lib/experiments/runner");
    const { ExperimentEventBus } = await import("../lib/experiments/bus");
    const experimentBus = new ExperimentEventBus();
    const runner = new ExperimentRunner(engine, experimentBus, bus);
    const { setStandbySessions } = await import("../lib/ssh/standby");
    const modes = baseline ? (["standby", "login shell"] as const) : (["standby"] as const);
    const allGaps = { standby: [] as number[], "login shell": [] as number[] };

    // (a) the step gap over a stream sweep on ab-1g
    if (isSmoke) console.log("experiment: SMOKE RUN (--smoke)");
    console.log(
      `experiment: (a) sweep of -P ${values.join(", ")} on ab-1g, -t ${seconds} -i ${interval}; goal: step gap median <= ${GOAL_GAP_MS} ms`,
    );
    for (let round = 1; round <= rounds * modes.length; round += 1) {
      const mode = modes[(round - 1) % modes.length]!;
      setStandbySessions(mode === "standby");
      const stamps: { runId: number; at: number }[] = [];
      const experiment = await runner.start({
        kind: "sweep",
        linkIds: [linkIds["ab-1g"]],
        options: { duration: seconds, interval },
        factor: "parallel",
        values,
      });
      // The listener runs inside publish(): the stamp is the moment the engine hands the sample out.
      experimentBus.subscribe(experiment.id, 0, (event) => {
        if (event.type === "sample")
          stamps.push({ runId: (event.data as { runId: number }).runId, at: performance.now() });
      });
      await runner.waitFor(experiment.id);
      const stored = await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } });
      if (stored.status !== "succeeded")
        throw new Error(`sweep ${experiment.id}: ${stored.status}: ${stored.errorMessage}`);
      const runIds = [...new Set(stamps.map((stamp) => stamp.runId))];
      check(
        runIds.length === values.length,
        `sweep ${experiment.id}: samples of ${runIds.length} runs for ${values.length} steps`,
      );
      const gaps: number[] = [];
      for (let index = 1; index < runIds.length; index += 1) {
        const last = stamps.filter((stamp) => stamp.runId === runIds[index - 1]).at(-1)!.at;
        const first = stamps.find((stamp) => stamp.runId === runIds[index])!.at;
        gaps.push(first - last);
      }
      allGaps[mode].push(...gaps);
      console.log(
        `experiment: (a) round ${round} (${mode}): ${runIds.length} steps, gaps ${gaps.map(ms).join(", ")}; ` +
          `median ${ms(median(gaps))} (answer: ${stored.answer})`,
      );
    }
    setStandbySessions(true);
    for (const mode of modes) {
      console.log(
        `experiment: (a) ${mode === "standby" ? "standby sessions" : "baseline, a login shell per command"}: ` +
          `median step gap ${ms(median(allGaps[mode]))} of ${allGaps[mode].length}, max ${ms(Math.max(...allGaps[mode]))}`,
      );
    }
    if (baseline)
      console.log(
        `experiment: (a) standby / baseline, median step gap: ${(median(allGaps.standby) / median(allGaps["login shell"])).toFixed(2)}`,
      );
    const gap = median(allGaps.standby);
    console.log(
      `experiment: (a) verdict: median step gap ${ms(gap)} ${gap <= GOAL_GAP_MS ? "meets" : "misses"} the goal of ${GOAL_GAP_MS} ms`,
    );

    // (b) the start skew of a concurrent experiment on two links
    console.log(
      `experiment: (b) ${pairs} concurrent experiments on ab-1g + ab-2g5, -t ${seconds} -i ${interval}; goal: client start skew < ${GOAL_SKEW_MS} ms`,
    );
    const startSkews: number[] = [];
    const firstSampleSkews: number[] = [];
    for (let index = 1; index <= pairs; index += 1) {
      const firstSamples = new Map<number, number>();
      const experiment = await runner.start({
        kind: "concurrent",
        linkIds: [linkIds["ab-1g"], linkIds["ab-2g5"]],
        options: { duration: seconds, interval },
      });
      experimentBus.subscribe(experiment.id, 0, (event) => {
        const runId = (event.data as { runId?: number }).runId;
        if (event.type === "sample" && runId !== undefined && !firstSamples.has(runId))
          firstSamples.set(runId, performance.now());
      });
      await runner.waitFor(experiment.id);
      const runs = await db.run.findMany({
        where: { experimentId: experiment.id },
        select: { startedAt: true, status: true },
      });
      if (runs.some((run) => run.status !== "succeeded"))
        throw new Error(`concurrent ${experiment.id}: ${runs.map((run) => run.status).join(", ")}`);
      const starts = runs.map((run) => run.startedAt!.getTime());
      const firsts = [...firstSamples.values()];
      check(
        runs.length === 2 && firsts.length === runs.length,
        `concurrent ${experiment.id}: ${runs.length} runs, first samples of ${firsts.length}`,
      );
      startSkews.push(Math.max(...starts) - Math.min(...starts));
      firstSampleSkews.push(Math.max(...firsts) - Math.min(...firsts));
      console.log(
        `experiment: (b) ${index}: client starts ${ms(startSkews.at(-1)!)} apart, first samples ${ms(firstSampleSkews.at(-1)!)} apart`,
      );
    }
    console.log(
      `experiment: (b) median client start skew ${ms(median(startSkews))}, max ${ms(Math.max(...startSkews))}; ` +
        `first samples median ${ms(median(firstSampleSkews))}, max ${ms(Math.max(...firstSampleSkews))}`,
    );
    console.log(
      `experiment: (b) verdict: max client start skew ${ms(Math.max(...startSkews))} ` +
        `${Math.max(...startSkews) < GOAL_SKEW_MS ? "meets" : "misses"} the goal of ${GOAL_SKEW_MS} ms`,
    );
  });
});
