// Throughput through Wirespeed vs by hand, on the lab: for each link, N alternating pairs of
// (a) a run through the real engine (ssh, agents, parser, SQLite) and (b) the same iperf3 test
// typed by hand over `ssh` (`iperf3 -s -1` on b, `iperf3 -c ... -J` on a). Prints each pair,
// the medians and the ratio of medians. Goal: Wirespeed / by hand ≥ 0.98.
//   WIRESPEED_LAB_INSTANCE=2 node --require ./testing/server-only.cjs --import tsx bench/throughput.bench.ts
//     [--n 5] [--seconds 5] [--links ab-2g5,ab-fast] [--control] [--smoke]
// --control replaces the Wirespeed side by a second by-hand run (an A/A test): the spread of its
// ratio is the noise floor of the machine, against which the 0.98 goal can be judged.
// --smoke: one pair of 1 s tests on ab-2g5, to show that the bench still works (its ratio means little).
import os from "node:os";
import { benchOptions, check, engineRun, gbits, handRun, median, ms, runMain, withLabEngine } from "./lab-bench";

const GOAL_RATIO = 0.98;
// By-hand servers use a port outside the engine's range (5201-5299), so the two never meet.
const HAND_PORT = 5401;
// Both sides measure the same link: a ratio outside this is a unit or parsing error, not noise.
const SANE_RATIO = [0.25, 4] as const;

function readArgs(args: string[]) {
  const { isSmoke, value, number } = benchOptions(args);
  return {
    isSmoke,
    n: number("n", 5, 1),
    seconds: number("seconds", 5, 1),
    links: value("links", "ab-2g5,ab-fast", "ab-2g5").split(","),
    isControl: args.includes("--control"),
  };
}

runMain(async () => {
  const { isSmoke, n, seconds, links, isControl } = readArgs(process.argv.slice(2));
  await withLabEngine("throughput", async (context) => {
    // In a control run the first column is a second by-hand test, and says so.
    const label = isControl ? "by hand #2" : "Wirespeed";
    if (isControl)
      console.log(`throughput: CONTROL RUN (--control): "${label}" is a second by-hand run on port ${HAND_PORT + 1}`);
    console.log(
      `throughput: ${isSmoke ? "SMOKE RUN (--smoke): " : ""}N=${n} pairs per link, -t ${seconds}, links ${links.join(", ")}; ` +
        `goal: median(${label}) / median(by hand) ≥ ${GOAL_RATIO}`,
    );
    const verdicts: string[] = [];
    for (const linkName of links) {
      const link = context.state.links.find((l) => l.name === linkName);
      if (!link) throw new Error(`the lab has no link ${linkName}`);
      console.log(
        `\n${linkName}: ${link.rateMbps ? `tbf ${link.rateMbps / 1000} Gbit/s` : "unshaped"}, MTU ${link.mtu}, ` +
          `${link.a.host} ${link.a.address} → ${link.b.host} ${link.b.address}`,
      );
      const engineFigures: number[] = [];
      const handFigures: number[] = [];
      const firstSample: number[] = [];
      for (let pair = 1; pair <= n; pair += 1) {
        // The order alternates too, so that neither side always runs on a warmer (or hotter) machine.
        const engineFirst = pair % 2 === 1;
        let engineResult: {
          run: { receivedBitsPerSecond: number | null; clientCommand: string | null; serverCommand: string | null };
          toFirstSampleMs: number | null;
        } | null = null;
        let hand: Awaited<ReturnType<typeof handRun>> | null = null;
        // CPU of this Node process (engine, ssh, parser, SQLite) while each side runs: on a CPU-bound
        // link, whatever it takes is taken from iperf3 on the same 2 vCPUs.
        const cpuSeconds = { engine: 0, hand: 0 };
        for (const side of engineFirst ? (["engine", "hand"] as const) : (["hand", "engine"] as const)) {
          const cpuStarted = process.cpuUsage();
          if (side === "engine" && isControl) {
            const again = await handRun(context.state, link, HAND_PORT + 1, seconds);
            engineResult = {
              run: {
                receivedBitsPerSecond: again.bitsPerSecond,
                clientCommand: again.clientCommand,
                serverCommand: again.serverCommand,
              },
              toFirstSampleMs: null,
            };
          } else if (side === "engine") engineResult = await engineRun(context, linkName, { duration: seconds });
          else hand = await handRun(context.state, link, HAND_PORT, seconds);
          const cpu = process.cpuUsage(cpuStarted);
          cpuSeconds[side] = (cpu.user + cpu.system) / 1e6;
        }
        const wirespeed = engineResult!.run.receivedBitsPerSecond!;
        check(Number.isFinite(wirespeed) && wirespeed > 0, `${label} on ${linkName} stored ${wirespeed} bits/s`);
        check(
          Number.isFinite(hand!.bitsPerSecond) && hand!.bitsPerSecond > 0,
          `by hand on ${linkName}: ${hand!.bitsPerSecond} bits/s`,
        );
        const pairRatio = wirespeed / hand!.bitsPerSecond;
        check(
          pairRatio > SANE_RATIO[0] && pairRatio < SANE_RATIO[1],
          `${label} ${gbits(wirespeed)} against ${gbits(hand!.bitsPerSecond)} by hand on ${linkName}: not the same link's rate`,
        );
        engineFigures.push(wirespeed);
        handFigures.push(hand!.bitsPerSecond);
        if (engineResult!.toFirstSampleMs !== null) firstSample.push(engineResult!.toFirstSampleMs);
        if (pair === 1) {
          console.log(`  ${label} client: ${engineResult!.run.clientCommand}`);
          console.log(`  ${label} server: ${engineResult!.run.serverCommand}`);
          console.log(`  by hand client:   ${hand!.clientCommand}`);
          console.log(`  by hand server:   ${hand!.serverCommand}`);
        }
        console.log(
          `  pair ${pair} (${engineFirst ? `${label} first` : "by hand first"}): ${label} ${gbits(wirespeed)}, ` +
            `by hand ${gbits(hand!.bitsPerSecond)}, ratio ${pairRatio.toFixed(3)}; ` +
            `Node CPU ${cpuSeconds.engine.toFixed(2)} s (${label}) / ${cpuSeconds.hand.toFixed(2)} s (by hand), load average ${os.loadavg()[0]!.toFixed(2)}`,
        );
      }
      const ratio = median(engineFigures) / median(handFigures);
      console.log(
        `  median: ${label} ${gbits(median(engineFigures))}, by hand ${gbits(median(handFigures))}, ratio of medians ${ratio.toFixed(3)}`,
      );
      if (firstSample.length > 0)
        console.log(
          `  startRun → first sample on the bus (-i 1): median ${ms(median(firstSample))}, each ${firstSample.map((v) => v.toFixed(0)).join(", ")} ms`,
        );
      verdicts.push(
        `${linkName}: ratio ${ratio.toFixed(3)} ${ratio >= GOAL_RATIO ? "≥" : "<"} ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? "MET" : "MISSED"}`,
      );
    }
    console.log(
      `\nverdict${isControl ? " (control, by hand vs by hand: the noise floor, not Wirespeed)" : ""}: ${verdicts.join("; ")}`,
    );
  });
});
