import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { IperfInterval } from "@/lib/iperf";
import { sampleEventOf, type SampleEvent } from "./contract";

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

  constructor(
    private readonly runId: number,
    private readonly options: { flushMs?: number; maxBatch?: number; write?: WriteRows } = {},
  ) {}

  /** Queues one interval; returns it as the run's next sample event, to publish as is. */
  add(interval: IperfInterval): SampleEvent {
    const sample = sampleEventOf(this.nextSeq, interval);
    this.nextSeq += 1;
    this.pending.push(sampleRowOf(this.runId, sample));
    if (this.pending.length >= (this.options.maxBatch ?? 500)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 250);
    return sample;
  }

  get count(): number {
    return this.nextSeq;
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

  /** Writes what is left; rejects with the first write error, if any. */
  async close(): Promise<void> {
    await this.flush();
    if (this.firstError) throw this.firstError;
  }
}
