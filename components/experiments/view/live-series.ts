// The live chart of an experiment's current step: the sample events of the step's runs (one
// run per link or channel) merged into points with one value per run and their total. Pure,
// so that the merging is tested without a browser.
import { z } from "zod";
import { SampleEventSchema } from "@/lib/runs/contract";
import { downsample, type SeriesPoint } from "@/lib/runs/series";

/** `sample` on `GET /api/experiments/:id/events`: a run's sample event, with whose it is. */
export const ExperimentSampleEventSchema = SampleEventSchema.extend({
  runId: z.number().int(),
  linkId: z.number().int(),
  channel: z
    .number()
    .int()
    .nullable()
    .optional()
    .transform((channel) => channel ?? null),
});
export type ExperimentSampleEvent = z.infer<typeof ExperimentSampleEventSchema>;

/** One run of the step on the chart: its values are `point[key]`. */
export type LiveLine = { key: `s${number}`; runId: number; linkId: number; channel: number | null };

/**
 * Points as the interval chart reads them: `bps` is the total of the runs' forward rates,
 * `reverseBps` that of the second direction of --bidir runs, `s<i>` the forward rate of line i.
 */
export type LiveStep = { points: SeriesPoint[]; lines: LiveLine[]; sampleCount: number; lastEnd: number };

type Bucket = { t: number; omitted: boolean; forward: Map<number, number>; reverse: Map<number, number> };

// Runs of one step start together (within 200 ms), so their intervals end together too:
// ends within a tenth of a second are the same moment.
function bucketKeyOf(end: number): number {
  return Math.round(end * 10);
}

/** Collects the samples of one step's runs, and draws them as one chart. */
export class LiveStepSeries {
  private readonly buckets = new Map<number, Bucket>();
  private readonly runs = new Map<number, { linkId: number; channel: number | null; samples: number }>();

  add(sample: ExperimentSampleEvent): void {
    const key = bucketKeyOf(sample.end);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { t: key / 10, omitted: sample.omitted, forward: new Map(), reverse: new Map() };
      this.buckets.set(key, bucket);
    }
    bucket.omitted &&= sample.omitted;
    (sample.direction === "reverse" ? bucket.reverse : bucket.forward).set(sample.runId, sample.bitsPerSecond);
    const run = this.runs.get(sample.runId) ?? { linkId: sample.linkId, channel: sample.channel, samples: 0 };
    run.samples += 1;
    this.runs.set(sample.runId, run);
  }

  has(runId: number): boolean {
    return this.runs.has(runId);
  }

  get runIds(): number[] {
    return [...this.runs.keys()];
  }

  /** Keeps only these runs: the step turned out to be another one than they were drawn in. */
  retain(runIds: ReadonlySet<number>): void {
    for (const runId of this.runs.keys()) if (!runIds.has(runId)) this.runs.delete(runId);
    for (const [key, bucket] of this.buckets) {
      for (const runId of [...bucket.forward.keys()]) if (!runIds.has(runId)) bucket.forward.delete(runId);
      for (const runId of [...bucket.reverse.keys()]) if (!runIds.has(runId)) bucket.reverse.delete(runId);
      if (bucket.forward.size === 0 && bucket.reverse.size === 0) this.buckets.delete(key);
    }
  }

  /** The chart now: lines in channel order (or link, then run order), points in time order, thinned for display. */
  snapshot(limit?: number): LiveStep {
    const ordered = [...this.runs.entries()].sort(
      ([runA, a], [runB, b]) => (a.channel ?? 0) - (b.channel ?? 0) || a.linkId - b.linkId || runA - runB,
    );
    const lines: LiveLine[] = ordered.map(([runId, run], index) => ({
      key: `s${index}`,
      runId,
      linkId: run.linkId,
      channel: run.channel,
    }));
    const points = [...this.buckets.values()]
      .sort((a, b) => a.t - b.t)
      .map((bucket) => {
        const point: SeriesPoint = {
          t: bucket.t,
          bps: sumOf(bucket.forward),
          reverseBps: sumOf(bucket.reverse),
          retransmits: null,
          jitterMs: null,
          lostPercent: null,
          omitted: bucket.omitted,
        };
        for (const line of lines) point[line.key] = bucket.forward.get(line.runId);
        return point;
      });
    const sampleCount = [...this.runs.values()].reduce((sum, run) => sum + run.samples, 0);
    return { points: downsample(points, limit), lines, sampleCount, lastEnd: points.at(-1)?.t ?? 0 };
  }
}

function sumOf(values: Map<number, number>): number | null {
  if (values.size === 0) return null;
  let sum = 0;
  for (const value of values.values()) sum += value;
  return sum;
}

/**
 * Which step a sample belongs to is known from the experiment's steps (their run ids), which
 * may arrive after the step's first samples: a run not known yet is drawn in the current step.
 */
export class LiveExperimentSeries {
  private step = -1;
  private series = new LiveStepSeries();
  private readonly stepOfRun = new Map<number, number>();

  get currentStep(): number {
    return this.step;
  }

  /** What the experiment says of a step: its runs, and whether it has begun. */
  noteStep(step: { index: number; runIds: number[]; status: string }): void {
    for (const runId of step.runIds) this.stepOfRun.set(runId, step.index);
    if (step.status !== "pending" && step.index > this.step) this.moveTo(step.index);
  }

  /** Adds a sample of the current step; those of steps already left are dropped. */
  add(sample: ExperimentSampleEvent): boolean {
    const step = this.stepOfRun.get(sample.runId);
    if (step !== undefined && step < this.step) return false;
    if (step !== undefined && step > this.step) this.moveTo(step);
    this.series.add(sample);
    return true;
  }

  snapshot(limit?: number): LiveStep {
    return this.series.snapshot(limit);
  }

  private moveTo(index: number): void {
    this.step = index;
    // Runs drawn before their step was known stay if they are this step's; a run still unknown
    // once its step is announced with its runs belongs to the step before.
    this.series.retain(new Set(this.series.runIds.filter((runId) => this.stepOfRun.get(runId) === index)));
  }
}
