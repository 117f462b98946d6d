// Benchmark of the streaming iperf3 text parser: a synthetic one-hour, 32-stream, 0.1 s-interval
// client log (1,224,103 lines) pushed line by line through createIperfParser().push(), as a live
// run or an import feeds it. The log is made one chunk at a time and never held whole; each chunk
// is split into lines the way the line reader splits what SSH delivers (every line a slice of its
// chunk). Making a chunk and parsing it are timed apart, so the headline is the parser's own
// throughput; making the log alone is measured too, in the same process, as the baseline.
//   npx tsx bench/parse.bench.ts [--minutes 60] [--streams 32] [--interval 0.1] [--smoke]
// --smoke: a one-minute log (20,400 lines), the same checks, a few seconds; its times mean little.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createIperfParser, type IperfResult } from "../lib/iperf";

type Settings = { seconds: number; streams: number; interval: number };

function readSettings(args: string[]): Settings & { isSmoke: boolean } {
  const isSmoke = args.includes("--smoke");
  const value = (name: string, fallback: number, isAllowed: (value: number) => boolean, allowed: string) => {
    const index = args.indexOf(`--${name}`);
    if (index < 0) return fallback;
    const text = args[index + 1];
    const number = Number(text);
    if (text === undefined || text.trim() === "" || !Number.isFinite(number) || !isAllowed(number)) {
      throw new Error(`--${name} must be ${allowed}, not ${text === undefined ? "missing" : JSON.stringify(text)}`);
    }
    return number;
  };
  const minutes = value(
    "minutes",
    isSmoke ? 1 : 60,
    (minutes) => minutes > 0 && minutes <= 24 * 60,
    "a number of minutes above 0, at most 1440",
  );
  const streams = value(
    "streams",
    32,
    (streams) => Number.isInteger(streams) && streams >= 2 && streams <= 128,
    "a whole number of streams from 2 to 128",
  );
  const interval = value(
    "interval",
    0.1,
    (interval) => interval >= 0.1 && interval <= 60,
    "an interval in seconds from 0.1 to 60",
  );
  if (Math.round((minutes * 60) / interval) < 4)
    throw new Error("--minutes and --interval: the log needs at least 4 intervals");
  return { isSmoke, seconds: minutes * 60, streams, interval };
}

const MiB = 1024 ** 2;
const pad = (text: string, width: number) => text.padStart(width, " ");
const time = (seconds: number) => seconds.toFixed(2);
// about 64 KiB of text per chunk at 32 streams, what one read from an SSH channel brings
const STEPS_PER_CHUNK = 25;

/** What a correct parse of the log finds: the generator adds it up as it writes. */
type Expected = {
  intervals: number;
  streamSamples: number;
  streamBytes: number;
  sumBytes: number;
  sumRetransmits: number;
  lines: number;
};

/**
 * The chunks of an iperf3 3.12 client log with -P streams -i interval -t seconds, each already
 * split into lines. The pieces of the lines are made once, so that a chunk costs a few string
 * joins; the numbers in them still vary from line to line and interval to interval.
 */
function* syntheticLog({ seconds, streams, interval }: Settings, expected: Expected): Generator<string[]> {
  const ids = Array.from({ length: streams }, (_, index) => 5 + 2 * index);
  const header = ["Connecting to host 198.18.0.2, port 5201"];
  for (const id of ids)
    header.push(`[${pad(String(id), 3)}] local 198.18.0.1 port ${40000 + id} connected to 198.18.0.2 port 5201`);
  header.push("[ ID] Interval           Transfer     Bitrate         Retr  Cwnd");
  expected.lines += header.length;
  yield header;

  const prefixes = ids.map((id) => `[${pad(String(id), 3)}] `);
  const megabytes = Array.from({ length: 20 }, (_, index) => (3.5 + (index % 10) / 10).toFixed(2));
  const suffixes = megabytes.map((transfer, index) => {
    const retr = index >= 10 ? 1 : 0;
    return ` sec  ${transfer} MBytes   ${(Number(transfer) * 83.9).toFixed(0)} Mbits/sec  ${pad(String(retr), 3)}   1.12 MBytes       `;
  });
  const suffixBytes = megabytes.map((transfer) => Math.round(Number(transfer) * MiB));
  const sumTransfer = (streams * 3.95).toFixed(0);
  const sumSuffixes = Array.from({ length: streams + 1 }, (_, retr) => {
    return ` sec   ${sumTransfer} MBytes  ${((streams * 3.95 * 8.39) / 100).toFixed(2)} Gbits/sec  ${pad(String(retr), 3)}             `;
  });
  const separator = "- - - - - - - - - - - - - - - - - - - - - - - - -";
  const steps = Math.round(seconds / interval);
  for (let first = 0; first < steps; first += STEPS_PER_CHUNK) {
    const last = Math.min(first + STEPS_PER_CHUNK, steps);
    let chunk = "";
    for (let step = first; step < last; step += 1) {
      const span = `${pad(time(step * interval), 6)}-${time((step + 1) * interval).padEnd(6, " ")}`;
      let retransmits = 0;
      for (let index = 0; index < ids.length; index += 1) {
        const id = ids[index]!;
        const retr = (step + id) % 97 === 0 ? 1 : 0;
        const piece = ((step * 7 + id) % 10) + 10 * retr;
        retransmits += retr;
        expected.streamBytes += suffixBytes[piece]!;
        chunk += `${prefixes[index]}${span}${suffixes[piece]}\n`;
      }
      chunk += `[SUM] ${span}${sumSuffixes[retransmits]}\n${separator}${step + 1 < last ? "\n" : ""}`;
      expected.sumRetransmits += retransmits;
    }
    const lines = chunk.split("\n");
    expected.lines += lines.length;
    yield lines;
  }
  expected.intervals = steps;
  expected.streamSamples = steps * streams;
  expected.sumBytes = steps * Math.round(Number(sumTransfer) * MiB);

  const total = time(seconds);
  const summary = ["[ ID] Interval           Transfer     Bitrate         Retr"];
  for (const id of ids) {
    summary.push(`[${pad(String(id), 3)}]   0.00-${total}  sec   142 GBytes   339 Mbits/sec   37             sender`);
    summary.push(`[${pad(String(id), 3)}]   0.00-${total}  sec   142 GBytes   339 Mbits/sec                  receiver`);
  }
  summary.push(`[SUM]   0.00-${total}  sec  4.44 TBytes  10.6 Gbits/sec  1184             sender`);
  summary.push(`[SUM]   0.00-${total}  sec  4.44 TBytes  10.6 Gbits/sec                  receiver`);
  summary.push("", "iperf Done.");
  expected.lines += summary.length;
  yield summary;
}

const newExpected = (): Expected => ({
  intervals: 0,
  streamSamples: 0,
  streamBytes: 0,
  sumBytes: 0,
  sumRetransmits: 0,
  lines: 0,
});

// a real gc() between runs, so that each run's peak starts from the same floor
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const cpuMicros = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

type RunFigures = {
  lines: number;
  intervals: number;
  /** wall-clock time in push() (and reading its events), summed over the chunks */
  parseSeconds: number;
  /** CPU time of the process over the same spans: what the parser costs, whatever else the machine runs */
  parseCpuSeconds: number;
  /** wall-clock time making the chunks, within the same run */
  generateSeconds: number;
  peakHeap: number;
  peakRss: number;
  /** heap still used after end() and a full GC, the parser and its result still alive */
  heapRetained: number;
};

/** The generator alone over the whole log: the baseline the parser's figure is set against. */
function runGeneratorOnly(settings: Settings): { lines: number; seconds: number; cpuSeconds: number } {
  collectGarbage();
  const started = performance.now();
  const cpuStarted = cpuMicros();
  let lines = 0;
  let chars = 0;
  for (const chunk of syntheticLog(settings, newExpected())) {
    lines += chunk.length;
    // touch every line, as the parser does, so that nothing is left unmade
    for (let index = 0; index < chunk.length; index += 1) chars += chunk[index]!.length;
  }
  if (chars === 0) throw new Error("the generator made an empty log");
  return { lines, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpuMicros() - cpuStarted) / 1e6 };
}

function check(isRight: boolean, what: string, found: unknown, wanted: unknown): void {
  if (!isRight) throw new Error(`benchmark log parsed wrong: ${what} is ${String(found)}, not ${String(wanted)}`);
}

function checkResult(result: IperfResult, settings: Settings, expected: Expected, seen: Expected): void {
  check(seen.lines === expected.lines, "the number of lines pushed", seen.lines, expected.lines);
  check(seen.intervals === expected.intervals, "the number of intervals", seen.intervals, expected.intervals);
  check(
    seen.streamSamples === expected.streamSamples,
    "the number of stream samples",
    seen.streamSamples,
    expected.streamSamples,
  );
  check(
    seen.streamBytes === expected.streamBytes,
    "the sum of the streams' bytes",
    seen.streamBytes,
    expected.streamBytes,
  );
  check(seen.sumBytes === expected.sumBytes, "the sum of the intervals' bytes", seen.sumBytes, expected.sumBytes);
  check(
    seen.sumRetransmits === expected.sumRetransmits,
    "the sum of the intervals' retransmits",
    seen.sumRetransmits,
    expected.sumRetransmits,
  );
  check(result.streams === settings.streams, "the number of streams", result.streams, settings.streams);
  const sender = result.summary?.sender;
  check(
    sender?.bytes === Math.round(4.44 * 1024 ** 4),
    "the sender's bytes",
    sender?.bytes,
    Math.round(4.44 * 1024 ** 4),
  );
  check(sender?.retransmits === 1184, "the sender's retransmits", sender?.retransmits, 1184);
  check(sender?.end === settings.seconds, "the summary's end", sender?.end, settings.seconds);
  const receiver = result.summary?.receiver;
  check(
    receiver?.bytes === Math.round(4.44 * 1024 ** 4),
    "the receiver's bytes",
    receiver?.bytes,
    Math.round(4.44 * 1024 ** 4),
  );
  check(
    result.error === null && !result.interrupted,
    "the run's end",
    result.error?.message ?? "interrupted",
    "a normal end",
  );
}

function runParser(settings: Settings): RunFigures {
  collectGarbage();
  const baseHeap = process.memoryUsage().heapUsed;
  let peakHeap = baseHeap;
  let peakRss = process.memoryUsage.rss();
  const expected = newExpected();
  const seen = newExpected();
  const parser = createIperfParser();
  const chunks = syntheticLog(settings, expected);
  let parseMs = 0;
  let parseCpuMicros = 0;
  let generateMs = 0;
  for (;;) {
    const beforeChunk = performance.now();
    const next = chunks.next();
    if (next.done) break;
    const lines = next.value;
    const beforeParse = performance.now();
    const cpuBeforeParse = cpuMicros();
    for (let index = 0; index < lines.length; index += 1) {
      const events = parser.push(lines[index]!);
      for (let at = 0; at < events.length; at += 1) {
        const event = events[at]!;
        if (event.type !== "interval") continue;
        const { interval } = event;
        seen.intervals += 1;
        seen.sumBytes += interval.bytes;
        seen.sumRetransmits += interval.retransmits ?? 0;
        seen.streamSamples += interval.streams.length;
        for (let stream = 0; stream < interval.streams.length; stream += 1)
          seen.streamBytes += interval.streams[stream]!.bytes;
      }
    }
    const afterParse = performance.now();
    parseCpuMicros += cpuMicros() - cpuBeforeParse;
    parseMs += afterParse - beforeParse;
    generateMs += beforeParse - beforeChunk;
    seen.lines += lines.length;
    // memory is sampled between chunks, outside the timed spans
    const heap = process.memoryUsage().heapUsed;
    if (heap > peakHeap) peakHeap = heap;
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) peakRss = rss;
  }
  const started = performance.now();
  const cpuStarted = cpuMicros();
  const result = parser.end();
  parseMs += performance.now() - started;
  parseCpuMicros += cpuMicros() - cpuStarted;
  checkResult(result, settings, expected, seen);
  collectGarbage();
  const heapRetained = process.memoryUsage().heapUsed - baseHeap;
  // the parser and its result stay alive until here: whatever they hold is in heapRetained
  if (parser.end() !== result) throw new Error("end() called twice gave another result");
  return {
    lines: seen.lines,
    intervals: seen.intervals,
    parseSeconds: parseMs / 1000,
    parseCpuSeconds: parseCpuMicros / 1e6,
    generateSeconds: generateMs / 1000,
    peakHeap,
    peakRss,
    heapRetained,
  };
}

const MB = 1024 * 1024;
const { isSmoke, ...settings } = readSettings(process.argv.slice(2));
const quarter: Settings = { ...settings, seconds: settings.seconds / 4 };
const perSecond = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en");
const median = <T>(runs: T[], key: (run: T) => number): T =>
  [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)]!;

// warm-up: let V8 optimise the parser and the generator before anything is timed
runParser({ ...settings, seconds: Math.min(settings.seconds, 300) });
runGeneratorOnly({ ...settings, seconds: Math.min(settings.seconds, 300) });

const generatorRuns = [runGeneratorOnly(settings), runGeneratorOnly(settings), runGeneratorOnly(settings)];
const short = runParser(quarter);
const longRuns = [runParser(settings), runParser(settings), runParser(settings)];
const long = median(longRuns, (run) => run.parseSeconds);
const generator = median(generatorRuns, (run) => run.seconds);

const report = (label: string, run: RunFigures) =>
  `${label}: ${run.lines.toLocaleString("en")} lines, ${run.intervals.toLocaleString("en")} intervals; parser ${run.parseSeconds.toFixed(3)} s ` +
  `(${run.parseCpuSeconds.toFixed(3)} s CPU) = ${perSecond(run.lines, run.parseSeconds)} lines/s, ${perSecond(run.lines, run.parseCpuSeconds)} lines/CPU-s; ` +
  `making the chunks ${run.generateSeconds.toFixed(3)} s; both ${perSecond(run.lines, run.parseSeconds + run.generateSeconds)} lines/s; ` +
  `peak heap ${(run.peakHeap / MB).toFixed(1)} MB, peak RSS ${(run.peakRss / MB).toFixed(1)} MB, ` +
  `heap left after end() ${(run.heapRetained / MB).toFixed(2)} MB`;

console.log(
  `node ${process.version}, ${settings.streams} streams, -i ${settings.interval}, ` +
    `${settings.seconds / 60} min log${isSmoke ? " (--smoke: times mean little)" : ""}`,
);
generatorRuns.forEach((run, index) =>
  console.log(
    `generator alone, run ${index + 1}: ${run.lines.toLocaleString("en")} lines in ${run.seconds.toFixed(3)} s ` +
      `(${run.cpuSeconds.toFixed(3)} s CPU) = ${perSecond(run.lines, run.seconds)} lines/s`,
  ),
);
console.log(report("1/4 log", short));
longRuns.forEach((run, index) => console.log(report(`full log, run ${index + 1}`, run)));
console.log(
  `parser (median of 3, full log): ${perSecond(long.lines, long.parseSeconds)} lines/s, ${perSecond(long.lines, long.parseCpuSeconds)} lines/CPU-s; ` +
    `generator alone (median of 3): ${perSecond(generator.lines, generator.seconds)} lines/s; ` +
    `parser/generator time ratio ${(long.parseSeconds / generator.seconds).toFixed(2)}; ` +
    `generator and parser together ${perSecond(long.lines, long.parseSeconds + long.generateSeconds)} lines/s`,
);
const heapRatio = long.peakHeap / short.peakHeap;
console.log(
  `memory ratio full/quarter: peak heap ${heapRatio.toFixed(2)}, peak RSS ${(long.peakRss / short.peakRss).toFixed(2)} ` +
    `(log length ratio ${(long.lines / short.lines).toFixed(2)})`,
);
// a parser that keeps what it read shows here whatever the log's length: a full GC leaves it in the heap
const leaking = [short, ...longRuns].filter((run) => run.heapRetained > 1 * MB);
if (leaking.length > 0) {
  console.error(
    `memory is not flat: ${(Math.max(...leaking.map((run) => run.heapRetained)) / MB).toFixed(2)} MB left in the heap after end() (at most 1 MB)`,
  );
  process.exit(1);
}
