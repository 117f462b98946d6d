import { describe, expect, it } from "vitest";
import { commandParts } from "./command-parts";

const texts = (line: string) => commandParts(line).map((part) => (part.isSpace ? "␣" : part.text));

describe("commandParts", () => {
  it("keeps each option with its value, flags alone, and the spaces between as they were", () => {
    const line = "iperf3 -s -1 -B 198.18.0.2 -p 5201 -i 1 --forceflush  -V";
    expect(texts(line)).toEqual([
      "iperf3",
      "␣",
      "-s",
      "␣",
      "-1",
      "␣",
      "-B 198.18.0.2",
      "␣",
      "-p 5201",
      "␣",
      "-i 1",
      "␣",
      "--forceflush",
      "␣",
      "-V",
    ]);
    expect(
      commandParts(line)
        .map((part) => part.text)
        .join(""),
    ).toBe(line);
  });

  it("keeps a quoted argument whole, spaces and escaped quotes in it", () => {
    const line = `'C:\\Program Files\\iperf3.exe' -c "fe80::1%eth 0" --logfile='/tmp/a b' -t 10 a\\ b`;
    expect(texts(line)).toEqual([
      "'C:\\Program Files\\iperf3.exe'",
      "␣",
      '-c "fe80::1%eth 0"',
      "␣",
      "--logfile='/tmp/a b'",
      "␣",
      "-t 10",
      "␣",
      "a\\ b",
    ]);
    expect(
      commandParts(line)
        .map((part) => part.text)
        .join(""),
    ).toBe(line);
  });

  it("gives back any text as it was, an unclosed quote and leading spaces too", () => {
    for (const line of ["", "  iperf3", "iperf3 -c 'host", "-p", "-p -1", "a \\"]) {
      expect(
        commandParts(line)
          .map((part) => part.text)
          .join(""),
      ).toBe(line);
    }
    expect(texts("-p -1")).toEqual(["-p", "␣", "-1"]);
  });
});
