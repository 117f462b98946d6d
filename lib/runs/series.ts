// Turns run samples into chart points and thins them for display. Pure: used by the
// server (finished runs) and the browser (live runs). Exports keep every sample.
import { lossPercent } from "@/lib/iperf/units";
import type { SampleEvent } from "./contract";

/** One interval on the chart: both directions of a bidirectional run share it. `s<i>`: stream i's bits/s. */
export type SeriesPoint = {
  t: number;
  bps: number | null;
  reverseBps: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPercent: number | null;
  omitted: boolean;
  [stream: `s${number}`]: number | undefined;
};

/** At most this many thin per-stream lines: beyond, the chart would be a smear. */
export const MAX_STREAM_LINES = 32;
/** Points drawn per line: enough for any screen width, few enough for SVG to stay fast. */
export const DISPLAY_POINTS = 600;

/** What the chart reads of a sample event. */
export type ChartSample = Pick<
  SampleEvent,
  "end" | "direction" | "bitsPerSecond" | "retransmits" | "jitterMs" | "lostPackets" | "packets" | "omitted" | "streams"
>;

/** Builds points incrementally; stream ids (iperf3's socket numbers) become indexes 0, 1, 2 … */
export class SeriesBuilder {
  readonly points: SeriesPoint[] = [];
  private readonly streamIndex = new Map<number, number>();

  get streamCount(): number {
    return Math.min(this.streamIndex.size, MAX_STREAM_LINES);
  }

  add(sample: ChartSample): void {
    const isReverse = sample.direction === "reverse";
    const last = this.points.at(-1);
    // The second direction of a --bidir interval joins the point of its first direction.
    const point: SeriesPoint =
      last && Math.abs(last.t - sample.end) < 1e-6 && (isReverse ? last.reverseBps === null : last.bps === null)
        ? last
        : {
            t: sample.end,
            bps: null,
            reverseBps: null,
            retransmits: null,
            jitterMs: null,
            lostPercent: null,
            omitted: Boolean(sample.omitted),
          };
    if (point !== last) this.points.push(point);
    if (isReverse) point.reverseBps = sample.bitsPerSecond;
    else {
      point.bps = sample.bitsPerSecond;
      for (const stream of sample.streams ?? []) {
        let index = this.streamIndex.get(stream.id);
        if (index === undefined) {
          index = this.streamIndex.size;
          this.streamIndex.set(stream.id, index);
        }
        if (index < MAX_STREAM_LINES) point[`s${index}`] = stream.bitsPerSecond;
      }
    }
    if (sample.retransmits != null) point.retransmits = (point.retransmits ?? 0) + sample.retransmits;
    if (sample.jitterMs != null) point.jitterMs = Math.max(point.jitterMs ?? 0, sample.jitterMs);
    if (sample.lostPackets != null && sample.packets)
      point.lostPercent = lossPercent(sample.lostPackets, sample.packets) ?? null;
  }
}

export function buildSeries(samples: Iterable<ChartSample>): { points: SeriesPoint[]; streamCount: number } {
  const builder = new SeriesBuilder();
  for (const sample of samples) builder.add(sample);
  return { points: builder.points, streamCount: builder.streamCount };
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
}

function max(values: number[]): number | null {
  return values.length ? Math.max(...values) : null;
}

/**
 * At most `limit` points: consecutive points are averaged in equal buckets (rates), while
 * retransmits, jitter and loss keep the bucket's worst value so that a spike stays visible.
 */
export function downsample(points: SeriesPoint[], limit: number = DISPLAY_POINTS): SeriesPoint[] {
  if (points.length <= limit) return points;
  const size = Math.ceil(points.length / limit);
  const result: SeriesPoint[] = [];
  for (let from = 0; from < points.length; from += size) {
    const bucket = points.slice(from, from + size);
    const pick = (key: keyof SeriesPoint) =>
      bucket.map((point) => point[key]).filter((value): value is number => typeof value === "number");
    const point: SeriesPoint = {
      t: bucket.at(-1)!.t,
      bps: mean(pick("bps")),
      reverseBps: mean(pick("reverseBps")),
      retransmits: max(pick("retransmits")),
      jitterMs: max(pick("jitterMs")),
      lostPercent: max(pick("lostPercent")),
      omitted: bucket.every((entry) => entry.omitted),
    };
    for (let index = 0; index < MAX_STREAM_LINES; index += 1) {
      const values = pick(`s${index}`);
      if (values.length === 0) break;
      point[`s${index}`] = mean(values) ?? undefined;
    }
    result.push(point);
  }
  return result;
}
