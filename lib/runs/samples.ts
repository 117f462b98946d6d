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
    private readonly options: {
      flushMs?: number;
      maxBatch?: number;
      write?: WriteRows;
      /** After a failed write: the next try (1 s). */
      retryMs?: number;
      /** At close, how many more tries a failed write gets (30: half a minute). */
      closeRetries?: number;
    } = {},
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

  /**
   * Writes the queued samples. A write that fails (the database went away: a restart of Postgres,
   * a full disk) keeps its rows, in order, at the head of the queue, and is tried again a second
   * later with whatever came meanwhile: the run goes on, its live viewers keep seeing samples, and
   * once the database answers again every sample is stored.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    if (rows.length === 0) return this.writing;
    const write = this.options.write ?? ((data) => db.sample.createMany({ data }));
    this.writing = this.writing.then(() =>
      write(rows).then(
        () => {
          this.firstError = null;
        },
        (error: unknown) => {
          this.firstError ??= error;
          // Back in the queue, in order of seq among the rows that came meanwhile.
          this.pending = rows.concat(this.pending).sort((a, b) => a.seq - b.seq);
          this.timer ??= setTimeout(() => void this.flush(), this.options.retryMs ?? 1_000);
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
    // The database still away at the end: tried again for a while before the run is stored as failed.
    for (let attempt = 1; this.pending.length > 0 && attempt <= (this.options.closeRetries ?? 30); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1_000));
      await this.flush();
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
