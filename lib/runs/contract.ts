// The run contract: what every part of Wirespeed agrees a run is. The engine writes
// it, the database keeps it, the SSE stream and the REST API send it, pages and the
// browser's live chart read it. Pure: no I/O, safe in the browser.
import { z } from "zod";
import { IperfFlowSchema, IperfStreamSampleSchema, type IperfInterval } from "@/lib/iperf/model";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf/options";

// ---------------------------------------------------------------- statuses

/** A run that has not ended: it may still change, and views keep asking. */
// `listening`: a device's run (lib/runs/listen.ts) waits for the device to connect.
export const ACTIVE_RUN_STATUSES = ["queued", "preparing", "listening", "running"] as const;
/** A run that has ended: it never changes again. */
export const FINAL_RUN_STATUSES = ["succeeded", "failed", "cancelled", "interrupted"] as const;
export const RUN_STATUSES = [...ACTIVE_RUN_STATUSES, ...FINAL_RUN_STATUSES] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type ActiveRunStatus = (typeof ACTIVE_RUN_STATUSES)[number];

export function isActiveStatus(status: string): status is ActiveRunStatus {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

export function isFinalStatus(status: string): boolean {
  return (FINAL_RUN_STATUSES as readonly string[]).includes(status);
}

// ---------------------------------------------------------------- direction and roles

// Data flows from the iperf3 client to the server unless reversed, so `direction` (which
// way over the link) and `clientSide` (which end runs the client) together give -R or --bidir.
export const RUN_DIRECTIONS = ["a-to-b", "b-to-a", "bidir"] as const;
export type RunDirection = (typeof RUN_DIRECTIONS)[number];
export const CLIENT_SIDES = ["a", "b"] as const;
export type ClientSide = (typeof CLIENT_SIDES)[number];

/** The client side of a stored run: anything but "b" is the default, "a". */
export function clientSideOf(value: string | null | undefined): ClientSide {
  return value === "b" ? "b" : "a";
}

/** -R and --bidir from the direction over the link and the side that runs the client. */
export function directionFlags(direction: RunDirection, clientSide: ClientSide): { reverse: boolean; bidir: boolean } {
  if (direction === "bidir") return { reverse: false, bidir: true };
  const clientSends = (direction === "a-to-b") === (clientSide === "a");
  return { reverse: !clientSends, bidir: false };
}

/** The direction over the link of a stored run, from its flags and client side. */
export function directionOf(options: { reverse?: boolean; bidir?: boolean }, clientSide: ClientSide): RunDirection {
  if (options.bidir) return "bidir";
  const clientSends = !options.reverse;
  return (clientSide === "a") === clientSends ? "a-to-b" : "b-to-a";
}

// ---------------------------------------------------------------- stored options

const STORED_OPTION_DEFAULTS = {
  protocol: "tcp",
  parallel: 1,
  reverse: false,
  bidir: false,
  interval: 1,
  zerocopy: false,
} as const;

/**
 * The options of a stored run, never throwing: a run always passed the schema of its day,
 * and a later, stricter schema must not hide it from the history or break its page.
 * What the schema no longer accepts is kept as stored, over the defaults.
 */
export function parseStoredOptions(value: unknown): IperfOptions {
  const parsed = IperfOptionsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const stored = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  return { ...STORED_OPTION_DEFAULTS, ...stored } as IperfOptions;
}

// ---------------------------------------------------------------- proof of the path

/**
 * Whether a test's bytes went through the link's NICs (lib/runs/path-check.ts): `on-link` when the
 * sending NIC's counter rose by at least 90% of the bytes iperf3 sent, `off-link` below 50% (they took
 * another route), `unclear` between, `unknown` where a counter could not be read.
 */
export const PATH_VERDICTS = ["on-link", "unclear", "off-link", "unknown"] as const;
export type PathVerdict = (typeof PATH_VERDICTS)[number];

/** One end's NIC and how much its counters rose during the test; null rises where they could not be read. */
export const PathEndSchema = z.object({
  nic: z.string(),
  txBytes: z.number().nullable(),
  rxBytes: z.number().nullable(),
});
export type PathEnd = z.infer<typeof PathEndSchema>;

/**
 * A run's proof of the path, stored with it (Run.pathCheck; null: not checked). An end is null where
 * nothing can be read (a device, an iperf3 server Wirespeed does not manage). `iperfBytes` is what
 * iperf3 sent (both directions of --bidir); `sender` and `percent` are the end whose NIC decided the
 * verdict and the share of the bytes it was sent that its counter rose by.
 */
export const PathCheckSchema = z.object({
  client: PathEndSchema.nullable(),
  server: PathEndSchema.nullable(),
  iperfBytes: z.number().nullable(),
  verdict: z.enum(PATH_VERDICTS),
  sender: z.enum(["client", "server"]).nullable(),
  percent: z.number().nullable(),
});
export type PathCheck = z.infer<typeof PathCheckSchema>;

/** A stored path check, or null for a run from before them (or a value that is not one). */
export function parseStoredPathCheck(value: unknown): PathCheck | null {
  const parsed = PathCheckSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

// ---------------------------------------------------------------- samples

/**
 * One interval of a run, as the live stream sends it and the database replays it: the
 * same shape either way (a viewer that joins mid-run gets both).
 */
export const SampleEventSchema = z.object({
  /** 0, 1, 2 … in arrival order within the run */
  seq: z.number().int().nonnegative(),
  start: z.number(),
  end: z.number(),
  /** forward: client → server; reverse: the second direction of a --bidir run */
  direction: IperfFlowSchema,
  bytes: z.number(),
  bitsPerSecond: z.number(),
  retransmits: z.number().nullable(),
  /** the sum of the streams' congestion windows (TCP sender, where the OS reports it) */
  cwndBytes: z.number().nullable(),
  jitterMs: z.number().nullable(),
  lostPackets: z.number().nullable(),
  packets: z.number().nullable(),
  /** a warm-up interval of -O, not part of the result */
  omitted: z.boolean(),
  /** per-stream values when there are several streams, else null */
  streams: z.array(IperfStreamSampleSchema).nullable(),
});
export type SampleEvent = z.infer<typeof SampleEventSchema>;

/** A parsed interval as the run's sample number `seq`. */
export function sampleEventOf(seq: number, interval: IperfInterval): SampleEvent {
  const cwnds = interval.streams.map((stream) => stream.cwndBytes).filter((cwnd): cwnd is number => cwnd !== undefined);
  return {
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
    // One stream's values are the interval's own: keeping them would double the row.
    streams: interval.streams.length > 1 ? interval.streams : null,
  };
}

/**
 * A stored Sample row as a sample event. SQLite gives back what it was given, but the
 * JSON column may come as text from other drivers, and old rows have loose directions.
 */
export function sampleEventFromRow(
  row: Omit<SampleEvent, "direction" | "streams"> & { direction: string; streams: unknown },
): SampleEvent {
  const streams = typeof row.streams === "string" ? (JSON.parse(row.streams) as unknown) : row.streams;
  return {
    ...row,
    direction: row.direction === "reverse" ? "reverse" : "forward",
    streams: Array.isArray(streams) ? (streams as SampleEvent["streams"]) : null,
  };
}
