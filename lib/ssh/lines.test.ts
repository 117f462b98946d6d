import { describe, expect, it } from "vitest";
import { createLineSplitter } from "./lines";

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
