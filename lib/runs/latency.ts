// Latency under load: ping lines, as they arrive, become samples on the run's time axis, and the
// samples a summary with a bufferbloat grade. Pure: no I/O, safe in the browser.
import type { BufferbloatGrade, LatencyPhase, LatencySample, LatencySummary, PingLine } from "@/lib/diagnosis/contract";

/**
 * A request still unanswered this long after it was sent is lost. Not sooner: iputils' -O and macOS
 * print "no answer" after one interval (0.2 s), and a queue under load can hold a reply for longer than
 * that; the reply then comes and counts. (Windows waits 1 s itself, `-w 1000`, and says so.)
 */
export const LOSS_TIMEOUT_MS = 2000;

// Ping's sequence numbers are 16 bits: a long run goes round (0.2 s × 65,536 is 3.6 hours).
const SEQ_RANGE = 65_536;

export type PingTimelineOptions = {
  /** seconds between requests, as the platform's ping sends them */
  intervalSeconds: number;
  parseLine: (line: string) => PingLine | null;
  /** when the traffic starts (ms, the clock of `push`): before it, pings are idle; t = 0 there */
  trafficStartMs: number;
  lossTimeoutMs?: number;
};

/**
 * Turns one ping's lines into LatencySample, each placed at the moment its request was sent.
 *
 * A reply's send time is its arrival less its round-trip time: exact up to the delay of the line on its
 * way here, which does not add up. Counting intervals from the first request would add up ping's own
 * drift (iputils at -i 0.2 sends every 204 ms or so: a second late after a minute) and would need the
 * moment of the first request, which only the replies tell. A request without a reply is placed from
 * its neighbours: the line that said it had no answer (printed as the next request goes: an interval
 * after it was sent), else between the replies around it, else an interval before the next.
 *
 * Replies of one path come back in the order of their requests, so a reply settles every earlier
 * request still open: lost. A request that a line named unanswered (iputils -O, macOS) is only lost
 * once a later reply comes or LOSS_TIMEOUT_MS has passed. Windows numbers nothing: each of its lines
 * is the next request, and its losses are final when printed. A duplicate or a reply that comes after
 * its request was counted lost is dropped: each request counts once. Requests before the first line
 * with a number cannot be told from nothing, and are not counted.
 */
export class PingTimeline {
  private readonly intervalMs: number;
  private readonly lossTimeoutMs: number;
  private readonly parseLine: (line: string) => PingLine | null;
  private readonly trafficStartMs: number;
  /** every request below this number is settled (a sample, or dropped); null before the first */
  private floor: number | null = null;
  private highest: number | null = null;
  private lastReply: { seq: number; sentMs: number } | null = null;
  /** requests a line named unanswered, with when they were sent */
  private readonly unanswered = new Map<number, number>();
  private hasEnded = false;

  constructor({ intervalSeconds, parseLine, trafficStartMs, lossTimeoutMs = LOSS_TIMEOUT_MS }: PingTimelineOptions) {
    this.intervalMs = intervalSeconds * 1000;
    this.parseLine = parseLine;
    this.trafficStartMs = trafficStartMs;
    this.lossTimeoutMs = lossTimeoutMs;
  }

  /** One line of ping's output, received at `atMs`: the samples it settles, in the order of their requests. */
  push(line: string, atMs: number): LatencySample[] {
    if (this.hasEnded) return [];
    const parsed = this.parseLine(line);
    const samples: LatencySample[] = [];
    if (parsed) {
      const isNumbered = parsed.seq !== null;
      const seq = isNumbered ? this.unwrap(parsed.seq!) : (this.highest ?? -1) + 1;
      this.floor ??= seq;
      this.highest = Math.max(this.highest ?? seq, seq);
      if (seq >= this.floor) {
        if (parsed.rttMs !== null) {
          const sentMs = atMs - parsed.rttMs;
          samples.push(...this.settleBelow(seq, { seq, sentMs }));
          samples.push(this.sample(sentMs, parsed.rttMs));
          this.floor = seq + 1;
          this.lastReply = { seq, sentMs };
        } else if (!isNumbered) {
          samples.push(this.sample(atMs - this.intervalMs, null));
          this.floor = seq + 1;
        } else if (!this.unanswered.has(seq)) {
          this.unanswered.set(seq, atMs - this.intervalMs);
        }
      }
    }
    samples.push(...this.settleTimedOut(atMs));
    return samples;
  }

  /**
   * The traffic ended at `atMs`: the requests by then unanswered for LOSS_TIMEOUT_MS are lost and
   * returned; those sent since cannot be told yet and are dropped, as is every later line.
   */
  end(atMs: number): LatencySample[] {
    if (this.hasEnded) return [];
    const samples = this.settleTimedOut(atMs);
    this.hasEnded = true;
    this.unanswered.clear();
    return samples;
  }

  // The sequence number nearest the highest seen, for a 16-bit one that went round.
  private unwrap(seq: number): number {
    if (this.highest === null || seq >= SEQ_RANGE) return seq;
    return seq + SEQ_RANGE * Math.round((this.highest - seq) / SEQ_RANGE);
  }

  // Every open request below `seq` is lost; `next` is the request known after them.
  private settleBelow(seq: number, next: { seq: number; sentMs: number }): LatencySample[] {
    const samples: LatencySample[] = [];
    for (let open = this.floor ?? seq; open < seq; open++) samples.push(this.sample(this.sentAt(open, next), null));
    for (const key of this.unanswered.keys()) if (key < seq) this.unanswered.delete(key);
    return samples;
  }

  // The newest request named unanswered and sent LOSS_TIMEOUT_MS ago is lost, and so is every one before it.
  private settleTimedOut(atMs: number): LatencySample[] {
    let newest: { seq: number; sentMs: number } | null = null;
    for (const [seq, sentMs] of this.unanswered) {
      if (sentMs <= atMs - this.lossTimeoutMs && (newest === null || seq > newest.seq)) newest = { seq, sentMs };
    }
    if (newest === null) return [];
    const samples = [...this.settleBelow(newest.seq, newest), this.sample(newest.sentMs, null)];
    this.unanswered.delete(newest.seq);
    this.floor = newest.seq + 1;
    return samples;
  }

  // When an unanswered request was sent: as its line said, else between the replies around it.
  private sentAt(seq: number, next: { seq: number; sentMs: number }): number {
    const named = this.unanswered.get(seq);
    if (named !== undefined) return named;
    const previous = this.lastReply;
    if (previous && previous.seq < seq)
      return previous.sentMs + ((seq - previous.seq) * (next.sentMs - previous.sentMs)) / (next.seq - previous.seq);
    return next.sentMs - (next.seq - seq) * this.intervalMs;
  }

  private sample(sentMs: number, rttMs: number | null): LatencySample {
    const phase: LatencyPhase = sentMs < this.trafficStartMs ? "idle" : "loaded";
    return { t: Math.round(sentMs - this.trafficStartMs) / 1000, rttMs, phase };
  }
}

/** A → F from how much the median round-trip time rose under load, in ms. */
export function bufferbloatGrade(increaseMs: number): BufferbloatGrade {
  if (increaseMs < 5) return "A";
  if (increaseMs < 30) return "B";
  if (increaseMs < 60) return "C";
  if (increaseMs < 200) return "D";
  return "F";
}

/**
 * The p-th percentile (0-100) of sorted values, interpolated between the two nearest ranks (numpy's
 * default, which Flent uses): the 50th is the usual median.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (rank - below) * (sorted[above]! - sorted[below]!);
}

// To the microsecond: what ping prints, without the float's noise.
const roundMs = (ms: number | null) => (ms === null ? null : Math.round(ms * 1000) / 1000);

/** Median and 95th percentile of each phase's replies (lost pings left out), the pings sent and lost, and the grade. */
export function summarizeLatency(samples: readonly LatencySample[]): LatencySummary {
  const rtts = (phase: LatencyPhase) =>
    samples
      .filter((sample) => sample.phase === phase && sample.rttMs !== null && Number.isFinite(sample.rttMs))
      .map((sample) => sample.rttMs!)
      .sort((a, b) => a - b);
  const idle = rtts("idle");
  const loaded = rtts("loaded");
  const idleMedianMs = roundMs(percentile(idle, 50));
  const loadedMedianMs = roundMs(percentile(loaded, 50));
  return {
    idleMedianMs,
    idleP95Ms: roundMs(percentile(idle, 95)),
    loadedMedianMs,
    loadedP95Ms: roundMs(percentile(loaded, 95)),
    grade: idleMedianMs === null || loadedMedianMs === null ? null : bufferbloatGrade(loadedMedianMs - idleMedianMs),
    sent: samples.length,
    lost: samples.filter((sample) => sample.rttMs === null).length,
  };
}
