// Pure: splits a byte stream into lines as chunks arrive, without keeping more than one partial line.
import { StringDecoder } from "node:string_decoder";

export type LineSplitter = {
  push(chunk: Buffer | string): void;
  /** emits the last line when it had no final newline; call once at the end */
  flush(): void;
};

/** Calls onLine for every complete line (split on \n, trailing \r removed); flush() emits the rest. */
export function createLineSplitter(onLine: (line: string) => void): LineSplitter {
  // A StringDecoder keeps a UTF-8 character split across two chunks whole.
  const decoder = new StringDecoder("utf8");
  let partial = "";
  const emit = (line: string) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  const take = (text: string) => {
    partial += text;
    let newline = partial.indexOf("\n");
    while (newline !== -1) {
      emit(partial.slice(0, newline));
      partial = partial.slice(newline + 1);
      newline = partial.indexOf("\n");
    }
  };
  return {
    push(chunk) {
      take(typeof chunk === "string" ? chunk : decoder.write(chunk));
    },
    flush() {
      take(decoder.end());
      if (partial !== "") emit(partial);
      partial = "";
    },
  };
}

// CSI sequences (colours, cursor moves, "erase line"), OSC sequences (window titles) and lone
// control characters that a pseudo-terminal may put around a program's output (ConPTY on Windows does).
const TERMINAL_ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/** A line as printed, without what a terminal would have drawn it with. */
export function stripTerminalEscapes(line: string): string {
  return line.replace(TERMINAL_ESCAPES, "");
}
