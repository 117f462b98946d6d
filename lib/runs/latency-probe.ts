import "server-only";
import { db } from "@/lib/db";
import { LATENCY_IDLE_SECONDS, type LatencySample, type LatencySummary } from "@/lib/diagnosis/contract";
import { PingTimeline, summarizeLatency } from "@/lib/runs/latency";
import type { IperfOptions } from "@/lib/iperf";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { RemoteProcess, RunEndpoint, RunRemote } from "./remote";

// Latency under load (option `latency`), as Flent's RRUL measures it: the client's host pings the
// server's link address from the start of the idle phase until the traffic ends. The pings are
// stored as they come (a failed or cancelled run keeps them), and summarised at the end.

const FLUSH_MS = 1000;
// Pings beyond the planned end: the connection set-up, the summary exchange, a slow host.
const EXTRA_SECONDS = 30;
// A run by byte count has no planned length: pings for up to an hour, stopped with the traffic.
const BYTES_RUN_SECONDS = 3600;
// The longest wait for the ping's first line, after which the idle phase counts from then anyway.
const FIRST_LINE_WAIT_MS = 20_000;

export class LatencyProbe {
  private process: RemoteProcess | null = null;
  private timeline: PingTimeline | null = null;
  private readonly waiting: Array<{ line: string; atMs: number }> = [];
  private readonly samples: LatencySample[] = [];
  private unsaved: LatencySample[] = [];
  private readonly errorLines: string[] = [];
  private flushTimer: ReturnType<typeof setInterval> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private hasEnded = false;
  /** when the traffic starts: the end of the idle phase */
  private trafficStartMs = 0;

  constructor(
    private readonly runId: number,
    private readonly remote: RunRemote,
  ) {}

  /** Starts the pings from `client` to the server's address; resolves when the idle phase is over. */
  async start(client: RunEndpoint, serverAddress: string, options: IperfOptions, signal: AbortSignal): Promise<void> {
    const seconds =
      LATENCY_IDLE_SECONDS +
      (options.bytes !== undefined ? BYTES_RUN_SECONDS : (options.duration ?? 10) + (options.omit ?? 0)) +
      EXTRA_SECONDS;
    let firstLineAtMs: number | null = null;
    let heard: () => void = () => undefined;
    const firstLine = new Promise<void>((resolve) => (heard = resolve));
    const { process, ping } = this.remote.startPing(client, serverAddress, seconds, {
      onStdoutLine: (line) => {
        firstLineAtMs ??= Date.now();
        heard();
        this.push(line);
      },
      onStderrLine: (line) => {
        if (line.trim() !== "" && this.errorLines.length < 5) this.errorLines.push(line.trim());
      },
    });
    this.process = process;
    process.done.catch((error: unknown) =>
      this.errorLines.push(error instanceof Error ? error.message.split("\n")[0]! : String(error)),
    );
    const support = await ping;
    // The idle phase counts from the ping's first line, not from the request: the ping's SSH session
    // can take seconds to open (a login shell's start-up on a loaded host), and the idle pings would be fewer.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FIRST_LINE_WAIT_MS);
      const done = () => (clearTimeout(timer), resolve());
      void firstLine.then(done);
      process.done.then(done, done);
      signal.addEventListener("abort", done, { once: true });
    });
    this.trafficStartMs = (firstLineAtMs ?? Date.now()) + LATENCY_IDLE_SECONDS * 1000;
    this.timeline = new PingTimeline({
      intervalSeconds: support.intervalSeconds,
      parseLine: support.parseLine,
      trafficStartMs: this.trafficStartMs,
    });
    for (const { line, atMs } of this.waiting.splice(0)) this.take(this.timeline.push(line, atMs));
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_MS);
    // The idle phase: nothing but pings until the traffic starts (a cancel ends the wait).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, this.trafficStartMs - Date.now()));
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /** The traffic has ended: later pings are not part of the run. */
  async end(): Promise<void> {
    if (this.hasEnded) return;
    this.hasEnded = true;
    if (this.timeline) this.take(this.timeline.end(Date.now()));
    await this.process?.stop();
  }

  /**
   * Stores what is left and gives the summary, or null when no ping was sent; `problem` says why
   * there are none (ping missing on the host, refused), for the run's record.
   */
  async close(): Promise<{ summary: LatencySummary | null; problem: string | null }> {
    await this.end();
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flush();
    const summary = this.samples.length > 0 ? summarizeLatency(this.samples) : null;
    const problem =
      summary === null
        ? `latency: no ping was answered or sent${this.errorLines.length > 0 ? ` (${this.errorLines.join("; ")})` : ""}`
        : null;
    return { summary, problem };
  }

  private push(line: string): void {
    const atMs = Date.now();
    if (this.hasEnded) return;
    if (!this.timeline) this.waiting.push({ line, atMs });
    else this.take(this.timeline.push(line, atMs));
  }

  private take(samples: LatencySample[]): void {
    this.samples.push(...samples);
    this.unsaved.push(...samples);
  }

  /** Writes the pings received since the last write; writes never overlap. */
  private flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.unsaved.length === 0) return;
      const batch = this.unsaved;
      this.unsaved = [];
      const first = this.samples.length - batch.length;
      await db.latencySample
        .createMany({
          data: batch.map((sample, index) => ({
            runId: this.runId,
            seq: first + index,
            t: sample.t,
            rttMs: sample.rttMs,
            phase: sample.phase,
          })),
        })
        .catch((error: unknown) =>
          console.error(
            `[wirespeed] run ${this.runId}: could not store pings: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
          ),
        );
    });
    return this.writing;
  }
}

/** The run's latency columns from a summary. */
export function latencyColumns(summary: LatencySummary | null): Prisma.RunUpdateInput {
  if (!summary) return {};
  return {
    latencyIdleMedianMs: summary.idleMedianMs,
    latencyIdleP95Ms: summary.idleP95Ms,
    latencyLoadedMedianMs: summary.loadedMedianMs,
    latencyLoadedP95Ms: summary.loadedP95Ms,
    latencyGrade: summary.grade,
    latencySent: summary.sent,
    latencyLost: summary.lost,
  };
}
