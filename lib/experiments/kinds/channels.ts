// Channels: one link, K iperf3 server/client pairs at once on K ports, each with its own -P.
// Before 3.16 one iperf3 process is one thread, so 40-100G links are measured this way and
// added up (a table per channel with a sum row).
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf/options";
import { lossPercent } from "@/lib/iperf/units";
import type { RunRequest } from "@/lib/runs/request";
import {
  CHANNELS,
  type ChannelRow,
  type ChannelsResult,
  type PlanOf,
  type RunOutcome,
  type StepSpec,
} from "../contract";
import { exactlyOneLink, lineRateOf, linkOf, mean, otherSide, percentOf, present, sum, wholeNumber } from "./figures";
import { refuseExternalServers } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

const ChannelsFieldsSchema = z.strictObject({
  channels: wholeNumber("channels", CHANNELS.min, CHANNELS.max, " iperf3 pairs"),
  affinity: z.boolean({ error: "affinity must be true or false" }).default(false),
});

/**
 * Channel `channel`'s options: the base, pinned with -A to core channel-1 on both ends when
 * asked (whether the hosts' iperf3 can is checked where the argv is built).
 */
export function channelOptions(base: RunRequest, channel: number, affinity: boolean): IperfOptions {
  return affinity
    ? IperfOptionsSchema.parse({ ...base.options, affinity: `${channel - 1},${channel - 1}` })
    : base.options;
}

function channelSteps(plan: PlanOf<"channels">, base: RunRequest): StepSpec[] {
  const linkId = plan.linkIds[0]!;
  const runs = Array.from({ length: plan.channels }, (_, index) => ({
    linkId,
    options: channelOptions(base, index + 1, plan.affinity),
    clientSide: base.clientSide,
    channel: index + 1,
  }));
  return [{ label: `${plan.channels} channels`, tags: {}, runs }];
}

/** The channels' rates added up interval by interval, as far as every channel reported. */
function summedIntervals(runs: readonly RunOutcome[]): ChannelsResult["intervals"] {
  const reporting = runs.filter((run) => run.intervals.length > 0);
  if (reporting.length === 0) return [];
  const count = Math.min(...reporting.map((run) => run.intervals.length));
  return Array.from({ length: count }, (_, index) => ({
    end: Math.max(...reporting.map((run) => run.intervals[index]!.end)),
    bitsPerSecond: reporting.reduce((total, run) => total + run.intervals[index]!.bitsPerSecond, 0),
  }));
}

/** Loss over all channels: every lost datagram over every datagram, computed as iperf3 computes one channel's. */
function overallLoss(runs: readonly RunOutcome[]): number | null {
  const counted = runs.filter((run) => run.lostPackets !== null && run.packets !== null);
  const lost = sum(counted.map((run) => run.lostPackets));
  const packets = sum(counted.map((run) => run.packets));
  return lost === null || packets === null ? null : (lossPercent(lost, packets) ?? null);
}

export const channelsKind: KindDefinition<"channels"> = {
  kind: "channels",
  title: "Channels",
  defaultName: (plan) => `${plan.channels} channels`,
  fieldsSchema: ChannelsFieldsSchema,
  baseOptions: (plan) => plan.options,
  check(plan, base, links) {
    const errors: FieldError[] = [
      ...exactlyOneLink(plan.linkIds, "channels experiment"),
      ...refuseExternalServers(links, "channels need a server of their own each, all at once"),
    ];
    if (base.options.port !== undefined) {
      errors.push({
        field: "options.port",
        message: "must be left out: each channel takes a port of its own from the server's range",
      });
    }
    const link = linkOf(links, plan.linkIds[0]);
    if (link) {
      const serverSide = otherSide(base.clientSide);
      const range = link.portRanges[serverSide];
      const ports = range.max - range.min + 1;
      if (ports < plan.channels) {
        errors.push({
          field: "channels",
          message:
            `${plan.channels} channels need ${plan.channels} ports, ` +
            `but the server's end (${serverSide}) has ${range.min}-${range.max}, ` +
            `${ports} port${ports === 1 ? "" : "s"}: widen its host's port range or take fewer channels`,
        });
      }
    }
    return errors;
  },
  maxRuns: (plan) => plan.channels,
  maxSteps: () => 1,
  steps: (plan, base) => channelSteps(plan, base),
  nextStep: (plan, base, _links, done) => nextOfSteps(channelSteps(plan, base), done),
  result(_plan, _links, done): ChannelsResult {
    const runs = done.at(-1)?.runs ?? [];
    const rows: ChannelRow[] = runs
      .map((run, index) => ({
        channel: run.channel ?? index + 1,
        port: run.port,
        runId: run.runId,
        sentBitsPerSecond: run.sentBitsPerSecond,
        receivedBitsPerSecond: run.receivedBitsPerSecond,
        retransmits: run.retransmits,
        streams: run.streams,
        jitterMs: run.jitterMs,
        lostPercent: run.lostPercent,
      }))
      .sort((a, b) => a.channel - b.channel);
    return {
      rows,
      sum: {
        sentBitsPerSecond: sum(rows.map((row) => row.sentBitsPerSecond)),
        receivedBitsPerSecond: sum(rows.map((row) => row.receivedBitsPerSecond)),
        retransmits: sum(rows.map((row) => row.retransmits)),
        jitterMs: mean(rows.map((row) => row.jitterMs)),
        lostPercent: overallLoss(runs),
      },
      intervals: summedIntervals(runs),
    };
  },
  answer(plan, links, result) {
    const received = result.sum.receivedBitsPerSecond;
    if (received === null) return null;
    const share = percentOf(received, lineRateOf(linkOf(links, plan.linkIds[0])));
    const ofLineRate = share === null ? "" : ` (${formatPercentWord(share)} of the line rate)`;
    return `${plan.channels} channels: ${formatBitRate(received)} in all${ofLineRate}`;
  },
  table(_plan, _links, result) {
    return {
      columns: [
        { key: "channel", label: "Channel", format: "text" },
        { key: "port", label: "Port", format: "text" },
        { key: "sentBitsPerSecond", label: "Sent", format: "bitsPerSecond" },
        { key: "receivedBitsPerSecond", label: "Received", format: "bitsPerSecond" },
        { key: "retransmits", label: "Retransmits", format: "count" },
        { key: "streams", label: "Streams", format: "count" },
        { key: "jitterMs", label: "Jitter", format: "ms" },
        { key: "lostPercent", label: "Loss", format: "percent" },
        { key: "runIds", label: "Run", format: "runs" },
      ],
      rows: [
        ...result.rows.map((row) => ({
          key: `channel ${row.channel}`,
          cells: {
            channel: String(row.channel),
            port: row.port === null ? null : String(row.port),
            sentBitsPerSecond: row.sentBitsPerSecond,
            receivedBitsPerSecond: row.receivedBitsPerSecond,
            retransmits: row.retransmits,
            streams: row.streams,
            jitterMs: row.jitterMs,
            lostPercent: row.lostPercent,
            runIds: [row.runId],
          },
        })),
        {
          key: "sum",
          isSum: true,
          cells: {
            channel: "Sum",
            port: null,
            ...result.sum,
            streams: present(result.rows.map((row) => row.streams)).reduce((total, streams) => total + streams, 0),
            runIds: result.rows.map((row) => row.runId),
          },
        },
      ],
    };
  },
};
