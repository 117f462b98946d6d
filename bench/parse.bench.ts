// Benchmark of the streaming iperf3 text parser: a synthetic one-hour, 32-stream, 0.1 s-interval
// client log (about 1.2 million lines), generated line by line and never held in memory, then a
// log a quarter as long in the same process, to show that memory does not grow with the log.
//   npx tsx bench/parse.bench.ts [--minutes 60] [--streams 32] [--interval 0.1]
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createIperfParser } from "../lib/iperf";

type Settings = { seconds: number; streams: number; interval: number };

function readSettings(args: string[]): Settings {
  const value = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? Number(args[index + 1]) : fallback;
  };
  return { seconds: value("minutes", 60) * 60, streams: value("streams", 32), interval: value("interval", 0.1) };
}

const pad = (text: string, width: number) => text.padStart(width, " ");
const time = (seconds: number) => seconds.toFixed(2);

/** The lines of an iperf3 3.12 client log with -P streams -i interval -t seconds, one at a time. */
function* syntheticLog({ seconds, streams, interval }: Settings): Generator<string> {
  const ids = Array.from({ length: streams }, (_, index) => 5 + 2 * index);
  yield "Connecting to host 198.18.0.2, port 5201";
  for (const id of ids) yield `[${pad(String(id), 3)}] local 198.18.0.1 port ${40000 + id} connected to 198.18.0.2 port 5201`;
  yield "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd";
  // the pieces are made once, so that the generator costs little next to the parser it feeds
  const prefixes = ids.map((id) => `[${pad(String(id), 3)}] `);
  const suffixes = Array.from({ length: 20 }, (_, index) => {
    const megabytes = 3.5 + (index % 10) / 10;
    const retr = index >= 10 ? 1 : 0;
    return ` sec  ${megabytes.toFixed(2)} MBytes   ${(megabytes * 83.9).toFixed(0)} Mbits/sec  ${pad(String(retr), 3)}   1.12 MBytes       `;
  });
  const sumSuffixes = Array.from({ length: streams + 1 }, (_, retr) => {
    return ` sec   ${(streams * 3.95).toFixed(0)} MBytes  ${((streams * 3.95 * 8.39) / 100).toFixed(2)} Gbits/sec  ${pad(String(retr), 3)}             `;
  });
  const separator = "- - - - - - - - - - - - - - - - - - - - - - - - -";
  const steps = Math.round(seconds / interval);
  for (let step = 0; step < steps; step += 1) {
    const span = `${pad(time(step * interval), 6)}-${time((step + 1) * interval).padEnd(6, " ")}`;
    let retransmits = 0;
    let block = "";
    for (let index = 0; index < ids.length; index += 1) {
      const id = ids[index]!;
      const retr = (step + id) % 97 === 0 ? 1 : 0;
      retransmits += retr;
      block += `${prefixes[index]}${span}${suffixes[((step * 7 + id) % 10) + 10 * retr]}\n`;
    }
    block += `[SUM] ${span}${sumSuffixes[retransmits]}\n${separator}`;
    // split like a line reader does: lines are slices of one flat chunk, as readline gives them
    yield* block.split("\n");
  }
  yield "[ ID] Interval           Transfer     Bitrate         Retr";
  const total = time(seconds);
  for (const id of ids) {
    yield `[${pad(String(id), 3)}]   0.00-${total}  sec   142 GBytes   339 Mbits/sec   37             sender`;
    yield `[${pad(String(id), 3)}]   0.00-${total}  sec   142 GBytes   339 Mbits/sec                  receiver`;
  }
  yield `[SUM]   0.00-${total}  sec  4.44 TBytes  10.6 Gbits/sec  1184             sender`;
  yield `[SUM]   0.00-${total}  sec  4.44 TBytes  10.6 Gbits/sec                  receiver`;
  yield "";
  yield "iperf Done.";
}

// a real gc() between runs, so that each run's peak starts from the same floor
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

type RunFigures = {
  lines: number;
  intervals: number;
  /** wall-clock time */
  seconds: number;
  /** CPU time of this process: what the parser costs, whatever else the machine runs */
  cpuSeconds: number;
  peakHeap: number;
  peakRss: number;
  heapGrowth: number;
};

function measureGeneratorOnly(settings: Settings): number {
  const started = process.cpuUsage();
  let count = 0;
  for (const line of syntheticLog(settings)) count += line.length;
  if (count === 0) throw new Error("empty log");
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1e6;
}

function runParser(settings: Settings): RunFigures {
  collectGarbage();
  const baseHeap = process.memoryUsage().heapUsed;
  let peakHeap = baseHeap;
  let peakRss = process.memoryUsage.rss();
  const parser = createIperfParser();
  let lines = 0;
  let intervals = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (const line of syntheticLog(settings)) {
    const events = parser.push(line);
    for (let index = 0; index < events.length; index += 1) if (events[index]!.type === "interval") intervals += 1;
    lines += 1;
    // sample memory every 10k lines: often enough to see growth, rarely enough not to cost time
    if (lines % 10_000 === 0) {
      const heap = process.memoryUsage().heapUsed;
      if (heap > peakHeap) peakHeap = heap;
      const rss = process.memoryUsage.rss();
      if (rss > peakRss) peakRss = rss;
    }
  }
  const result = parser.end();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  if (result.summary?.sender?.bytes !== Math.round(4.44 * 1024 ** 4)) throw new Error("benchmark log parsed wrong");
  collectGarbage();
  return {
    lines,
    intervals,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakHeap,
    peakRss,
    heapGrowth: process.memoryUsage().heapUsed - baseHeap,
  };
}

const MB = 1024 * 1024;
const settings = readSettings(process.argv.slice(2));
const quarter: Settings = { ...settings, seconds: settings.seconds / 4 };

// warm-up: let V8 optimise the parser before anything is timed
runParser({ ...settings, seconds: 300 });

const generatorSeconds = measureGeneratorOnly(settings);
const short = runParser(quarter);
const longRuns = [runParser(settings), runParser(settings), runParser(settings)];
const long = [...longRuns].sort((a, b) => a.cpuSeconds - b.cpuSeconds)[1]!;

const report = (label: string, run: RunFigures) =>
  `${label}: ${run.lines.toLocaleString("en")} lines, ${run.intervals.toLocaleString("en")} intervals in ${run.seconds.toFixed(2)} s ` +
  `(${run.cpuSeconds.toFixed(2)} s CPU) = ${Math.round(run.lines / run.seconds).toLocaleString("en")} lines/s wall, ` +
  `${Math.round(run.lines / run.cpuSeconds).toLocaleString("en")} lines/CPU-s (generator included); ` +
  `peak heap ${(run.peakHeap / MB).toFixed(1)} MB, peak RSS ${(run.peakRss / MB).toFixed(1)} MB, heap left after end() ${(run.heapGrowth / MB).toFixed(2)} MB`;

console.log(`node ${process.version}, ${settings.streams} streams, -i ${settings.interval}, ${settings.seconds / 60} min log`);
console.log(report("1/4 log", short));
longRuns.forEach((run, index) => console.log(report(`full log, run ${index + 1}`, run)));
const parserOnlySeconds = Math.max(long.cpuSeconds - generatorSeconds, 1e-9);
console.log(
  `median full run: ${Math.round(long.lines / long.seconds).toLocaleString("en")} lines/s wall, ` +
    `${Math.round(long.lines / long.cpuSeconds).toLocaleString("en")} lines/CPU-s with the generator; generating the log alone takes ` +
    `${generatorSeconds.toFixed(2)} s CPU, so the parser alone ≈ ${Math.round(long.lines / parserOnlySeconds).toLocaleString("en")} lines/CPU-s`,
);
console.log(
  `memory ratio full/quarter: peak heap ${(long.peakHeap / short.peakHeap).toFixed(2)}, peak RSS ${(long.peakRss / short.peakRss).toFixed(2)} (log length ratio ${(long.lines / short.lines).toFixed(2)})`,
);
