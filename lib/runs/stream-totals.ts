// Each stream's totals over a run's intervals: what the run page's per-stream table shows.
// Pure: the sample writer keeps them as a run streams (so they are stored when it ends), and
// the digest of a run that ended before that reads them back from its samples.
import type { IperfStreamSample } from "@/lib/iperf";

export type StreamStat = {
  id: number;
  direction: string;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number | null;
  cwndBytes: number | null;
  jitterMs: number | null;
  lostPackets: number | null;
  packets: number | null;
};

/** What the totals read of an interval; `streams` is null for a single stream (its values are the interval's). */
export type StreamTotalsSample = {
  start: number;
  end: number;
  direction: string;
  omitted: boolean;
  streams: readonly IperfStreamSample[] | null | undefined;
};

type Running = StreamStat & { seconds: number; jitterSum: number; jitterCount: number };

export class StreamTotals {
  private readonly streams = new Map<string, Running>();

  /** Adds one interval; omitted warm-up intervals do not count, as in iperf3's own summary. */
  add(sample: StreamTotalsSample): void {
    if (sample.omitted || !sample.streams) return;
    const seconds = sample.end - sample.start;
    for (const raw of sample.streams) {
      const key = `${sample.direction}:${raw.id}`;
      let stat = this.streams.get(key);
      if (!stat) {
        stat = {
          id: raw.id,
          direction: sample.direction,
          bytes: 0,
          bitsPerSecond: 0,
          retransmits: null,
          cwndBytes: null,
          jitterMs: null,
          lostPackets: null,
          packets: null,
          seconds: 0,
          jitterSum: 0,
          jitterCount: 0,
        };
        this.streams.set(key, stat);
      }
      stat.bytes += raw.bytes;
      stat.seconds += seconds;
      if (raw.retransmits !== undefined) stat.retransmits = (stat.retransmits ?? 0) + raw.retransmits;
      if (raw.cwndBytes !== undefined) stat.cwndBytes = raw.cwndBytes;
      if (raw.jitterMs !== undefined) {
        stat.jitterSum += raw.jitterMs;
        stat.jitterCount += 1;
      }
      if (raw.lostPackets !== undefined) stat.lostPackets = (stat.lostPackets ?? 0) + raw.lostPackets;
      if (raw.packets !== undefined) stat.packets = (stat.packets ?? 0) + raw.packets;
    }
  }

  /** The totals so far: rate over the intervals counted, the mean jitter, the last window. */
  stats(): StreamStat[] {
    return [...this.streams.values()].map(({ seconds, jitterSum, jitterCount, ...stat }) => ({
      ...stat,
      bitsPerSecond: seconds > 0 ? (stat.bytes * 8) / seconds : 0,
      jitterMs: jitterCount ? jitterSum / jitterCount : null,
    }));
  }
}
