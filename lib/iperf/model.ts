import { z } from "zod";

export const IperfErrorKindSchema = z.enum([
  "connection-refused",
  "server-busy",
  "listener-failed",
  "control-socket-closed",
  "parameter",
  "interrupted",
  "not-found",
  "timeout",
  "unknown",
]);
export type IperfErrorKind = z.infer<typeof IperfErrorKindSchema>;

export const IperfErrorSchema = z.object({
  kind: IperfErrorKindSchema,
  /** the line(s) iperf3 or the shell printed, as printed */
  message: z.string(),
  /** what the user can do about it */
  hint: z.string(),
});
export type IperfError = z.infer<typeof IperfErrorSchema>;

/**
 * Which way the data of an interval flows: "forward" is client → server (a normal run,
 * `[TX-C]` on the client, `[RX-S]` on the server), "reverse" is server → client (`-R`,
 * `[RX-C]`, `[TX-S]`). Only bidirectional runs carry it on each interval.
 */
export const IperfFlowSchema = z.enum(["forward", "reverse"]);
export type IperfFlow = z.infer<typeof IperfFlowSchema>;

/** One stream's share of an interval. */
export const IperfStreamSampleSchema = z.object({
  /** iperf3's socket number (`[  5]`): opaque, not an index */
  id: z.number(),
  bytes: z.number(),
  bitsPerSecond: z.number(),
  retransmits: z.number().optional(),
  /** congestion window in bytes (TCP sender, where the OS reports it) */
  cwndBytes: z.number().optional(),
  jitterMs: z.number().optional(),
  lostPackets: z.number().optional(),
  packets: z.number().optional(),
  lostPercent: z.number().optional(),
});
export type IperfStreamSample = z.infer<typeof IperfStreamSampleSchema>;

/** What an interval and a side's summary both measure, over their span from `start` to `end` in seconds. */
const measuredFields = {
  start: z.number(),
  end: z.number(),
  bytes: z.number(),
  bitsPerSecond: z.number(),
  retransmits: z.number().optional(),
  jitterMs: z.number().optional(),
  lostPackets: z.number().optional(),
  /** datagrams sent (UDP sender) or expected (UDP receiver, the "Total" of Lost/Total) */
  packets: z.number().optional(),
  lostPercent: z.number().optional(),
};

/** One reporting interval: the `[SUM]` line for -P > 1, else the only stream's line. */
export const IperfIntervalSchema = z.object({
  ...measuredFields,
  /** a warm-up interval of `-O`, not part of the result */
  omitted: z.boolean(),
  direction: IperfFlowSchema.optional(),
  streams: z.array(IperfStreamSampleSchema),
});
export type IperfInterval = z.infer<typeof IperfIntervalSchema>;

/** One end of a finished test: the `sender` or `receiver` summary line. */
export const IperfSideSummarySchema = z.object(measuredFields);
export type IperfSideSummary = z.infer<typeof IperfSideSummarySchema>;

/** A side is null when this output does not report it (a server knows only its own side). */
export const IperfSummarySchema = z.object({
  sender: IperfSideSummarySchema.nullable(),
  receiver: IperfSideSummarySchema.nullable(),
});
export type IperfSummary = z.infer<typeof IperfSummarySchema>;

/**
 * CPU use of the iperf3 process on each end over the whole test (user + system time over wall
 * time, so percent of one core: a multi-threaded iperf3, 3.16+, can pass 100). The client is the
 * host that ran `iperf3 -c`, whichever way the data went. An end is null when this output does not
 * know it: a server never learns the client's figure (iperf3 prints 0), and a client learns the
 * server's only in the exchange of results that an interrupted or failed test never reaches.
 */
export const IperfCpuSchema = z.object({
  clientPercent: z.number().nullable(),
  serverPercent: z.number().nullable(),
});
export type IperfCpu = z.infer<typeof IperfCpuSchema>;

export const IperfResultSchema = z.object({
  format: z.enum(["text", "json", "json-stream"]),
  /** e.g. "3.12", when the output names it (JSON does, text does not) */
  version: z.string().optional(),
  role: z.enum(["client", "server"]),
  protocol: z.enum(["tcp", "udp"]),
  direction: z.enum(["normal", "reverse", "bidir"]),
  /** parallel streams per direction (-P) */
  streams: z.number(),
  intervals: z.array(IperfIntervalSchema),
  /** the forward (client → server) direction, or the only direction of a normal or reverse run */
  summary: IperfSummarySchema.nullable(),
  /** the reverse (server → client) direction of a bidirectional run */
  reverseSummary: IperfSummarySchema.nullable(),
  interrupted: z.boolean(),
  /** text with -V (the "CPU Utilization" line), -J and --json-stream; null when the output has none */
  cpu: IperfCpuSchema.nullable(),
  error: IperfErrorSchema.nullable(),
});
export type IperfResult = z.infer<typeof IperfResultSchema>;
export type IperfFormat = IperfResult["format"];
export type IperfRole = IperfResult["role"];
export type IperfProtocol = IperfResult["protocol"];
export type IperfDirection = IperfResult["direction"];

export type IperfStartInfo = {
  format: IperfFormat;
  role: IperfRole;
  version?: string;
  protocol?: IperfProtocol;
  direction?: IperfDirection;
  streams?: number;
  remoteHost?: string;
  remotePort?: number;
};

/** The CPU figures as one end reports them: its own ("local", `host_total`) and the other end's. */
export type IperfCpuReading = { localPercent: number; remotePercent: number };

/** What the streaming parser reports as lines arrive. */
export type IperfEvent =
  | { type: "start"; start: IperfStartInfo }
  | { type: "interval"; interval: IperfInterval }
  | { type: "summary"; summary: IperfSummary | null; reverseSummary: IperfSummary | null; interrupted: boolean }
  | { type: "error"; error: IperfError };
