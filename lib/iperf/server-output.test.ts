import { describe, expect, it } from "vitest";
import { createIperfParser } from "./parser";
import { createServerOutputSplitter } from "./server-output";

// A 3.12 client with --get-server-output against a text server, as printed (loopback, 2 s).
const TEXT_CLIENT = [
  "Connecting to host 127.0.0.1, port 5999",
  "[  5] local 127.0.0.1 port 36204 connected to 127.0.0.1 port 5999",
  "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
  "[  5]   0.00-1.00   sec  2.62 GBytes  22510541 Kbits/sec    7   1023 KBytes       ",
  "[  5]   1.00-2.00   sec  2.50 GBytes  21463665 Kbits/sec    0   1023 KBytes       ",
  "- - - - - - - - - - - - - - - - - - - - - - - - -",
  "Test Complete. Summary Results:",
  "[ ID] Interval           Transfer     Bitrate         Retr",
  "[  5]   0.00-2.00   sec  5.12 GBytes  21987122 Kbits/sec    7             sender",
  "[  5]   0.00-2.00   sec  5.11 GBytes  21963593 Kbits/sec                  receiver",
  "CPU Utilization: local/sender 19.9% (0.1%u/19.8%s), remote/receiver 77.4% (1.4%u/76.0%s)",
  "",
  "Server output:",
  "Accepted connection from 127.0.0.1, port 36198",
  "[  5] local 127.0.0.1 port 5999 connected to 127.0.0.1 port 36204",
  "[ ID] Interval           Transfer     Bitrate",
  "[  5]   0.00-1.00   sec  2.61 GBytes  22.5 Gbits/sec                  ",
  "[  5]   1.00-2.00   sec  2.50 GBytes  21.5 Gbits/sec                  ",
  "- - - - - - - - - - - - - - - - - - - - - - - - -",
  "[ ID] Interval           Transfer     Bitrate",
  "[  5]   0.00-2.00   sec  5.11 GBytes  22.0 Gbits/sec                  receiver",
  "",
  "",
  "iperf Done.",
];

function split(lines: string[]) {
  const splitter = createServerOutputSplitter();
  const client: string[] = [];
  const server: string[] = [];
  for (const line of lines) {
    const routed = splitter.push(line);
    if (routed.client !== null) client.push(routed.client);
    server.push(...routed.server);
  }
  return { client, server, hasServerOutput: splitter.hasServerOutput() };
}

describe("splitServerOutput", () => {
  it("keeps a text server's lines out of the client's, so its intervals do not count twice", () => {
    const { client, server, hasServerOutput } = split(TEXT_CLIENT);
    expect(hasServerOutput).toBe(true);
    expect(server[0]).toBe("Accepted connection from 127.0.0.1, port 36198");
    expect(client.at(-1)).toBe("iperf Done.");
    const parser = createIperfParser({ keepIntervals: true });
    client.forEach((line) => parser.push(line));
    const result = parser.end();
    expect(result.intervals).toHaveLength(2);
    expect(result.summary?.receiver?.bitsPerSecond).toBe(21_963_593_000);
    const serverResult = createIperfParser();
    server.forEach((line) => serverResult.push(line));
    expect(serverResult.end()).toMatchObject({ role: "server", summary: { receiver: { bitsPerSecond: 22.0e9 } } });
  });

  it("takes a -J server's document as the server's", () => {
    const { client, server } = split([
      "[  5]   0.00-1.00   sec  2.85 GBytes  24420086 Kbits/sec                  receiver",
      "",
      "Server JSON output:",
      "{",
      '\t"start":\t{}',
      "}",
      "",
      "iperf Done.",
    ]);
    expect(server).toEqual(["{", '\t"start":\t{}', "}", ""]);
    expect(client).toContain("iperf Done.");
  });

  it("reads a --json-stream client's server_output_text event into the server's lines", () => {
    const { client, server } = split([
      '{"event":"interval","data":{}}',
      `{"event":"server_output_text","data":${JSON.stringify("Accepted connection from 198.18.0.1, port 1\n[  5] local\n")}}`,
      '{"event":"end","data":{}}',
    ]);
    expect(server).toEqual(["Accepted connection from 198.18.0.1, port 1", "[  5] local"]);
    expect(client).toEqual(['{"event":"interval","data":{}}', '{"event":"end","data":{}}']);
  });

  it("leaves a client without --get-server-output as it is", () => {
    const { client, server, hasServerOutput } = split(TEXT_CLIENT.slice(0, 11));
    expect(client).toEqual(TEXT_CLIENT.slice(0, 11));
    expect(server).toEqual([]);
    expect(hasServerOutput).toBe(false);
  });
});
