// One parser for every output of iperf3: it detects the format from the first lines (text,
// a `-J` document, `--json-stream` events) and reports events as lines arrive.
import { classifyIperfError, isErrorLine, isNoiseLine, type IperfPlatform } from "./errors";
import {
  cpuFromJsonEnd,
  intervalsFromJson,
  readJsonDocument,
  startInfoFromJson,
  summariesFromJsonEnd,
} from "./json-output";
import type {
  IperfCpu,
  IperfCpuReading,
  IperfError,
  IperfEvent,
  IperfFormat,
  IperfInterval,
  IperfResult,
  IperfRole,
  IperfStartInfo,
  IperfSummary,
} from "./model";
import { createTextReader } from "./text-output";

export type IperfParserOptions = {
  /**
   * Keep every interval for the result of end(). Off by default so that a long run costs
   * constant memory: the intervals go out as events and the caller keeps what it needs.
   */
  keepIntervals?: boolean;
  /** the platform of the host, for the install hint of a `not-found` error */
  platform?: IperfPlatform;
};

export type IperfParser = {
  /** One line of output, without its newline (a trailing \r is ignored). */
  push(line: string): IperfEvent[];
  /**
   * The output ended: the events still due (an interval held back for its [SUM] line, the
   * summary of a run without `iperf Done.`, such as an interrupted one). end() calls it too.
   */
  flush(): IperfEvent[];
  /** The output ended: the normalized result (intervals only with keepIntervals). */
  end(): IperfResult;
};

// shared by every line without events; frozen so that a caller cannot fill it for everyone
const NO_EVENTS = Object.freeze([]) as unknown as IperfEvent[];
// a -J document is one object; 64 MiB is far more than a day of intervals at -i 1
const MAX_JSON_DOCUMENT_CHARS = 64 * 1024 * 1024;

/**
 * This end's "local" and "remote" → the client's and the server's. A server never learns the
 * client's figure (iperf3 prints 0 for it); a client gets the server's only in the final exchange
 * of results, which an interrupted or failed test never reaches (it prints 0 then too).
 */
function cpuOf(reading: IperfCpuReading | null, role: IperfRole, hasEndedNormally: boolean): IperfCpu | null {
  if (reading === null) return null;
  if (role === "server") return { clientPercent: null, serverPercent: reading.localPercent };
  return { clientPercent: reading.localPercent, serverPercent: hasEndedNormally ? reading.remotePercent : null };
}

export function createIperfParser(options: IperfParserOptions = {}): IperfParser {
  const keepIntervals = options.keepIntervals ?? false;
  const platform = options.platform ?? "unknown";
  let format: IperfFormat | undefined;
  const text = createTextReader();
  const intervals: IperfInterval[] = [];
  let error: IperfError | null = null;
  let hasSummaryEvent = false;
  let isEnded = false;
  let endResult: IperfResult | null = null;

  const scratchEvents: IperfEvent[] = [];

  // JSON state
  let jsonStart: IperfStartInfo | undefined;
  let jsonSummary: IperfSummary | null = null;
  let jsonReverseSummary: IperfSummary | null = null;
  let jsonCpu: IperfCpuReading | null = null;
  let jsonLines: string[] = [];
  let jsonChars = 0;

  function record(events: IperfEvent[], event: IperfEvent): void {
    if (event.type === "interval" && keepIntervals) intervals.push(event.interval);
    events.push(event);
  }

  function drain(events: IperfEvent[]): IperfEvent[] {
    const copy = events.slice();
    events.length = 0;
    return copy;
  }

  function keepTextIntervals(events: IperfEvent[]): void {
    for (const event of events) if (event.type === "interval") intervals.push(event.interval);
  }

  function setError(message: string, events: IperfEvent[]): void {
    const classified = classifyIperfError(message, platform);
    // the first error is the cause; later ones ("exiting", usage text) follow from it
    if (error === null || (error.kind === "unknown" && classified.kind !== "unknown")) {
      error = classified;
      events.push({ type: "error", error: classified });
    }
  }

  function startOf(): IperfStartInfo {
    if (format === "text" || format === undefined) return text.startInfo();
    return jsonStart ?? { format, role: "client" };
  }

  function summariesOf(): { summary: IperfSummary | null; reverseSummary: IperfSummary | null } {
    if (format === "json" || format === "json-stream")
      return { summary: jsonSummary, reverseSummary: jsonReverseSummary };
    return text.summaries();
  }

  function isInterrupted(): boolean {
    if (error?.kind === "interrupted") return true;
    // SIGINT: the client prints the summary with receiver `0.00 Bytes` (3.19+ exits 0 without a message)
    const { summary, reverseSummary } = summariesOf();
    if (startOf().role !== "client") return false;
    return [summary, reverseSummary].some(
      (side) => side?.sender != null && side.receiver != null && side.receiver.bytes === 0 && side.sender.bytes > 0,
    );
  }

  function emitSummary(events: IperfEvent[]): void {
    if (hasSummaryEvent) return;
    const { summary, reverseSummary } = summariesOf();
    if (summary === null && reverseSummary === null) return;
    hasSummaryEvent = true;
    events.push({ type: "summary", summary, reverseSummary, interrupted: isInterrupted() });
  }

  function readJsonDocumentLines(events: IperfEvent[]): void {
    const documentText = jsonLines.join("\n");
    jsonLines = [];
    jsonChars = 0;
    let document: unknown;
    try {
      document = JSON.parse(documentText);
    } catch {
      setError(`iperf3 JSON output is cut off or invalid (${documentText.length} characters)`, events);
      return;
    }
    const read = readJsonDocument(document);
    jsonStart = read.start;
    events.push({ type: "start", start: read.start });
    for (const interval of read.intervals) record(events, { type: "interval", interval });
    jsonSummary = read.summary;
    jsonReverseSummary = read.reverseSummary;
    jsonCpu = read.cpu;
    if (read.error) setError(read.error.message, events);
    emitSummary(events);
  }

  function readJsonStreamLine(line: string, events: IperfEvent[]): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (isErrorLine(line)) setError(line, events);
      return;
    }
    if (typeof message !== "object" || message === null) return;
    const { event, data } = message as { event?: unknown; data?: unknown };
    if (event === "start") {
      jsonStart = startInfoFromJson(data, "json-stream");
      events.push({ type: "start", start: jsonStart });
    } else if (event === "interval") {
      const start = jsonStart ?? (jsonStart = { format: "json-stream", role: "client" });
      for (const interval of intervalsFromJson(data, start.role)) {
        if (interval.direction !== undefined) start.direction = "bidir";
        record(events, { type: "interval", interval });
      }
    } else if (event === "end") {
      const start = jsonStart ?? { format: "json-stream" as const, role: "client" as const };
      const isBidir =
        start.direction === "bidir" || (typeof data === "object" && data !== null && "sum_sent_bidir_reverse" in data);
      if (isBidir) start.direction = "bidir";
      const read = summariesFromJsonEnd(data, start.role, start.protocol ?? "tcp", start.direction ?? "normal");
      jsonSummary = read.summary;
      jsonReverseSummary = read.reverseSummary;
      jsonCpu = cpuFromJsonEnd(data);
      emitSummary(events);
    } else if (event === "error") {
      setError(typeof data === "string" ? data : JSON.stringify(data), events);
    }
    // server_output_json / server_output_text: the other side's report, not this side's result
  }

  function push(rawLine: string): IperfEvent[] {
    if (isEnded) throw new Error("iperf parser: push() after end()");
    const line = rawLine.charCodeAt(rawLine.length - 1) === 13 ? rawLine.slice(0, -1) : rawLine;
    if (format === "text") {
      // emptied after each use below, so that the common no-event line costs no allocation
      const events = scratchEvents;
      // fast path first: an interval line is neither an error nor noise
      if (!text.pushDataLine(line, events)) {
        // every error line names iperf3 (iperf3's own, and the shells' "iperf3: not found")
        if (line.includes("iperf3") && isNoiseLine(line)) return events.length === 0 ? NO_EVENTS : drain(events);
        if (line.includes("iperf3") && isErrorLine(line)) setError(line.trim(), events);
        else text.pushOtherLine(line, events);
        if (text.isDone()) emitSummary(events);
      }
      if (events.length === 0) return NO_EVENTS;
      if (keepIntervals) keepTextIntervals(events);
      return drain(events);
    }
    if (format === "json") {
      const events: IperfEvent[] = [];
      if (jsonLines.length === 0) {
        // after the document: only stderr can follow
        if (isErrorLine(line)) setError(line.trim(), events);
        return events;
      }
      jsonLines.push(line);
      jsonChars += line.length + 1;
      // iperf3 closes its document with "}" alone at column 0
      if (line === "}") readJsonDocumentLines(events);
      else if (jsonChars > MAX_JSON_DOCUMENT_CHARS) {
        jsonLines = [];
        setError("iperf3 JSON output is larger than 64 MiB: not read", events);
      }
      return events;
    }
    if (format === "json-stream") {
      const events: IperfEvent[] = [];
      const trimmed = line.trim();
      if (trimmed.startsWith("{")) readJsonStreamLine(trimmed, events);
      else if (isErrorLine(trimmed)) setError(trimmed, events);
      return events;
    }
    // format not known yet: errors and noise may come before the output proper
    const trimmed = line.trim();
    if (trimmed === "") return NO_EVENTS;
    if (isNoiseLine(trimmed)) return NO_EVENTS;
    if (isErrorLine(trimmed)) {
      const events: IperfEvent[] = [];
      setError(trimmed, events);
      return events;
    }
    if (trimmed.startsWith('{"event"')) {
      format = "json-stream";
      return push(line);
    }
    if (trimmed.startsWith("{")) {
      format = "json";
      jsonLines = [trimmed];
      jsonChars = trimmed.length + 1;
      // a -J document squeezed onto one line (`jq -c`) is complete at once
      if (trimmed !== "{" && trimmed.endsWith("}")) {
        const events: IperfEvent[] = [];
        readJsonDocumentLines(events);
        return events;
      }
      return NO_EVENTS;
    }
    format = "text";
    return push(line);
  }

  function flush(): IperfEvent[] {
    if (isEnded) return [];
    const events: IperfEvent[] = [];
    if (format === "text") {
      text.finish(events);
      if (keepIntervals) keepTextIntervals(events);
    }
    if (format === "json" && jsonLines.length > 0) readJsonDocumentLines(events);
    emitSummary(events);
    return events;
  }

  function end(): IperfResult {
    if (endResult) return endResult;
    flush();
    isEnded = true;
    const start = startOf();
    const { summary, reverseSummary } = summariesOf();
    const interrupted = isInterrupted();
    const cpuReading = format === "json" || format === "json-stream" ? jsonCpu : text.cpu();
    endResult = {
      format: format ?? "text",
      ...(start.version !== undefined ? { version: start.version } : {}),
      role: start.role,
      protocol: start.protocol ?? "tcp",
      direction: start.direction ?? "normal",
      streams: start.streams ?? (summary !== null || intervals.length > 0 ? 1 : 0),
      intervals,
      summary,
      reverseSummary,
      interrupted,
      cpu: cpuOf(cpuReading, start.role, !interrupted && error === null),
      error,
    };
    return endResult;
  }

  return { push, flush, end };
}

/** Parses a whole output (stdout, and stderr when it was kept apart), keeping every interval. */
export function parseIperfOutput(
  text: string,
  stderr?: string,
  options: Omit<IperfParserOptions, "keepIntervals"> = {},
): IperfResult {
  const parser = createIperfParser({ ...options, keepIntervals: true });
  for (const line of text.split("\n")) parser.push(line);
  if (stderr !== undefined) for (const line of stderr.split("\n")) parser.push(line);
  return parser.end();
}
