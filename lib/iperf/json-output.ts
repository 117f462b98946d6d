// Reads iperf3's JSON: the one `-J` document and the `--json-stream` events (3.17+).
// JSON numbers are exact, so they are kept as they are.
import { classifyIperfError } from "./errors";
import type {
  IperfCpuReading,
  IperfDirection,
  IperfError,
  IperfFlow,
  IperfInterval,
  IperfProtocol,
  IperfRole,
  IperfSideSummary,
  IperfStartInfo,
  IperfStreamSample,
  IperfSummary,
} from "./model";
import { parseIperfVersion } from "./version";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberOf(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** What the JSON `start` object tells about the test. */
export function startInfoFromJson(start: unknown, format: "json" | "json-stream"): IperfStartInfo {
  const info: IperfStartInfo = { format, role: "client" };
  if (!isObject(start)) return info;
  if (typeof start.version === "string") {
    const version = parseIperfVersion(start.version);
    if (version) info.version = version.raw;
  }
  if (isObject(start.accepted_connection)) info.role = "server";
  if (isObject(start.connecting_to)) {
    info.role = "client";
    if (typeof start.connecting_to.host === "string") info.remoteHost = start.connecting_to.host;
    info.remotePort = numberOf(start.connecting_to, "port");
  }
  const testStart = start.test_start;
  if (isObject(testStart)) {
    if (typeof testStart.protocol === "string")
      info.protocol = testStart.protocol.toUpperCase() === "UDP" ? "udp" : "tcp";
    info.streams = numberOf(testStart, "num_streams");
    if (numberOf(testStart, "bidir") === 1) info.direction = "bidir";
    else if (numberOf(testStart, "reverse") === 1) info.direction = "reverse";
    else info.direction = "normal";
  }
  return info;
}

function streamSampleFromJson(stream: JsonObject): IperfStreamSample {
  const sample: IperfStreamSample = {
    id: numberOf(stream, "socket") ?? 0,
    bytes: numberOf(stream, "bytes") ?? 0,
    bitsPerSecond: numberOf(stream, "bits_per_second") ?? 0,
  };
  const retransmits = numberOf(stream, "retransmits");
  if (retransmits !== undefined) sample.retransmits = retransmits;
  const cwnd = numberOf(stream, "snd_cwnd");
  if (cwnd !== undefined) sample.cwndBytes = cwnd;
  if (stream.sender === false || stream.jitter_ms !== undefined) {
    const jitter = numberOf(stream, "jitter_ms");
    if (jitter !== undefined) sample.jitterMs = jitter;
    const lost = numberOf(stream, "lost_packets");
    if (lost !== undefined) sample.lostPackets = lost;
    const percent = numberOf(stream, "lost_percent");
    if (percent !== undefined) sample.lostPercent = percent;
  }
  const packets = numberOf(stream, "packets");
  if (packets !== undefined) sample.packets = packets;
  return sample;
}

function intervalFromJsonSum(sum: JsonObject, streams: IperfStreamSample[], direction?: IperfFlow): IperfInterval {
  // built in the order of the documented model, so that printed JSON reads the same everywhere
  const interval = {
    start: numberOf(sum, "start") ?? 0,
    end: numberOf(sum, "end") ?? 0,
    bytes: numberOf(sum, "bytes") ?? 0,
    bitsPerSecond: numberOf(sum, "bits_per_second") ?? 0,
  } as IperfInterval;
  const retransmits = numberOf(sum, "retransmits");
  if (retransmits !== undefined) interval.retransmits = retransmits;
  const jitter = numberOf(sum, "jitter_ms");
  if (jitter !== undefined) interval.jitterMs = jitter;
  const lost = numberOf(sum, "lost_packets");
  if (lost !== undefined) interval.lostPackets = lost;
  const packets = numberOf(sum, "packets");
  if (packets !== undefined) interval.packets = packets;
  const percent = numberOf(sum, "lost_percent");
  if (percent !== undefined) interval.lostPercent = percent;
  interval.omitted = sum.omitted === true;
  if (direction) interval.direction = direction;
  interval.streams = streams;
  return interval;
}

/**
 * One JSON interval → one interval, or two for a bidirectional run (`sum` is the forward
 * direction, `sum_bidir_reverse` the reverse one).
 */
export function intervalsFromJson(interval: unknown, role: IperfRole): IperfInterval[] {
  if (!isObject(interval) || !isObject(interval.sum)) return [];
  const streams = Array.isArray(interval.streams) ? interval.streams.filter(isObject) : [];
  const reverseSum = interval.sum_bidir_reverse;
  if (!isObject(reverseSum)) return [intervalFromJsonSum(interval.sum, streams.map(streamSampleFromJson))];
  // the client sends the forward direction, the server receives it
  const isForward = (stream: JsonObject) => (stream.sender === true) === (role === "client");
  return [
    intervalFromJsonSum(interval.sum, streams.filter(isForward).map(streamSampleFromJson), "forward"),
    intervalFromJsonSum(
      reverseSum,
      streams.filter((stream) => !isForward(stream)).map(streamSampleFromJson),
      "reverse",
    ),
  ];
}

function sideFromJson(sum: unknown, side: "sender" | "receiver", protocol: IperfProtocol): IperfSideSummary | null {
  if (!isObject(sum)) return null;
  const summary: IperfSideSummary = {
    start: numberOf(sum, "start") ?? 0,
    end: numberOf(sum, "end") ?? 0,
    bytes: numberOf(sum, "bytes") ?? 0,
    bitsPerSecond: numberOf(sum, "bits_per_second") ?? 0,
  };
  if (side === "sender") {
    const retransmits = numberOf(sum, "retransmits");
    if (protocol === "tcp" && retransmits !== undefined) summary.retransmits = retransmits;
    const packets = numberOf(sum, "packets");
    if (protocol === "udp" && packets !== undefined) summary.packets = packets;
  } else if (protocol === "udp") {
    const jitter = numberOf(sum, "jitter_ms");
    if (jitter !== undefined) summary.jitterMs = jitter;
    const lost = numberOf(sum, "lost_packets");
    if (lost !== undefined) summary.lostPackets = lost;
    const packets = numberOf(sum, "packets");
    if (packets !== undefined) summary.packets = packets;
    const percent = numberOf(sum, "lost_percent");
    if (percent !== undefined) summary.lostPercent = percent;
  }
  return summary;
}

export type JsonSummaries = { summary: IperfSummary | null; reverseSummary: IperfSummary | null };

/** The `end` object → summaries. A server keeps only the side it measured itself (iperf3 zeroes the other). */
export function summariesFromJsonEnd(
  end: unknown,
  role: IperfRole,
  protocol: IperfProtocol,
  direction: IperfDirection,
): JsonSummaries {
  if (!isObject(end) || Object.keys(end).length === 0) return { summary: null, reverseSummary: null };
  // UDP before 3.? has only `sum` (the client's bytes with the server's jitter and loss)
  const sent = end.sum_sent ?? end.sum;
  const received = protocol === "udp" ? (end.sum_received ?? end.sum) : end.sum_received;
  let summary: IperfSummary | null = {
    sender: sideFromJson(sent, "sender", protocol),
    receiver: sideFromJson(received, "receiver", protocol),
  };
  let reverseSummary: IperfSummary | null = null;
  if (direction === "bidir") {
    reverseSummary = {
      sender: sideFromJson(end.sum_sent_bidir_reverse, "sender", protocol),
      receiver: sideFromJson(end.sum_received_bidir_reverse, "receiver", protocol),
    };
  }
  if (role === "server") {
    if (direction === "reverse") summary = { sender: summary.sender, receiver: null };
    else summary = { sender: null, receiver: summary.receiver };
    if (reverseSummary) reverseSummary = { sender: reverseSummary.sender, receiver: null };
  }
  return { summary, reverseSummary };
}

/** `end.cpu_utilization_percent`: `host_total` is this end, `remote_total` the other. */
export function cpuFromJsonEnd(end: unknown): IperfCpuReading | null {
  if (!isObject(end) || !isObject(end.cpu_utilization_percent)) return null;
  const localPercent = numberOf(end.cpu_utilization_percent, "host_total");
  const remotePercent = numberOf(end.cpu_utilization_percent, "remote_total");
  if (localPercent === undefined || remotePercent === undefined) return null;
  return { localPercent, remotePercent };
}

export type JsonDocumentResult = JsonSummaries & {
  start: IperfStartInfo;
  intervals: IperfInterval[];
  cpu: IperfCpuReading | null;
  error: IperfError | null;
};

/** A whole `-J` document. */
export function readJsonDocument(document: unknown): JsonDocumentResult {
  const root = isObject(document) ? document : {};
  const start = startInfoFromJson(root.start, "json");
  const rawIntervals = Array.isArray(root.intervals) ? root.intervals : [];
  const isBidir =
    start.direction === "bidir" ||
    (isObject(root.end) && isObject(root.end.sum_sent_bidir_reverse)) ||
    rawIntervals.some((interval) => isObject(interval) && isObject(interval.sum_bidir_reverse));
  if (isBidir) start.direction = "bidir";
  const intervals = rawIntervals.flatMap((interval) => intervalsFromJson(interval, start.role));
  const summaries = summariesFromJsonEnd(root.end, start.role, start.protocol ?? "tcp", start.direction ?? "normal");
  const error = typeof root.error === "string" ? classifyIperfError(root.error) : null;
  return { start, intervals, ...summaries, cpu: cpuFromJsonEnd(root.end), error };
}
