// Latency of live samples, on the lab, through the real engine:
//  (a) from the engine's startRun call to the first sample event on the bus. A test's first sample
//      comes one interval after its client starts; what Wirespeed adds is the set-up before it
//      (resolve the ends, prepare both hosts over SSH, start the server, start the client). Goal:
//      set-up (first sample less one interval) p95 <= 1.0 s. Runs alternate between SSH commands
//      in standby sessions (lib/ssh/standby.ts, the way Wirespeed runs them) and, as the baseline,
//      each command in a session of its own through the login shell's start-up, as before;
//  (b) from the moment an interval reaches the engine (a bus listener, which runs synchronously
//      inside publish(), stamps it) to the moment an SSE client reading openRunEventStream(...)
//      (the body GET /api/runs/:id/events returns) has decoded the same event, matched by id.
// R runs of `-i 0.1 -t 3` give hundreds of events. Goal for (b): p95 < 50 ms.
//  (c) as a script sees it: POST /api/links/:id/runs, then GET /api/runs/:id/events, over loopback HTTP
//      through the app's own route handlers (bench/latency-api.ts), from the request to the first
//      sample decoded, at `-i 1`; every moment of the start between is printed (lib/runs/start-marks.ts).
//      Goal: set-up (first sample less one interval) median < 250 ms.
//   WIRESPEED_LAB_INSTANCE=2 node --require ./testing/server-only.cjs --import tsx bench/latency.bench.ts
//     [--runs 10] [--link ab-1g] [--seconds 3] [--interval 0.1] [--no-baseline] [--api-runs 5] [--smoke]
// --smoke: one run of 1 s (10 events), every event still checked, no baseline; one run through the API.
import { readEventStream, runThroughApi, serveRunRoutes } from "./latency-api";
import { benchOptions, check, median, ms, percentile, runMain, withLabEngine } from "./lab-bench";

const GOAL_P95_MS = 50;
const GOAL_SETUP_P95_MS = 1000;
const GOAL_API_SETUP_MEDIAN_MS = 250;
// (c) runs at iperf3's default interval, as a script's test does.
const API_INTERVAL_SECONDS = 1;
const API_SECONDS = 2;

function readArgs(args: string[]) {
  const { isSmoke, value, number } = benchOptions(args);
  return {
    isSmoke,
    runs: number("runs", 10, 1),
    link: value("link", "ab-1g"),
    seconds: number("seconds", 3, 1),
    interval: number("interval", 0.1),
    baseline: !isSmoke && !args.includes("--no-baseline"),
    apiRuns: number("api-runs", 5, 1),
  };
}

runMain(async () => {
  const { isSmoke, runs, link, seconds, interval, baseline, apiRuns } = readArgs(process.argv.slice(2));
  await withLabEngine("latency", async ({ engine, bus, db, linkIds, parseRunRequest, openRunEventStream, state }) => {
    const { setStandbySessions } = await import("../lib/ssh/standby");
    const lab = state.links.find((l) => l.name === link)!;
    const modes = baseline ? (["standby", "login shell"] as const) : (["standby"] as const);
    console.log(
      `latency: ${isSmoke ? "SMOKE RUN (--smoke): " : ""}${runs} runs${baseline ? " per mode, alternating" : ""} on ${link} ` +
        `(${lab.rateMbps ? `tbf ${lab.rateMbps / 1000} Gbit/s` : "unshaped"}, MTU ${lab.mtu}), -i ${interval} -t ${seconds}; ` +
        `goals: (a) set-up (first sample less one interval) p95 <= ${GOAL_SETUP_P95_MS} ms, (b) engine → SSE client p95 < ${GOAL_P95_MS} ms`,
    );
    const toFirstSample = { standby: [] as number[], "login shell": [] as number[] };
    const toRunning = { standby: [] as number[], "login shell": [] as number[] };
    const toClient: number[] = [];
    let missing = 0;
    const request = parseRunRequest({ duration: seconds, interval });
    // Run 0 opens the connections and fills the standby pools: a first run after the app starts, printed apart.
    let coldFirstSample: number | null = null;
    for (let index = 0; index <= runs * modes.length; index += 1) {
      const mode = index === 0 ? "standby" : modes[(index - 1) % modes.length]!;
      setStandbySessions(mode === "standby");
      const calledAt = performance.now();
      const started = await engine.startRun({
        linkId: linkIds[link]!,
        options: request.options,
        clientSide: request.clientSide,
      });
      const publishedAt = new Map<number, number>();
      let firstSampleAt: number | null = null;
      let runningAt: number | null = null;
      // Subscribed before the SSE stream, so this stamp is taken before the stream enqueues the event.
      const unsubscribe = bus.subscribe(started.id, 0, (event) => {
        // "running" comes after iperf3 detection over ssh, long after this subscription: its stamp is live.
        if (event.type === "status" && (event.data as { status: string }).status === "running")
          runningAt ??= performance.now();
        if (event.type !== "sample") return;
        const now = performance.now();
        firstSampleAt ??= now;
        publishedAt.set(event.id, now);
      });
      const decodedAt = new Map<number, number>();
      const viewer = new AbortController();
      // Wrapped in a Response as the route handler does, and read back through its body as a client would.
      const reading = readEventStream(
        new Response(openRunEventStream(started.id, 0, viewer.signal, bus)).body!,
        (event) => {
          if (event.event === "sample") decodedAt.set(event.id, event.at);
        },
      );
      await engine.waitForRun(started.id);
      await reading;
      unsubscribe?.();
      const run = await db.run.findUniqueOrThrow({
        where: { id: started.id },
        include: { _count: { select: { samples: true } } },
      });
      if (run.status !== "succeeded") throw new Error(`run ${run.id}: ${run.status}: ${run.errorMessage}`);
      // Every interval the engine handed out reached the SSE client and the database, once.
      check(publishedAt.size > 0, `run ${run.id}: no sample was published`);
      check(
        decodedAt.size === publishedAt.size && [...publishedAt.keys()].every((id) => decodedAt.has(id)),
        `run ${run.id}: ${publishedAt.size} samples published, ${decodedAt.size} read by the SSE client`,
      );
      check(
        run._count.samples === publishedAt.size,
        `run ${run.id}: ${publishedAt.size} samples published, ${run._count.samples} stored`,
      );
      const delays: number[] = [];
      for (const [id, at] of publishedAt) {
        const seen = decodedAt.get(id);
        if (seen === undefined) missing += 1;
        else delays.push(seen - at);
      }
      toClient.push(...delays);
      if (index === 0) coldFirstSample = firstSampleAt === null ? null : firstSampleAt - calledAt;
      else {
        if (firstSampleAt !== null) toFirstSample[mode].push(firstSampleAt - calledAt);
        if (runningAt !== null) toRunning[mode].push(runningAt - calledAt);
      }
      console.log(
        `  run ${index} (${index === 0 ? "first, new connections" : mode}): ${publishedAt.size} samples published, ` +
          `${decodedAt.size} read by the SSE client, ${run._count.samples} stored; ` +
          `startRun → "running" ${runningAt === null ? "none" : ms(runningAt - calledAt)}, ` +
          `→ first sample ${firstSampleAt === null ? "none" : ms(firstSampleAt - calledAt)}; ` +
          `engine → client median ${ms(median(delays))}, max ${ms(Math.max(...delays))}`,
      );
    }
    console.log("");
    console.log(
      `(a) the first run, on new connections: startRun → first sample ${coldFirstSample === null ? "none" : ms(coldFirstSample)} (not counted below)`,
    );
    for (const mode of modes) {
      const first = toFirstSample[mode];
      console.log(
        `(a) ${mode === "standby" ? "standby sessions" : "baseline, a login shell per command"}: ` +
          `startRun → first sample on the bus, ${first.length} runs: median ${ms(median(first))}, p95 ${ms(percentile(first, 95))}, ` +
          `min ${ms(Math.min(...first))}, max ${ms(Math.max(...first))}; ` +
          `set-up (less one interval) p95 ${ms(percentile(first, 95) - interval * 1000)}`,
      );
      console.log(
        `    of which startRun → status "running" (server listening, client started): ` +
          `median ${ms(median(toRunning[mode]))}, p95 ${ms(percentile(toRunning[mode], 95))}`,
      );
    }
    if (baseline) {
      const ratio = (p: (values: number[]) => number) =>
        (p(toFirstSample.standby) / p(toFirstSample["login shell"])).toFixed(2);
      console.log(`(a) standby / baseline: median ${ratio(median)}, p95 ${ratio((values) => percentile(values, 95))}`);
    }
    const setupP95 = percentile(toFirstSample.standby, 95) - interval * 1000;
    console.log(
      `(b) engine publish → SSE client decoded, ${toClient.length} events (${missing} never arrived): ` +
        `median ${ms(median(toClient))}, p95 ${ms(percentile(toClient, 95))}, p99 ${ms(percentile(toClient, 99))}, ` +
        `max ${ms(Math.max(...toClient))}`,
    );
    const p95 = percentile(toClient, 95);
    const apiSetup = await measureApi({ linkId: linkIds[link]!, runs: apiRuns, baseline, db, setStandbySessions });
    console.log(
      `verdict: (a) set-up p95 ${ms(setupP95)} ` +
        `${setupP95 <= GOAL_SETUP_P95_MS ? `<= ${GOAL_SETUP_P95_MS} ms: MET` : `: MISSED (goal <= ${GOAL_SETUP_P95_MS} ms)`}; ` +
        `(b) p95 ${ms(p95)} ${p95 < GOAL_P95_MS && missing === 0 ? `< ${GOAL_P95_MS} ms: MET` : `: MISSED (goal < ${GOAL_P95_MS} ms, every event delivered)`}; ` +
        `(c) set-up median ${ms(apiSetup)} ${apiSetup < GOAL_API_SETUP_MEDIAN_MS ? `< ${GOAL_API_SETUP_MEDIAN_MS} ms: MET` : `: MISSED (goal < ${GOAL_API_SETUP_MEDIAN_MS} ms)`}`,
    );
  });
});

type ApiMode = "watched" | "settle only";

/**
 * (c): `runs` runs per mode at -i 1 through the REST API and its event stream, alternating (with a
 * baseline) between the server's listening watched on the host (what Wirespeed does: lib/runs/server-start.ts)
 * and, as before it, a -J server presumed listening after its settle time; after one run not counted
 * (the app's first on the link). Prints each run's moments and their medians; returns the median set-up.
 */
async function measureApi({
  linkId,
  runs,
  baseline,
  db,
  setStandbySessions,
}: {
  linkId: number;
  runs: number;
  baseline: boolean;
  db: typeof import("../lib/db").db;
  setStandbySessions: (on: boolean) => void;
}): Promise<number> {
  const { getApp } = await import("../lib/running-app");
  const { onStartMark } = await import("../lib/runs/start-marks");
  const { setListeningWatch } = await import("../lib/runs/server-start");
  setStandbySessions(true);
  const bus = getApp().runBus;
  const marks = new Map<number, Map<string, number>>();
  // Listening before the POST: the first steps may be done before its answer is read.
  const stopMarks = onStartMark((runId, mark, at) => {
    if (!marks.has(runId)) marks.set(runId, new Map());
    marks.get(runId)!.set(mark, at);
  });
  const { origin, close } = await serveRunRoutes();
  const body = { duration: API_SECONDS, interval: API_INTERVAL_SECONDS };
  const modes: ApiMode[] = baseline ? ["watched", "settle only"] : ["watched"];
  console.log("");
  console.log(
    `(c) through the REST API and its event stream (${origin}, the app's route handlers), -i ${API_INTERVAL_SECONDS} -t ${API_SECONDS}, ` +
      `${runs} runs${baseline ? " per mode, alternating" : ""}: POST /api/links/${linkId}/runs → first sample decoded from GET /api/runs/:id/events`,
  );
  const done: Record<ApiMode, Array<import("./latency-api").ApiRun>> = { watched: [], "settle only": [] };
  try {
    for (let index = 0; index <= runs * modes.length; index += 1) {
      const mode = index === 0 ? "watched" : modes[(index - 1) % modes.length]!;
      setListeningWatch(mode === "watched");
      const run = await runThroughApi(origin, linkId, body, (runId) => {
        let first: number | null = null;
        const unsubscribe = bus.subscribe(runId, 0, (event) => {
          if (event.type === "sample") first ??= performance.now();
        });
        return {
          marks: marks.get(runId) ?? (marks.set(runId, new Map()), marks.get(runId)!),
          firstPublished: () => {
            unsubscribe?.();
            return first;
          },
        };
      });
      const stored = await db.run.findUniqueOrThrow({
        where: { id: run.runId },
        include: { _count: { select: { samples: true } } },
      });
      check(stored.status === "succeeded", `run ${run.runId}: ${stored.status}: ${stored.errorMessage}`);
      check(run.status === "succeeded", `run ${run.runId}: the stream ended at status ${run.status}`);
      check(
        run.samples === stored._count.samples,
        `run ${run.runId}: ${run.samples} samples read, ${stored._count.samples} stored`,
      );
      const line = Object.entries(run.moments)
        .map(([mark, at]) => `${mark} ${at.toFixed(0)}`)
        .join(", ");
      console.log(`  run ${index} (${index === 0 ? "not counted" : mode}): ${line} ms`);
      if (index > 0) done[mode].push(run);
    }
  } finally {
    setListeningWatch(true);
    stopMarks();
    await close();
  }
  const setups = {} as Record<ApiMode, number>;
  for (const mode of modes) {
    const runsOfMode = done[mode];
    const names = [...new Set(runsOfMode.flatMap((run) => Object.keys(run.moments)))].sort(
      (a, b) =>
        median(runsOfMode.map((run) => run.moments[a] ?? Infinity)) -
        median(runsOfMode.map((run) => run.moments[b] ?? Infinity)),
    );
    let previous = 0;
    console.log(`(c) ${mode}: medians of ${runsOfMode.length} runs, ms from the POST (and from the moment before):`);
    for (const name of names) {
      const at = median(runsOfMode.map((run) => run.moments[name] ?? Number.NaN));
      console.log(`    ${name.padEnd(24)} ${at.toFixed(1).padStart(8)}  (+${(at - previous).toFixed(1)})`);
      previous = at;
    }
    const first = runsOfMode.map((run) => run.toFirstSampleMs);
    setups[mode] = median(first) - API_INTERVAL_SECONDS * 1000;
    console.log(
      `(c) ${mode}: request → first sample decoded: median ${ms(median(first))}, min ${ms(Math.min(...first))}, ` +
        `max ${ms(Math.max(...first))}; set-up (less one interval) median ${ms(setups[mode])}`,
    );
  }
  if (baseline)
    console.log(
      `(c) set-up, watched / settle only: median ${(setups.watched / setups["settle only"]).toFixed(2)} ` +
        `(${ms(setups["settle only"] - setups.watched)} less)`,
    );
  return setups.watched;
}
