// Reads iperf3's human-readable output (3.0 … 3.21, client and server side) one line at a time.
// State is a handful of fields plus the stream lines of the interval being read: constant memory.
import type {
  IperfCpuReading,
  IperfDirection,
  IperfEvent,
  IperfFlow,
  IperfInterval,
  IperfProtocol,
  IperfRole,
  IperfSideSummary,
  IperfStartInfo,
  IperfStreamSample,
  IperfSummary,
} from "./model";
import { lossPercent } from "./units";

const UDP_RECEIVER_TAIL = /^\s*(\d+(?:\.\d+)?)\s*ms\s+(-?\d+)\s*\/\s*(\d+)\s*\(\s*([^)%]*)%?\s*\)/;
const UDP_SENDER_TAIL = /^\s*(\d+)\b/;
const CONNECTING_LINE = /Connecting to host (\S+?),? port (\d+)/;
const CONNECTED_LINE = /\[\s*\d+\]\s*local .* connected (?:to|with) /;
const SENT_DATAGRAMS_LINE = /\[\s*\d+\]\s*Sent (\d+) datagrams/;
// -V (3.0.1+): "CPU Utilization: local/sender 5.2% (0.3%u/4.9%s), remote/receiver 10.1% (0.5%u/9.6%s)"
const CPU_LINE = /CPU Utilization:\s*local\/\w+\s+(\d+(?:\.\d+)?)%.*?remote\/\w+\s+(\d+(?:\.\d+)?)%/;

// Every object below is created with all its fields, absent ones undefined (JSON.stringify drops
// them): one hidden class per type keeps a million-line log fast.
export type LineFields = {
  isSum: boolean;
  id: number;
  /** "T"/"R" and "C"/"S" of a `[TX-C]` role tag, when present */
  roleTag: string | undefined;
  start: number;
  end: number;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number | undefined;
  cwndBytes: number | undefined;
  jitterMs: number | undefined;
  lostPackets: number | undefined;
  packets: number | undefined;
  lostPercent: number | undefined;
  side: "sender" | "receiver" | undefined;
  omitted: boolean;
};

// An interval or summary line is scanned by hand, not by one big regex: it is most of a log, and
// scanning by hand is several times faster. Its shape:
//   [  5][TX-C]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec  <tail: Retr Cwnd | jitter lost/total | datagrams> [sender|receiver|(omitted)]
// Anything may come before the "[" (`--timestamps`, `-T title`); whitespace may be collapsed.
//
// The scanners read a copy of the line in a byte array, not the string: a line from a line reader
// is a slice of the chunk it came in, and every charCodeAt on a slice goes through it, where one
// native copy (TextEncoder.encodeInto) and plain byte reads take half the time.

const encoder = new TextEncoder();
// zeros after the line's bytes: the scanners look up to 9 bytes past one they matched, and a zero
// matches nothing (as charCodeAt past the end gives NaN)
const PADDING = 16;
const SCRATCH_CHARS = 1024;
const scratchBytes = new Uint8Array(SCRATCH_CHARS + PADDING);

/**
 * The line's characters as bytes, one per character, then PADDING zeros. A character outside ASCII
 * becomes 0x80, which no scanner matches: iperf3 prints ASCII, a title or timestamp may not be.
 */
function bytesOf(line: string): Uint8Array {
  const length = line.length;
  // a longer line (not one iperf3 prints) gets an array of its own: the scratch stays small
  const bytes = length <= SCRATCH_CHARS ? scratchBytes : new Uint8Array(length + PADDING);
  const { read, written } = encoder.encodeInto(line, bytes);
  if (read !== length || written !== length) {
    // UTF-8 gives such a character several bytes; one per character keeps the string's positions
    for (let index = 0; index < length; index += 1) {
      const code = line.charCodeAt(index);
      bytes[index] = code < 128 ? code : 128;
    }
  }
  for (let index = length; index < length + PADDING; index += 1) bytes[index] = 0;
  return bytes;
}

const BINARY_FACTORS = [1, 1024, 1024 ** 2, 1024 ** 3, 1024 ** 4];
const DECIMAL_FACTORS = [1, 1e3, 1e6, 1e9, 1e12];

/** 1…4 for the unit prefixes K M G T, 0 for none. */
function prefixPower(code: number): number {
  switch (code) {
    case 75:
      return 1;
    case 77:
      return 2;
    case 71:
      return 3;
    case 84:
      return 4;
    default:
      return 0;
  }
}
// where the last scan ended (an index: a small integer, stored without boxing)
let scannedEnd = 0;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function skipSpaces(bytes: Uint8Array, index: number): number {
  let at = index;
  while (bytes[at] === 32 || bytes[at] === 9) at += 1;
  return at;
}

/**
 * A decimal like `1.36` at index, after spaces: its value, with scannedEnd after it; -1 when there
 * is none. digits / 10^k is exactly Number("1.36"). The value is returned, not kept in a module
 * variable: a fraction stored there would be boxed on the heap at every call.
 */
function scanNumber(bytes: Uint8Array, index: number): number {
  let at = skipSpaces(bytes, index);
  let code = bytes[at]!;
  if (!isDigit(code)) return -1;
  let mantissa = 0;
  while (isDigit(code)) {
    mantissa = mantissa * 10 + (code - 48);
    at += 1;
    code = bytes[at]!;
  }
  let scale = 1;
  if (code === 46 && isDigit(bytes[at + 1]!)) {
    at += 1;
    code = bytes[at]!;
    while (isDigit(code)) {
      mantissa = mantissa * 10 + (code - 48);
      scale *= 10;
      at += 1;
      code = bytes[at]!;
    }
  }
  scannedEnd = at;
  return scale === 1 ? mantissa : mantissa / scale;
}

/** `Bytes`, `KBytes` … at index, after spaces: the factor, with scannedEnd after it; 0 when there is none. */
function scanBytesUnit(bytes: Uint8Array, start: number): number {
  const index = skipSpaces(bytes, start);
  const power = prefixPower(bytes[index]!);
  const at = power === 0 ? index : index + 1;
  // "B" then "s" four on: Bytes
  if (bytes[at] !== 66 || bytes[at + 4] !== 115) return 0;
  scannedEnd = at + 5;
  return BINARY_FACTORS[power]!;
}

/** `bits/sec`, `Mbits/sec` (1000-based) or `MBytes/sec` (-f M, 1024-based bytes), after spaces: bits/s per unit. */
function scanRateUnit(bytes: Uint8Array, start: number): number {
  const index = skipSpaces(bytes, start);
  const power = prefixPower(bytes[index]!);
  const at = power === 0 ? index : index + 1;
  const first = bytes[at];
  // "b" … "/" at 4: bits/sec; "B" … "/" at 5: Bytes/sec
  if (first === 98 && bytes[at + 4] === 47) {
    scannedEnd = at + 8;
    return DECIMAL_FACTORS[power]!;
  }
  if (first === 66 && bytes[at + 5] === 47) {
    scannedEnd = at + 9;
    return BINARY_FACTORS[power]! * 8;
  }
  return 0;
}

const scratchFields: LineFields = {
  isSum: false,
  id: -1,
  roleTag: undefined,
  start: 0,
  end: 0,
  bytes: 0,
  bitsPerSecond: 0,
  retransmits: undefined,
  cwndBytes: undefined,
  jitterMs: undefined,
  lostPackets: undefined,
  packets: undefined,
  lostPercent: undefined,
  side: undefined,
  omitted: false,
};

/** The line from its "[" at open, with its bytes (bytesOf); null when it is not an interval or summary line. */
function scanIntervalLine(line: string, bytes: Uint8Array, open: number, protocol: IperfProtocol): LineFields | null {
  let at = skipSpaces(bytes, open + 1);
  let isSum = false;
  let id = -1;
  if (bytes[at] === 83 && bytes[at + 1] === 85) {
    isSum = true;
    at += 3;
  } else {
    id = scanNumber(bytes, at);
    if (id < 0) return null;
    at = scannedEnd;
  }
  at = skipSpaces(bytes, at);
  if (bytes[at] !== 93) return null; // ]
  at += 1;
  let roleTag: string | undefined;
  // [TX-C] [RX-C] [TX-S] [RX-S]
  if (bytes[at] === 91 && bytes[at + 2] === 88 && bytes[at + 3] === 45 && bytes[at + 5] === 93) {
    roleTag = line[at + 1]! + line[at + 4]!;
    at += 6;
  }
  const start = scanNumber(bytes, at);
  if (start < 0) return null;
  at = skipSpaces(bytes, scannedEnd);
  if (bytes[at] !== 45) return null; // -
  const end = scanNumber(bytes, at + 1);
  if (end < 0) return null;
  at = skipSpaces(bytes, scannedEnd);
  if (bytes[at] !== 115 || bytes[at + 1] !== 101 || bytes[at + 2] !== 99) return null; // sec
  const transfer = scanNumber(bytes, at + 3);
  if (transfer < 0) return null;
  const bytesFactor = scanBytesUnit(bytes, scannedEnd);
  if (bytesFactor === 0) return null;
  const rate = scanNumber(bytes, scannedEnd);
  if (rate < 0) return null;
  const rateFactor = scanRateUnit(bytes, scannedEnd);
  if (rateFactor === 0) return null;
  const tailStart = scannedEnd;

  let tailEnd = line.length;
  while (tailEnd > tailStart && bytes[tailEnd - 1]! <= 32) tailEnd -= 1;
  let side: LineFields["side"];
  // both tags end in "r"; most interval lines end in "Bytes" or a number
  if (bytes[tailEnd - 1] === 114) {
    if (line.endsWith("sender", tailEnd)) {
      side = "sender";
      tailEnd -= 6;
    } else if (line.endsWith("receiver", tailEnd)) {
      side = "receiver";
      tailEnd -= 8;
    }
    while (tailEnd > tailStart && bytes[tailEnd - 1]! <= 32) tailEnd -= 1;
  }
  // one object reused for every line: callers copy what they keep (most lines are kept only as a sample)
  const fields = scratchFields;
  fields.isSum = isSum;
  fields.id = id;
  fields.roleTag = roleTag;
  fields.start = start;
  fields.end = end;
  // Math.round: "1.36 GBytes" × 1024³ is not a whole number; the digits past the third are unknown anyway
  fields.bytes = Math.round(transfer * bytesFactor);
  fields.bitsPerSecond = Math.round(rate * rateFactor);
  fields.retransmits = undefined;
  fields.cwndBytes = undefined;
  fields.jitterMs = undefined;
  fields.lostPackets = undefined;
  fields.packets = undefined;
  fields.lostPercent = undefined;
  fields.side = side;
  fields.omitted = bytes[tailEnd - 1] === 41 && line.endsWith("(omitted)", tailEnd);
  if (tailEnd <= tailStart) return fields;
  if (protocol === "udp") {
    readUdpTail(line.slice(tailStart, tailEnd), fields, protocol);
    return fields;
  }
  // TCP: Retr, then Cwnd where the OS gives TCP_INFO; a number followed by "ms" is UDP jitter after all
  const retransmits = scanNumber(bytes, tailStart);
  if (retransmits < 0) return fields;
  const afterFirst = skipSpaces(bytes, scannedEnd);
  if (bytes[afterFirst] === 109 && bytes[afterFirst + 1] === 115) {
    readUdpTail(line.slice(tailStart, tailEnd), fields, protocol);
    return fields;
  }
  fields.retransmits = retransmits;
  const cwnd = scanNumber(bytes, afterFirst);
  if (cwnd < 0) return fields;
  const cwndFactor = scanBytesUnit(bytes, scannedEnd);
  if (cwndFactor !== 0) fields.cwndBytes = Math.round(cwnd * cwndFactor);
  return fields;
}

function readUdpTail(tail: string, fields: LineFields, protocol: IperfProtocol): void {
  const udp = UDP_RECEIVER_TAIL.exec(tail);
  if (udp) {
    fields.jitterMs = Number(udp[1]);
    fields.lostPackets = Number(udp[2]);
    fields.packets = Number(udp[3]);
    // The printed percent is %.2g ("36%", "1.3e-05%", "-nan%" for 0/0); the counts are exact, and give iperf3's own figure.
    fields.lostPercent = lossPercent(fields.lostPackets, fields.packets);
    return;
  }
  if (protocol === "udp") {
    const sender = UDP_SENDER_TAIL.exec(tail);
    if (sender) fields.packets = Number(sender[1]);
  }
}

/** One interval or summary line → its fields, or null when the line is not one. */
export function parseIntervalLine(line: string, protocol: IperfProtocol = "tcp"): LineFields | null {
  const fields = scanLine(line, protocol);
  return fields === null ? null : { ...fields };
}

/** parseIntervalLine without the copy: the result is overwritten by the next line. */
function scanLine(line: string, protocol: IperfProtocol): LineFields | null {
  let open = line.indexOf("[");
  if (open === -1) return null;
  const bytes = bytesOf(line);
  while (open !== -1) {
    const fields = scanIntervalLine(line, bytes, open, protocol);
    if (fields !== null) return fields;
    open = line.indexOf("[", open + 1);
  }
  return null;
}

// Absent fields are left out, not set to undefined: callers store these objects as JSON (Prisma)
// and compare them strictly. Within one run every line has the same fields, so shapes stay few.
function sampleOf(fields: LineFields): IperfStreamSample {
  const sample: IperfStreamSample = { id: fields.id, bytes: fields.bytes, bitsPerSecond: fields.bitsPerSecond };
  if (fields.retransmits !== undefined) sample.retransmits = fields.retransmits;
  if (fields.cwndBytes !== undefined) sample.cwndBytes = fields.cwndBytes;
  if (fields.jitterMs !== undefined) sample.jitterMs = fields.jitterMs;
  if (fields.lostPackets !== undefined) sample.lostPackets = fields.lostPackets;
  if (fields.packets !== undefined) sample.packets = fields.packets;
  if (fields.lostPercent !== undefined) sample.lostPercent = fields.lostPercent;
  return sample;
}

function intervalOf(fields: LineFields, streams: IperfStreamSample[], flow: IperfFlow | undefined): IperfInterval {
  // built in the order of the documented model, so that printed JSON reads the same everywhere
  const interval = {
    start: fields.start,
    end: fields.end,
    bytes: fields.bytes,
    bitsPerSecond: fields.bitsPerSecond,
  } as IperfInterval;
  if (fields.retransmits !== undefined) interval.retransmits = fields.retransmits;
  if (fields.jitterMs !== undefined) interval.jitterMs = fields.jitterMs;
  if (fields.lostPackets !== undefined) interval.lostPackets = fields.lostPackets;
  if (fields.packets !== undefined) interval.packets = fields.packets;
  if (fields.lostPercent !== undefined) interval.lostPercent = fields.lostPercent;
  interval.omitted = fields.omitted;
  if (flow !== undefined) interval.direction = flow;
  interval.streams = streams;
  return interval;
}

function sideSummaryOf(fields: LineFields, side: "sender" | "receiver", protocol: IperfProtocol): IperfSideSummary {
  const summary: IperfSideSummary = {
    start: fields.start,
    end: fields.end,
    bytes: fields.bytes,
    bitsPerSecond: fields.bitsPerSecond,
  };
  if (side === "sender") {
    if (protocol === "tcp" && fields.retransmits !== undefined) summary.retransmits = fields.retransmits;
    if (protocol === "udp" && fields.packets !== undefined) summary.packets = fields.packets;
  } else if (protocol === "udp") {
    if (fields.jitterMs !== undefined) summary.jitterMs = fields.jitterMs;
    if (fields.lostPackets !== undefined) summary.lostPackets = fields.lostPackets;
    if (fields.packets !== undefined) summary.packets = fields.packets;
    if (fields.lostPercent !== undefined) summary.lostPercent = fields.lostPercent;
  }
  return summary;
}

type PendingInterval = { flow: IperfFlow | undefined; first: LineFields; samples: IperfStreamSample[] };

/**
 * Whether a line belongs to the interval under way. The streams of one interval may print times
 * that differ in the last digit (`2.61-2.70` for some, `2.61-2.71` for others: -P 32 on a busy
 * host), so a line within half an interval of the first line's times is the same interval; the
 * next interval starts a whole interval later.
 */
function isSameInterval(pending: PendingInterval, fields: LineFields, flow: IperfFlow | undefined): boolean {
  if (pending.flow !== flow) return false;
  const { start, end } = pending.first;
  if (start === fields.start && end === fields.end) return true;
  const halfInterval = (end - start) / 2;
  return Math.abs(fields.start - start) < halfInterval && Math.abs(fields.end - end) < halfInterval;
}

type SummaryBucket = { sender: IperfSideSummary | null; receiver: IperfSideSummary | null; hasSum: boolean };

export type TextReader = {
  /** Reads one line (without its newline); appends what it learnt to `events`. */
  pushLine(line: string, events: IperfEvent[]): void;
  /** Reads the line if it is an interval or summary line (most of a log); false if it is not. */
  pushDataLine(line: string, events: IperfEvent[]): boolean;
  /** Reads a line that is not an interval or summary line. */
  pushOtherLine(line: string, events: IperfEvent[]): void;
  /** Flushes the interval being read. */
  finish(events: IperfEvent[]): void;
  startInfo(): IperfStartInfo;
  summaries(): { summary: IperfSummary | null; reverseSummary: IperfSummary | null };
  /** the first "CPU Utilization" line (-V; --bidir prints it twice, the same figures) */
  cpu(): IperfCpuReading | null;
  /** the output ended with "iperf Done." */
  isDone(): boolean;
};

export function createTextReader(): TextReader {
  let role: IperfRole | undefined;
  let protocol: IperfProtocol | undefined;
  let isReverse = false;
  let isBidir = false;
  let version: string | undefined;
  let remoteHost: string | undefined;
  let remotePort: number | undefined;
  let connectedCount = 0;
  let hasStarted = false;
  let isDone = false;
  let lastLineWasSeparator = false;
  let isInSummary = false;
  let hasSenderIntervals = false;
  let sentDatagrams: number | undefined;
  let cpu: IperfCpuReading | null = null;
  let pending: PendingInterval | null = null;
  // keys of the last interval emitted per flow: iperf3 repeats the last interval when a test is cut short
  let lastForwardStart = -1;
  let lastForwardEnd = -1;
  let lastReverseStart = -1;
  let lastReverseEnd = -1;
  const forward: SummaryBucket = { sender: null, receiver: null, hasSum: false };
  const reverse: SummaryBucket = { sender: null, receiver: null, hasSum: false };

  const currentRole = (): IperfRole => role ?? "client";
  const currentProtocol = (): IperfProtocol => protocol ?? "tcp";
  /** Parallel streams per direction, 0 while unknown. */
  const streamsPerFlow = (): number => (isBidir ? Math.floor(connectedCount / 2) : connectedCount);

  function direction(): IperfDirection {
    if (isBidir) return "bidir";
    if (isReverse) return "reverse";
    // a server that sends (Retr/Cwnd or datagram counts in its intervals, or a `sender` summary) serves -R
    if (role === "server" && (hasSenderIntervals || (forward.sender !== null && forward.receiver === null)))
      return "reverse";
    return "normal";
  }

  function startInfo(): IperfStartInfo {
    const info: IperfStartInfo = {
      format: "text",
      role: currentRole(),
      protocol: currentProtocol(),
      direction: direction(),
    };
    if (version !== undefined) info.version = version;
    if (streamsPerFlow() > 0) info.streams = streamsPerFlow();
    if (remoteHost !== undefined) info.remoteHost = remoteHost;
    if (remotePort !== undefined) info.remotePort = remotePort;
    return info;
  }

  function emitStart(events: IperfEvent[]): void {
    if (hasStarted) return;
    hasStarted = true;
    events.push({ type: "start", start: startInfo() });
  }

  /** `[TX-C]` and `[RX-S]` carry the forward (client → server) data, `[RX-C]` and `[TX-S]` the reverse. */
  function flowOf(fields: LineFields): IperfFlow | undefined {
    if (fields.roleTag === undefined) return undefined;
    const isClientTag = fields.roleTag[1] === "C";
    const isTransmit = fields.roleTag[0] === "T";
    return isClientTag === isTransmit ? "forward" : "reverse";
  }

  function emitInterval(interval: IperfInterval, fields: LineFields, events: IperfEvent[]): void {
    if (interval.direction === "reverse") {
      if (fields.start === lastReverseStart && fields.end === lastReverseEnd) return;
      lastReverseStart = fields.start;
      lastReverseEnd = fields.end;
    } else {
      if (fields.start === lastForwardStart && fields.end === lastForwardEnd) return;
      lastForwardStart = fields.start;
      lastForwardEnd = fields.end;
    }
    emitStart(events);
    events.push({ type: "interval", interval });
  }

  function flushPending(events: IperfEvent[]): void {
    if (pending === null) return;
    const { first, samples, flow } = pending;
    pending = null;
    if (samples.length === 1) {
      emitInterval(intervalOf(first, samples, flow), first, events);
      return;
    }
    // several streams and no [SUM] line (a cut-off paste): add them up, the way [SUM] would
    const sum = (key: "bytes" | "bitsPerSecond" | "retransmits" | "lostPackets" | "packets"): number | undefined =>
      samples.some((sample) => sample[key] !== undefined)
        ? samples.reduce((total, sample) => total + (sample[key] ?? 0), 0)
        : undefined;
    const totals: LineFields = {
      ...first,
      bytes: sum("bytes") ?? 0,
      bitsPerSecond: sum("bitsPerSecond") ?? 0,
      retransmits: sum("retransmits"),
      lostPackets: sum("lostPackets"),
      packets: sum("packets"),
      jitterMs: undefined,
      lostPercent: undefined,
    };
    const total = intervalOf(totals, samples, flow);
    emitInterval(total, first, events);
  }

  function readIntervalLine(fields: LineFields, events: IperfEvent[]): void {
    if (fields.roleTag !== undefined) isBidir = true;
    const flow = flowOf(fields);
    if (fields.retransmits !== undefined || (fields.packets !== undefined && fields.jitterMs === undefined)) {
      if (flow === undefined) hasSenderIntervals = true;
    }
    if (fields.isSum) {
      if (pending !== null && isSameInterval(pending, fields, flow)) {
        const samples = pending.samples;
        pending = null;
        emitInterval(intervalOf(fields, samples, flow), fields, events);
      } else {
        flushPending(events);
        emitInterval(intervalOf(fields, [], flow), fields, events);
      }
      return;
    }
    if (pending !== null && !isSameInterval(pending, fields, flow)) flushPending(events);
    if (pending === null) pending = { flow, first: { ...fields }, samples: [] };
    pending.samples.push(sampleOf(fields));
    // one stream per direction: no [SUM] follows, so the interval is complete now (no wait for the next line)
    if (streamsPerFlow() === 1) flushPending(events);
  }

  function readSummaryLine(fields: LineFields): void {
    if (fields.roleTag !== undefined) isBidir = true;
    const bucket = flowOf(fields) === "reverse" ? reverse : forward;
    const proto = currentProtocol();
    // -P > 1: the [SUM] line is the summary; a stream's line stands in only until it comes
    if (!fields.isSum && (bucket.hasSum || streamsPerFlow() > 1)) return;
    if (fields.isSum) bucket.hasSum = true;
    if (fields.side !== undefined) {
      bucket[fields.side] = sideSummaryOf(fields, fields.side, proto);
      return;
    }
    // 3.1.x prints one untagged UDP summary line: the client's bytes with the server's jitter and loss
    if (currentRole() === "client") {
      bucket.sender = sideSummaryOf(fields, "sender", proto);
      if (proto === "udp") bucket.receiver = sideSummaryOf(fields, "receiver", proto);
    } else {
      bucket.receiver = sideSummaryOf(fields, "receiver", proto);
    }
  }

  function readHeader(line: string): void {
    if (line.includes("Jitter") || line.includes("Datagrams")) protocol = "udp";
    else if (protocol === undefined && line.includes("Retr")) protocol = "tcp";
    if (line.includes("[Role]")) isBidir = true;
    const isSenderHeader = line.includes("Retr") || (line.includes("Total Datagrams") && !line.includes("Jitter"));
    if (role === "server" && !isBidir && isSenderHeader) {
      // a server prints Retr or datagram counts only for streams it sends: a -R test
      if (!lastLineWasSeparator) hasSenderIntervals = true;
    }
    if (lastLineWasSeparator) isInSummary = true;
  }

  function pushDataLine(line: string, events: IperfEvent[]): boolean {
    const fields = scanLine(line, currentProtocol());
    if (fields === null) return false;
    lastLineWasSeparator = false;
    if (isInSummary || fields.side !== undefined) {
      flushPending(events);
      isInSummary = true;
      readSummaryLine(fields);
    } else {
      emitStart(events);
      readIntervalLine(fields, events);
    }
    return true;
  }

  function pushOtherLine(line: string, events: IperfEvent[]): void {
    if (line.includes("- - - -")) {
      flushPending(events);
      lastLineWasSeparator = true;
      return;
    }
    if (line.includes("[ ID]")) {
      flushPending(events);
      readHeader(line);
      lastLineWasSeparator = false;
      if (!isInSummary) emitStart(events);
      return;
    }
    // -V prints this between the separator and the summary header: the separator still starts the summary
    if (line.includes("Test Complete")) return;
    lastLineWasSeparator = false;
    if (line.includes("connected to") || line.includes("connected with")) {
      if (CONNECTED_LINE.test(line)) connectedCount += 1;
      return;
    }
    if (line.includes("Connecting to host")) {
      role = "client";
      const match = CONNECTING_LINE.exec(line);
      if (match) {
        remoteHost = match[1];
        remotePort = Number(match[2]);
      }
      return;
    }
    if (line.includes("Reverse mode")) {
      isReverse = true;
      return;
    }
    if (line.includes("Server listening on") || line.includes("Accepted connection from")) {
      // a server without -1 prints its banner again after the test: the test is over
      if (role === undefined) role = "server";
      return;
    }
    if (line.includes("iperf Done")) {
      flushPending(events);
      isDone = true;
      return;
    }
    if (line.includes("CPU Utilization")) {
      const match = CPU_LINE.exec(line);
      if (match && cpu === null) cpu = { localPercent: Number(match[1]), remotePercent: Number(match[2]) };
      return;
    }
    if (line.includes("datagrams")) {
      const match = SENT_DATAGRAMS_LINE.exec(line);
      if (match) sentDatagrams = Number(match[1]);
      return;
    }
    const trimmed = line.trim();
    if (version === undefined && /^iperf \d+\.\d+/.test(trimmed)) {
      version = /^iperf (\d+\.\d+(?:\.\d+)?\+?)/.exec(trimmed)?.[1];
    }
  }

  function summaries(): { summary: IperfSummary | null; reverseSummary: IperfSummary | null } {
    // 3.1.x UDP: the datagram count of the client comes on its own line ("Sent 22782 datagrams")
    if (
      sentDatagrams !== undefined &&
      forward.sender !== null &&
      forward.sender.packets === undefined &&
      currentProtocol() === "udp"
    ) {
      forward.sender.packets = sentDatagrams;
    }
    const pick = (bucket: SummaryBucket, isServerSending: boolean): IperfSummary | null => {
      let { sender, receiver } = bucket;
      // a server knows only its own side; 3.1.x servers print the other one as "0.00 Bytes ... sender"
      if (currentRole() === "server") {
        if (isServerSending) receiver = null;
        else sender = null;
      }
      return sender === null && receiver === null ? null : { sender, receiver };
    };
    return {
      summary: pick(forward, !isBidir && direction() === "reverse"),
      reverseSummary: isBidir ? pick(reverse, true) : null,
    };
  }

  return {
    pushLine: (line, events) => {
      if (!pushDataLine(line, events)) pushOtherLine(line, events);
    },
    pushDataLine,
    pushOtherLine,
    finish: flushPending,
    startInfo,
    summaries,
    cpu: () => cpu,
    isDone: () => isDone,
  };
}
