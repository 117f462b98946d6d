// Samples stored per second under a heavy run, on the lab, through the real engine: -P 32 -i 0.1
// -t 10 on the unshaped ab-fast link while two SSE viewers (two openRunEventStream readers, as two
// browser tabs on GET /api/runs/:id/events) watch. Prints the Sample rows stored for the run, rows
// per second, the sample events each viewer got (both must equal the rows stored) and the peak RSS
// of this process (engine, SQLite, ssh and both viewers).
//   WIRESPEED_LAB_INSTANCE=2 node --require ./testing/server-only.cjs --import tsx bench/samples.bench.ts
//     [--parallel 32] [--interval 0.1] [--seconds 10] [--link ab-fast] [--smoke]
// --smoke: -P 4 -t 1 (10 intervals), the same checks.
import { benchOptions, check, runMain, withLabEngine } from "./lab-bench";

function readArgs(args: string[]) {
  const { isSmoke, value, number } = benchOptions(args);
  return {
    isSmoke,
    parallel: number("parallel", 32, 4),
    interval: number("interval", 0.1),
    seconds: number("seconds", 10, 1),
    link: value("link", "ab-fast"),
  };
}

type Viewer = { samples: number; ids: number[]; bytes: number; lastStatus: string | null };

async function watch(body: NonNullable<Response["body"]>): Promise<Viewer> {
  const viewer: Viewer = { samples: 0, ids: [], bytes: 0, lastStatus: null };
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return viewer;
    viewer.bytes += value.length;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map(
        block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      if (fields.get("event") === "sample") {
        viewer.samples += 1;
        viewer.ids.push(Number(fields.get("id")));
      } else if (fields.get("event") === "status") {
        viewer.lastStatus = (JSON.parse(fields.get("data")!) as { status: string }).status;
      }
    }
  }
}

const MB = 1024 * 1024;

runMain(async () => {
  const { isSmoke, parallel, interval, seconds, link } = readArgs(process.argv.slice(2));
  await withLabEngine("samples", async ({ engine, bus, db, linkIds, parseRunRequest, openRunEventStream, state }) => {
    const lab = state.links.find((l) => l.name === link)!;
    const expected = Math.round(seconds / interval);
    console.log(
      `samples: ${isSmoke ? "SMOKE RUN (--smoke): " : ""}${link} ` +
        `(${lab.rateMbps ? `tbf ${lab.rateMbps / 1000} Gbit/s` : "unshaped"}, MTU ${lab.mtu}), -P ${parallel} -i ${interval} -t ${seconds} ` +
        `(iperf3 prints ${expected} intervals × ${parallel + 2} lines), 2 SSE viewers; goal: every interval stored and seen by both viewers`,
    );
    const rssBefore = process.memoryUsage.rss();
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
    const cpuStarted = process.cpuUsage();
    const request = parseRunRequest({ parallel, interval, duration: seconds });
    const calledAt = performance.now();
    const started = await engine.startRun({
      linkId: linkIds[link]!,
      options: request.options,
      clientSide: request.clientSide,
    });
    let firstAt: number | null = null;
    let lastAt = 0;
    let published = 0;
    const unsubscribe = bus.subscribe(started.id, 0, (event) => {
      if (event.type !== "sample") return;
      published += 1;
      firstAt ??= performance.now();
      lastAt = performance.now();
    });
    // Two viewers, each through a Response body as the route handler serves it.
    const view = () => watch(new Response(openRunEventStream(started.id, 0, new AbortController().signal, bus)).body!);
    const viewers = [view(), view()] as const;
    await engine.waitForRun(started.id);
    const endedAt = performance.now();
    const [first, second] = await Promise.all(viewers);
    unsubscribe?.();
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuStarted);
    const run = await db.run.findUniqueOrThrow({ where: { id: started.id } });
    const stored = await db.sample.count({ where: { runId: started.id } });
    const seqs = await db.sample.findMany({
      where: { runId: started.id },
      select: { seq: true, streams: true },
      orderBy: { seq: "asc" },
    });
    const isContiguous = seqs.every((row, index) => row.seq === index);
    const streamsPerRow =
      seqs.length > 0 ? (Array.isArray(seqs[1]?.streams) ? (seqs[1]!.streams as unknown[]).length : 0) : 0;
    const maxRssKb = process.resourceUsage().maxRSS;
    const sampleSpan = firstAt === null ? 0 : (lastAt - firstAt) / 1000;

    console.log(
      `  run ${run.id}: ${run.status}${run.errorMessage ? ` (${run.errorMessage})` : ""}, ` +
        `received ${((run.receivedBitsPerSecond ?? 0) / 1e9).toFixed(2)} Gbit/s, ` +
        `${((endedAt - calledAt) / 1000).toFixed(1)} s from startRun to its end`,
    );
    console.log(`  client command: ${run.clientCommand}`);
    console.log(
      `  samples published on the bus: ${published}; Sample rows stored: ${stored} ` +
        `(seq 0..${stored - 1} contiguous: ${isContiguous}; ${streamsPerRow} per-stream values per row)`,
    );
    console.log(
      `  stored per second: ${(stored / seconds).toFixed(1)} over the test's ${seconds} s, ` +
        `${(sampleSpan > 0 ? (stored - 1) / sampleSpan : 0).toFixed(1)} between the first and last sample (${sampleSpan.toFixed(2)} s)`,
    );
    for (const [index, viewer] of ([first, second] as const).entries()) {
      const inOrder = viewer.ids.every((id, position) => id === position + 1);
      console.log(
        `  viewer ${index + 1}: ${viewer.samples} sample events (ids 1..${viewer.ids.at(-1) ?? 0} in order: ${inOrder}), ` +
          `${(viewer.bytes / 1024).toFixed(0)} KiB of SSE, last status ${viewer.lastStatus}`,
      );
    }
    console.log(
      `  memory: RSS ${(rssBefore / MB).toFixed(1)} MB before the run, peak ${(peakRss / MB).toFixed(1)} MB during it ` +
        `(sampled every 50 ms), process maxRSS ${(maxRssKb / 1024).toFixed(1)} MB; ` +
        `CPU of this process during the run ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
    );
    const isMet =
      run.status === "succeeded" && stored === expected && first.samples === stored && second.samples === stored;
    console.log(
      `verdict: ${isMet ? "MET" : "MISSED"}: ${stored}/${expected} intervals stored, ` +
        `viewers ${first.samples} and ${second.samples} ${first.samples === stored && second.samples === stored ? "=" : "≠"} stored, ` +
        `${(stored / seconds).toFixed(1)} samples/s`,
    );
    // After the verdict, so that the figures are printed: what must hold whatever the machine's load.
    check(run.status === "succeeded", `run ${run.id} ${run.status}`);
    check(
      stored > 0 && stored === published && isContiguous,
      `${published} samples published, ${stored} rows stored (seq contiguous: ${isContiguous})`,
    );
    check(streamsPerRow === parallel || stored < 2, `${streamsPerRow} per-stream values per row for -P ${parallel}`);
    for (const viewer of [first, second])
      check(
        viewer.samples === stored && viewer.ids.every((id, position) => id === position + 1),
        `a viewer got ${viewer.samples} sample events for ${stored} rows`,
      );
  });
});
