import { describe, expect, it } from "vitest";
import {
  ExperimentSampleEventSchema,
  LiveExperimentSeries,
  LiveStepSeries,
  type ExperimentSampleEvent,
} from "./live-series";

function sample(
  runId: number,
  end: number,
  bitsPerSecond: number,
  extra: Partial<ExperimentSampleEvent> = {},
): ExperimentSampleEvent {
  return {
    seq: Math.round(end) - 1,
    start: end - 1,
    end,
    direction: "forward",
    bytes: bitsPerSecond / 8,
    bitsPerSecond,
    retransmits: 0,
    cwndBytes: null,
    jitterMs: null,
    lostPackets: null,
    packets: null,
    omitted: false,
    streams: null,
    runId,
    linkId: 1,
    channel: null,
    ...extra,
  };
}

describe("LiveStepSeries", () => {
  it("gives one line per run and their total, with intervals that end within 0.05 s as one point", () => {
    const series = new LiveStepSeries();
    // Two channels of one link, started 30 ms apart: their interval ends differ by as much.
    series.add(sample(8, 1.03, 3e9, { channel: 2 }));
    series.add(sample(7, 1.0, 4e9, { channel: 1 }));
    series.add(sample(7, 2.0, 4.5e9, { channel: 1 }));
    series.add(sample(8, 2.03, 3.5e9, { channel: 2 }));
    series.add(sample(7, 3.0, 4.4e9, { channel: 1 }));
    const { points, lines, sampleCount, lastEnd } = series.snapshot();
    expect(lines).toEqual([
      { key: "s0", runId: 7, linkId: 1, channel: 1 },
      { key: "s1", runId: 8, linkId: 1, channel: 2 },
    ]);
    expect(points.map((point) => [point.t, point.bps, point.s0, point.s1])).toEqual([
      [1, 7e9, 4e9, 3e9],
      [2, 8e9, 4.5e9, 3.5e9],
      // The second channel's third interval has not come yet: the total is what has.
      [3, 4.4e9, 4.4e9, undefined],
    ]);
    expect(points.every((point) => point.reverseBps === null)).toBe(true);
    expect(sampleCount).toBe(5);
    expect(lastEnd).toBe(3);
  });

  it("totals the second direction of --bidir runs apart from the first", () => {
    const series = new LiveStepSeries();
    series.add(sample(1, 1, 9e8));
    series.add(sample(1, 1, 8e8, { direction: "reverse" }));
    const [point] = series.snapshot().points;
    expect(point).toMatchObject({ t: 1, bps: 9e8, reverseBps: 8e8, s0: 9e8 });
  });

  it("orders lines by link when there are no channels, and keeps a warm-up point marked", () => {
    const series = new LiveStepSeries();
    series.add(sample(30, 1, 1e9, { linkId: 9, omitted: true }));
    series.add(sample(31, 1, 2e9, { linkId: 4, omitted: true }));
    series.add(sample(31, 2, 2e9, { linkId: 4 }));
    const { lines, points } = series.snapshot();
    expect(lines.map((line) => line.linkId)).toEqual([4, 9]);
    expect(points.map((point) => point.omitted)).toEqual([true, false]);
  });

  it("thins a long step to the display limit, keeping the total as the mean", () => {
    const series = new LiveStepSeries();
    for (let index = 1; index <= 40; index += 1)
      series.add(sample(1, index / 10, index % 2 === 0 ? 2e9 : 1e9, { start: (index - 1) / 10 }));
    const { points, sampleCount } = series.snapshot(10);
    expect(points).toHaveLength(10);
    expect(points.every((point) => point.bps === 1.5e9)).toBe(true);
    expect(sampleCount).toBe(40);
  });

  it("forgets runs that are not kept", () => {
    const series = new LiveStepSeries();
    series.add(sample(1, 1, 1e9));
    series.add(sample(2, 2, 2e9));
    series.retain(new Set([2]));
    const { lines, points } = series.snapshot();
    expect(lines.map((line) => line.runId)).toEqual([2]);
    expect(points.map((point) => point.t)).toEqual([2]);
  });
});

describe("LiveExperimentSeries", () => {
  it("starts over when the next step begins, and drops late samples of the step before", () => {
    const live = new LiveExperimentSeries();
    live.noteStep({ index: 0, runIds: [1], status: "running" });
    expect(live.add(sample(1, 1, 1e9))).toBe(true);
    live.noteStep({ index: 0, runIds: [1], status: "succeeded" });
    live.noteStep({ index: 1, runIds: [2], status: "running" });
    expect(live.currentStep).toBe(1);
    expect(live.snapshot().sampleCount).toBe(0);
    expect(live.add(sample(1, 2, 1e9))).toBe(false);
    expect(live.add(sample(2, 1, 2e9))).toBe(true);
    expect(live.snapshot().lines.map((line) => line.runId)).toEqual([2]);
  });

  it("draws samples of a run whose step is not known yet, and keeps them when their step is announced", () => {
    const live = new LiveExperimentSeries();
    live.noteStep({ index: 0, runIds: [1], status: "succeeded" });
    live.noteStep({ index: 1, runIds: [], status: "running" });
    // The step's runs were created after its event: their samples come first.
    live.add(sample(5, 1, 1e9, { linkId: 1 }));
    live.add(sample(6, 1, 1e9, { linkId: 2 }));
    live.noteStep({ index: 1, runIds: [5, 6], status: "running" });
    expect(live.snapshot().lines.map((line) => line.runId)).toEqual([5, 6]);
    // The next step is announced before its runs are known: the old runs go.
    live.noteStep({ index: 2, runIds: [], status: "running" });
    expect(live.snapshot().lines).toEqual([]);
  });

  it("moves on by itself when a sample comes from a run of a later step", () => {
    const live = new LiveExperimentSeries();
    live.noteStep({ index: 0, runIds: [1], status: "running" });
    live.noteStep({ index: 1, runIds: [2], status: "pending" });
    live.add(sample(1, 1, 1e9));
    expect(live.currentStep).toBe(0);
    live.add(sample(2, 1, 2e9));
    expect(live.currentStep).toBe(1);
    expect(live.snapshot().lines.map((line) => line.runId)).toEqual([2]);
  });
});

describe("ExperimentSampleEventSchema", () => {
  it("reads a run sample with its run, link and channel, the channel null when left out", () => {
    const { channel, ...withoutChannel } = sample(3, 1, 1e9, { channel: 4 });
    expect(ExperimentSampleEventSchema.parse({ ...withoutChannel, channel }).channel).toBe(4);
    expect(ExperimentSampleEventSchema.parse(withoutChannel).channel).toBeNull();
    expect(ExperimentSampleEventSchema.safeParse({ ...withoutChannel, runId: "3" }).success).toBe(false);
  });
});
