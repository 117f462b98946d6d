import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { IperfInterval } from "@/lib/iperf";

/** One parsed interval as a Sample row; per-stream values are kept only when there are several streams. */
export function toSampleRow(runId: number, seq: number, interval: IperfInterval): Prisma.SampleCreateManyInput {
  const cwnds = interval.streams.map((stream) => stream.cwndBytes).filter((cwnd): cwnd is number => cwnd !== undefined);
  return {
    runId,
    seq,
    start: interval.start,
    end: interval.end,
    direction: interval.direction ?? "forward",
    bytes: interval.bytes,
    bitsPerSecond: interval.bitsPerSecond,
    retransmits: interval.retransmits ?? null,
    // The interval's window is the sum of its streams' windows, as iperf3 reports per stream.
    cwndBytes: cwnds.length > 0 ? cwnds.reduce((sum, cwnd) => sum + cwnd, 0) : null,
    jitterMs: interval.jitterMs ?? null,
    lostPackets: interval.lostPackets ?? null,
    packets: interval.packets ?? null,
    omitted: interval.omitted,
    streams: interval.streams.length > 1 ? (interval.streams as Prisma.InputJsonValue) : undefined,
  };
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

  /** Queues one interval; returns its sequence number. */
  add(interval: IperfInterval): number {
    const seq = this.nextSeq;
    this.nextSeq += 1;
    this.pending.push(toSampleRow(this.runId, seq, interval));
    if (this.pending.length >= (this.options.maxBatch ?? 500)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 250);
    return seq;
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
