// The import reader: one iperf3 output a user already has (text 3.0-3.21, `-J`, `--json-stream`)
// → the run it becomes, or why it cannot. Pure but for the hash: the store saves what this returns.
import { createHash } from "node:crypto";
import {
  IPERF_LIMITS,
  IperfOptionsSchema,
  parseIperfOutput,
  type IperfOptionsInput,
  type IperfResult,
} from "@/lib/iperf";
import { decideClientSide, outputAddresses } from "./addresses";
import type { ImportError, ImportedRun, ReadImportInput, ReadImportResult } from "./contract";

const ONLY_IPERF3 = "only iperf3's text, -J or --json-stream output can be imported";
const NOT_IPERF3_MESSAGE =
  "no iperf3 test found: expected iperf3's interval lines or its summary (text, -J or --json-stream output)";
/** iperf3's own messages are one line of about 100 characters: a longer "message" is not echoed whole. */
const MAX_ECHOED_MESSAGE_CHARS = 300;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberAt(object: unknown, ...path: string[]): number | undefined {
  let value: unknown = object;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function clamp(value: number, limits: { min: number; max: number }): number {
  return Math.min(limits.max, Math.max(limits.min, value));
}

/**
 * The first character that makes the text something other than an iperf3 output: NUL, a C0 or C1
 * control other than tab and line breaks, DEL (ESC opens terminal escape sequences), or U+FFFD,
 * which stands for bytes that were not UTF-8 (a binary file). Names the character, never echoes text.
 */
function notTextError(text: string): ImportError | null {
  let line = 1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0x20 && code < 0x7f) continue;
    if (code === 10) {
      line += 1;
      continue;
    }
    if (code === 13) {
      // a CR alone ends a line too (old Mac line ends); CRLF counts once, at its LF
      if (text.charCodeAt(index + 1) !== 10) line += 1;
      continue;
    }
    if (code === 9) continue;
    if (code === 0) return { kind: "not-text", message: `contains a NUL byte (0x00) on line ${line}: ${ONLY_IPERF3}` };
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      const hex = code.toString(16).padStart(2, "0");
      return { kind: "not-text", message: `contains a control character (0x${hex}) on line ${line}: ${ONLY_IPERF3}` };
    }
    if (code === 0xfffd) {
      return {
        kind: "not-text",
        message: `contains bytes that are not UTF-8 text on line ${line} (a binary file?): ${ONLY_IPERF3}`,
      };
    }
  }
  return null;
}

/**
 * The output as it is hashed and kept: CRLF and CR as LF, each line's trailing blanks and the
 * trailing blank lines removed, so that the same output saved on Windows or pasted from a page
 * counts as a duplicate of itself.
 */
export function normalizeImportText(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = withoutBom.replace(/\r\n?/g, "\n").split("\n");
  for (let index = 0; index < lines.length; index += 1) lines[index] = lines[index]!.replace(/[ \t]+$/, "");
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end -= 1;
  return lines.slice(0, end).join("\n");
}

/** SHA-256 (hex) of a normalized output: the key of an import's duplicate check. */
export function importHash(normalizedText: string): string {
  return createHash("sha256").update(normalizedText, "utf8").digest("hex");
}

/**
 * A `-J` document's text as the parser takes it: from the first line that opens with "{" to the
 * first "}" alone at column 0 (or that one line, squeezed by `jq -c`); null when it does not parse.
 */
function jsonDocumentOf(text: string): JsonObject | null {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim().startsWith("{"));
  if (first === -1) return null;
  const opening = lines[first]!.trim();
  let last = opening !== "{" && opening.endsWith("}") ? first : lines.indexOf("}", first + 1);
  if (last === -1) last = lines.length - 1;
  try {
    const document: unknown = JSON.parse(lines.slice(first, last + 1).join("\n"));
    return isObject(document) ? document : null;
  } catch {
    return null;
  }
}

/** `--json-stream`: the start event's data, and whether any event line fails to parse (a cut-off file). */
function jsonStreamStartOf(text: string): { start: unknown; hasBrokenLine: boolean } {
  let start: unknown;
  let hasBrokenLine = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    try {
      const event: unknown = JSON.parse(trimmed);
      if (start === undefined && isObject(event) && event.event === "start") start = event.data;
    } catch {
      hasBrokenLine = true;
    }
  }
  return { start, hasBrokenLine };
}

function hasMeasured(result: IperfResult): boolean {
  return result.intervals.length > 0 || result.summary !== null || result.reverseSummary !== null;
}

function echoed(message: string): string {
  return message.length <= MAX_ECHOED_MESSAGE_CHARS ? message : `${message.slice(0, MAX_ECHOED_MESSAGE_CHARS)}…`;
}

/** Why an output that measured nothing is not imported. */
function nothingMeasuredError(result: IperfResult, isBrokenJson: boolean, characters: number): ImportError {
  if (isBrokenJson) {
    const what = result.format === "json" ? "-J document" : "--json-stream output";
    return {
      kind: "unreadable",
      message: `the iperf3 ${what} is cut off or not valid JSON (${characters} characters): import the whole file`,
    };
  }
  if (result.error) return { kind: "iperf3-error", message: echoed(result.error.message) };
  return { kind: "not-iperf3", message: NOT_IPERF3_MESSAGE };
}

/** The test's times, in seconds from its start: how long the -O warm-up and the measured part took. */
function timesOf(result: IperfResult): { omitSeconds: number; measuredSeconds: number } {
  let omitSeconds = 0;
  let measuredSeconds = 0;
  for (const interval of result.intervals) {
    // a bidirectional test reports each warm-up second twice, once per direction
    if (interval.omitted) {
      if (interval.direction !== "reverse") omitSeconds += interval.end - interval.start;
    } else measuredSeconds = Math.max(measuredSeconds, interval.end);
  }
  for (const summary of [result.summary, result.reverseSummary]) {
    for (const side of [summary?.sender, summary?.receiver])
      if (side) measuredSeconds = Math.max(measuredSeconds, side.end);
  }
  return { omitSeconds, measuredSeconds };
}

/** `n` to 3 significant digits, as iperf3 prints rates: 917 Mbit/s, not 917.3. */
function threeDigits(value: number): number {
  return value > 0 ? Math.round(Number(value.toPrecision(3))) : 0;
}

function udpBitrate(result: IperfResult, testStart: unknown, jsonStart: unknown): number {
  const target = numberAt(testStart, "target_bitrate") ?? numberAt(jsonStart, "target_bitrate");
  if (target !== undefined && target >= 0) return Math.round(target);
  const side = result.summary?.sender ?? result.summary?.receiver;
  if (side) return threeDigits(side.bitsPerSecond);
  // no summary (a failed or cut-off test): what its intervals carried
  const intervals = result.intervals.filter((interval) => !interval.omitted && interval.direction !== "reverse");
  if (intervals.length === 0) return 0;
  return threeDigits(intervals.reduce((sum, interval) => sum + interval.bitsPerSecond, 0) / intervals.length);
}

/**
 * The options of the test as far as the output tells them, within iperf3's limits, so that a
 * re-run of the imported run asks for the same test: protocol, streams, direction, length,
 * reporting interval, warm-up and the UDP rate. Nothing else (window, length, congestion…).
 */
function optionsOf(result: IperfResult, jsonStart: unknown): IperfOptionsInput {
  const testStart = isObject(jsonStart) ? jsonStart.test_start : undefined;
  const { omitSeconds, measuredSeconds } = timesOf(result);
  const options: IperfOptionsInput = {
    protocol: result.protocol,
    parallel: clamp(Math.round(result.streams), IPERF_LIMITS.parallel),
    reverse: result.direction === "reverse",
    bidir: result.direction === "bidir",
  };
  const bytes = numberAt(testStart, "bytes") ?? 0;
  const blocks = numberAt(testStart, "blocks") ?? 0;
  const blockSize = numberAt(testStart, "blksize") ?? 0;
  const duration = numberAt(testStart, "duration") ?? 0;
  if (bytes > 0) options.bytes = clamp(Math.round(bytes), IPERF_LIMITS.bytes);
  // -k blocks: the same amount of data, as a byte count
  else if (blocks > 0 && blockSize > 0) options.bytes = clamp(Math.round(blocks * blockSize), IPERF_LIMITS.bytes);
  else options.duration = clamp(Math.round(duration > 0 ? duration : measuredSeconds), IPERF_LIMITS.duration);
  const first = result.intervals[0];
  if (first) options.interval = clamp(Math.round((first.end - first.start) * 10) / 10, IPERF_LIMITS.interval);
  const omit = numberAt(testStart, "omit") ?? Math.round(omitSeconds);
  // omit must be shorter than the duration for the schema (and for iperf3 to measure anything)
  const longestOmit = options.duration === undefined ? IPERF_LIMITS.omit.max : options.duration - 1;
  const clampedOmit = Math.min(clamp(Math.round(omit), IPERF_LIMITS.omit), longestOmit);
  if (clampedOmit > 0) options.omit = clampedOmit;
  if (result.protocol === "udp")
    options.bitrate = clamp(udpBitrate(result, testStart, jsonStart), IPERF_LIMITS.bitrate);
  return options;
}

function statusOf(result: IperfResult): ImportedRun["status"] {
  if (result.interrupted || result.error?.kind === "interrupted") return "interrupted";
  if (result.error) return "failed";
  // intervals but no summary and no error: the output was cut off before iperf3's end (a partial result)
  if (result.summary === null && result.reverseSummary === null) return "interrupted";
  return "succeeded";
}

/** The start time a JSON output records (`start.timestamp.timesecs`), when it is a real one. */
function jsonStartTime(jsonStart: unknown): Date | null {
  const seconds = numberAt(jsonStart, "timestamp", "timesecs");
  if (seconds === undefined || seconds <= 0) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** One output → the run it becomes (see ImportedRun), or why it cannot be imported. */
export function readImport(input: ReadImportInput): ReadImportResult {
  // before any parsing: binary and terminal control sequences are refused as they are
  const withoutBom = input.text.charCodeAt(0) === 0xfeff ? input.text.slice(1) : input.text;
  const notText = notTextError(withoutBom);
  if (notText) return { ok: false, error: notText };

  const text = normalizeImportText(withoutBom);
  const result = parseIperfOutput(text);
  let jsonStart: unknown;
  let isBrokenJson = false;
  if (result.format === "json") {
    const document = jsonDocumentOf(text);
    jsonStart = document?.start;
    isBrokenJson = document === null;
  } else if (result.format === "json-stream") {
    const stream = jsonStreamStartOf(text);
    jsonStart = stream.start;
    // an error event is iperf3's own answer, even beside a broken line
    isBrokenJson = stream.hasBrokenLine && result.error === null;
  }
  if (!hasMeasured(result)) return { ok: false, error: nothingMeasuredError(result, isBrokenJson, text.length) };

  // Clamped to iperf3's limits above, so this holds; if a later, stricter schema refuses them, the
  // output is reported rather than the batch failing.
  const parsedOptions = IperfOptionsSchema.safeParse(optionsOf(result, jsonStart));
  if (!parsedOptions.success) {
    const issue = parsedOptions.error.issues[0];
    return {
      ok: false,
      error: {
        kind: "unreadable",
        message:
          `the test's options read from the output are not valid: ${issue?.path.join(".") || "options"} ${issue?.message ?? ""}`.trim(),
      },
    };
  }
  const options = parsedOptions.data;
  const outputTime = jsonStartTime(jsonStart);
  const startedAt = outputTime ?? input.startedAt ?? input.now;
  const { omitSeconds, measuredSeconds } = timesOf(result);
  const endedAt = new Date(startedAt.getTime() + Math.round((omitSeconds + measuredSeconds) * 1000));
  const side = decideClientSide({
    addresses: outputAddresses(result.format, text, jsonStart),
    role: result.role,
    linkAddresses: input.linkAddresses,
    given: input.clientSide,
  });
  return {
    ok: true,
    run: {
      hash: importHash(text),
      format: result.format,
      role: result.role,
      clientSide: side.clientSide,
      clientSideFrom: side.clientSideFrom,
      options,
      status: statusOf(result),
      startedAt,
      endedAt,
      timeFrom: outputTime ? "output" : "given",
      version: result.version ?? null,
      summary: result.summary,
      reverseSummary: result.reverseSummary,
      interrupted: result.interrupted,
      cpu: result.cpu,
      intervals: result.intervals,
      error: result.error,
      text,
    },
  };
}
