// What a client started with --get-server-output prints of its server: after its own summary, a text
// client prints "Server output:" (a text server's lines) or "Server JSON output:" (a -J server's
// document) up to its "iperf Done."; a --json-stream client (3.17+) sends one `server_output_text` or
// `server_output_json` event. Those lines are the server's, not the client's: read as the client's,
// a text server's intervals and summary would count twice. Pure: the run engine routes each line.

/** Where one line of the client's output goes: to the client's own parser and log, or to the server's. */
export type SplitLine = { client: string | null; server: string[] };

export type ServerOutputSplitter = {
  /** One line of the client's output, without its newline. */
  push(line: string): SplitLine;
  /** Whether the client has printed any of the server's output. */
  hasServerOutput(): boolean;
};

const TEXT_HEADERS = new Set(["Server output:", "Server JSON output:"]);
const STREAM_EVENTS = new Set(["server_output_text", "server_output_json"]);

/** The server's lines in a --json-stream event, or null when the line is not one. */
function serverLinesOfEvent(line: string): string[] | null {
  if (!line.startsWith('{"event"')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { event, data } = parsed as { event?: unknown; data?: unknown };
  if (typeof event !== "string" || !STREAM_EVENTS.has(event)) return null;
  const text = typeof data === "string" ? data : JSON.stringify(data, null, 2);
  return text.replace(/\n+$/, "").split("\n");
}

export function createServerOutputSplitter(): ServerOutputSplitter {
  let isInServerOutput = false;
  let hasServerOutput = false;
  return {
    push(rawLine) {
      const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
      const fromEvent = serverLinesOfEvent(line);
      if (fromEvent) {
        hasServerOutput = true;
        return { client: null, server: fromEvent };
      }
      if (!isInServerOutput && TEXT_HEADERS.has(line.trim())) {
        isInServerOutput = true;
        hasServerOutput = true;
        return { client: line, server: [] };
      }
      // The client's last line ends the server's part (an error line too: the server's output never names iperf3 so).
      if (isInServerOutput && (line.trim() === "iperf Done." || line.startsWith("iperf3: "))) {
        isInServerOutput = false;
        return { client: line, server: [] };
      }
      return isInServerOutput ? { client: null, server: [line] } : { client: line, server: [] };
    },
    hasServerOutput: () => hasServerOutput,
  };
}
