import { describe, expect, it } from "vitest";
import { createLineSplitter, stripTerminalEscapes } from "./lines";

function split(chunks: (string | Buffer)[]): string[] {
  const lines: string[] = [];
  const splitter = createLineSplitter((l) => lines.push(l));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.flush();
  return lines;
}

describe("createLineSplitter", () => {
  it("emits lines as soon as their newline arrives, across chunk boundaries", () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((l) => lines.push(l));
    splitter.push("a\nb");
    expect(lines).toEqual(["a"]);
    splitter.push("c\n\nd");
    expect(lines).toEqual(["a", "bc", ""]);
    splitter.flush();
    expect(lines).toEqual(["a", "bc", "", "d"]);
  });

  it("strips \\r of CRLF lines and keeps a UTF-8 character split across chunks whole", () => {
    const euro = Buffer.from("€\r\n");
    expect(split([euro.subarray(0, 1), euro.subarray(1, 3), euro.subarray(3)])).toEqual(["€"]);
    expect(split(["x\r\ny\r\n"])).toEqual(["x", "y"]);
  });

  it("emits nothing for empty output and no extra line after a final newline", () => {
    expect(split([])).toEqual([]);
    expect(split(["one\n"])).toEqual(["one"]);
  });
});

describe("stripTerminalEscapes", () => {
  it("removes what a pseudo-terminal draws around a line, and keeps the line", () => {
    const line = "[  4]   0.00-1.00   sec   110 MBytes   923 Mbits/sec";
    expect(stripTerminalEscapes(`\x1b[2K\x1b[1G${line}\x1b[0m`)).toBe(line);
    expect(stripTerminalEscapes(`\x1b]0;C:\\Windows\\system32\\cmd.exe\x07${line}`)).toBe(line);
    expect(stripTerminalEscapes(`\x1b[?25l${line}\x1b[?25h`)).toBe(line);
    expect(stripTerminalEscapes(line)).toBe(line);
  });
});
