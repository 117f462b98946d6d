import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { IperfInterval } from "@/lib/iperf";
import { sampleEventOf, type SampleEvent } from "./contract";
import { storeRunDigest } from "./digest";
import { StreamTotals, type StreamStat } from "./stream-totals";

/** One parsed interval as a Sample row: the sample event of the run contract, under its run. */
export function toSampleRow(runId: number, seq: number, interval: IperfInterval): Prisma.SampleCreateManyInput {
  return sampleRowOf(runId, sampleEventOf(seq, interval));
}

function sampleRowOf(runId: number, sample: SampleEvent): Prisma.SampleCreateManyInput {
  return { runId, ...sample, streams: sample.streams ? (sample.streams as Prisma.InputJsonValue) : undefined };
}

type WriteRows = (rows: Prisma.SampleCreateManyInput[]) => Promise<unknown>;

/**
 * Persists a run's samples in batches as they arrive: one INSERT per batch, not
 * per interval, so `-P 32 -i 0.1` costs a few writes a second. Writes are
 * serialized; `close()` waits for the last one, so samples are kept on failure too.
 */
export class SampleWriter {
  private pending: Prisma.SampleCreateManyInput[] = [];
  private nextSeq = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private firstError: unknown = null;
  private readonly totals = new StreamTotals();

  constructor(
    private readonly runId: number,
    private readonly options: { flushMs?: number; maxBatch?: number; write?: WriteRows } = {},
  ) {}

  /** Queues one interval; returns it as the run's next sample event, to publish as is. */
  add(interval: IperfInterval): SampleEvent {
    const sample = sampleEventOf(this.nextSeq, interval);
    this.nextSeq += 1;
    this.totals.add(sample);
    this.pending.push(sampleRowOf(this.runId, sample));
    if (this.pending.length >= (this.options.maxBatch ?? 500)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 250);
    return sample;
  }

  get count(): number {
    return this.nextSeq;
  }

  /** Each stream's totals over the intervals so far: kept as they arrive, so that the end of a long run does not read them back. */
  streamStats(): StreamStat[] {
    return this.totals.stats();
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    if (rows.length === 0) return this.writing;
    const write = this.options.write ?? ((data) => db.sample.createMany({ data }));
    this.writing = this.writing.then(() =>
      write(rows).then(
        () => undefined,
        (error: unknown) => {
          this.firstError ??= error;
        },
      ),
    );
    return this.writing;
  }

  /**
   * Writes what is left, then the run's digest (its thinned chart points and these stream
   * totals, which its page reads once it has ended); rejects with the first write error, if any.
   * A digest that cannot be stored is not the run's failure: its page's first view stores it.
   */
  async close(): Promise<void> {
    await this.flush();
    if (this.firstError) throw this.firstError;
    // A writer given its own `write` (tests) has no run in the database.
    if (this.options.write) return;
    await storeRunDigest(this.runId, this.streamStats()).catch((error: unknown) => {
      console.error(
        `[wirespeed] run ${this.runId}: could not store its digest: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    });
  }
}
