// The import reader on recorded outputs: every fixture of lib/iperf, the seed's outputs as a user
// pastes them, outputs of both ends of one test on their own addresses, and hostile text.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IperfOptionsSchema, parseIperfOutput } from "@/lib/iperf";
import { normalizeAddress, textAddresses } from "./addresses";
import type { ImportedRun, ReadImportInput, ReadImportResult } from "./contract";
import { importHash, normalizeImportText, readImport } from "./read";

const IPERF_FIXTURES = new URL("../iperf/fixtures/", import.meta.url);
const FIXTURES = new URL("./fixtures/", import.meta.url);
const MiB = 1024 ** 2;
const NOW = new Date("2026-12-01T10:00:00Z");
const NO_LINK = { a: [], b: [] };

const readIperfFixture = (file: string) => readFileSync(new URL(file, IPERF_FIXTURES), "utf8");
const readFixture = (file: string) => readFileSync(new URL(file, FIXTURES), "utf8");

function read(text: string, input: Partial<ReadImportInput> = {}): ReadImportResult {
  return readImport({ text, linkAddresses: NO_LINK, now: NOW, ...input });
}

function imported(text: string, input: Partial<ReadImportInput> = {}): ImportedRun {
  const result = read(text, input);
  if (!result.ok) throw new Error(`not imported: ${result.error.kind}: ${result.error.message}`);
  return result.run;
}

function failure(text: string, input: Partial<ReadImportInput> = {}) {
  const result = read(text, input);
  if (result.ok) throw new Error("imported, but should have failed");
  return result.error;
}

type ManifestEntry = { file: string };
const manifest = JSON.parse(readIperfFixture("manifest.json")) as { real: ManifestEntry[]; static: ManifestEntry[] };
const manifestFiles = [...manifest.real, ...manifest.static].map((entry) => entry.file);

/**
 * Each output of lib/iperf's fixtures as a user would have it in one file: stdout with the stderr
 * printed after it (as a terminal shows them); an error alone where iperf3 printed nothing else.
 */
const outputs = manifestFiles
  .filter((file) => !file.includes(".stderr.") || !manifestFiles.includes(file.replace(".stderr.", ".stdout.")))
  .map((file) => {
    const stderrFile = file.replace(".stdout.", ".stderr.");
    const hasStderr = file.includes(".stdout.") && existsSync(new URL(stderrFile, IPERF_FIXTURES));
    const stdout = readIperfFixture(file);
    const stderr = hasStderr ? readIperfFixture(stderrFile) : undefined;
    // what lib/iperf's tests read it as: the parser's own view of the same output
    const expected = file.includes(".stderr.") ? parseIperfOutput("", stdout) : parseIperfOutput(stdout, stderr);
    return { file, text: stderr === undefined ? stdout : `${stdout}\n${stderr}`, expected };
  });
const isMeasured = (result: (typeof outputs)[number]["expected"]) =>
  result.intervals.length > 0 || result.summary !== null || result.reverseSummary !== null;

describe("every output fixture of lib/iperf", () => {
  const measured = outputs.filter((output) => isMeasured(output.expected));
  const errorOnly = outputs.filter((output) => !isMeasured(output.expected));

  it("covers the manifest: outputs that measured and outputs that are only an error", () => {
    expect(measured.length).toBeGreaterThanOrEqual(60);
    const failed = errorOnly.map((output) => output.file);
    for (const file of [
      "real/refused.client.stderr.txt",
      "real/busy.client.stderr.txt",
      "real/refused-json.client.stdout.txt",
      "hand-written/3.17-json-stream-refused.client.stdout.txt",
      "seed/000-esxi-listener-failed.server.stderr.txt",
    ]) {
      expect(failed).toContain(file);
    }
  });

  it.each(measured)("$file imports with the parser's figures and valid options", ({ text, expected }) => {
    const run = imported(text);
    expect(run).toMatchObject({
      format: expected.format,
      role: expected.role,
      version: expected.version ?? null,
      summary: expected.summary,
      reverseSummary: expected.reverseSummary,
      interrupted: expected.interrupted,
      cpu: expected.cpu,
      error: expected.error,
    });
    expect(run.intervals).toEqual(expected.intervals);
    expect(IperfOptionsSchema.parse(run.options)).toEqual(run.options);
    expect(run.options).toMatchObject({
      protocol: expected.protocol,
      reverse: expected.direction === "reverse",
      bidir: expected.direction === "bidir",
      parallel: expected.streams,
    });
    expect(run.hash).toBe(createHash("sha256").update(run.text).digest("hex"));
    expect(run.endedAt.getTime()).toBeGreaterThan(run.startedAt.getTime());
    const status =
      expected.interrupted || expected.error?.kind === "interrupted"
        ? "interrupted"
        : expected.error
          ? "failed"
          : expected.summary
            ? "succeeded"
            : "interrupted";
    expect(run.status).toBe(status);
  });

  it.each(errorOnly)("$file is a failed entry with iperf3's message, or not iperf3", ({ text, expected }) => {
    const error = failure(text);
    if (expected.error) expect(error).toEqual({ kind: "iperf3-error", message: expected.error.message });
    else expect(error.kind).toBe("not-iperf3");
  });

  it("names iperf3's own messages for refused, busy and a missing binary", () => {
    expect(failure(readIperfFixture("real/refused.client.stderr.txt"))).toEqual({
      kind: "iperf3-error",
      message: "iperf3: error - unable to connect to server: Connection refused",
    });
    expect(failure(readIperfFixture("real/busy.client.stderr.txt")).message).toContain("the server is busy");
    expect(failure(readIperfFixture("real/refused-json.client.stdout.txt"))).toEqual({
      kind: "iperf3-error",
      message: "unable to connect to server: Connection refused",
    });
    expect(failure(readIperfFixture("hand-written/windows-cmd-not-recognized.client.stderr.txt")).message).toContain(
      "is not recognized",
    );
  });

  it("keeps a test that failed after some intervals as failed, with its error and intervals", () => {
    const run = imported(
      `${readIperfFixture("real/timeout.client.stdout.txt")}\n${readIperfFixture("real/timeout.client.stderr.txt")}`,
    );
    expect(run.status).toBe("failed");
    expect(run.error?.kind).toBe("timeout");
    expect(run.intervals.length).toBeGreaterThanOrEqual(1);
    expect(run.options.reverse).toBe(true);
  });
});

describe("options read from the output", () => {
  const options = (file: string) => imported(readIperfFixture(file)).options;

  it("reads streams, direction, duration and interval from text", () => {
    expect(options("real/tcp-1.client.stdout.txt")).toEqual({
      protocol: "tcp",
      parallel: 1,
      reverse: false,
      bidir: false,
      duration: 3,
      interval: 1,
      zerocopy: false,
    });
    expect(options("real/tcp-4.server.stdout.txt")).toMatchObject({ parallel: 4, duration: 3 });
    expect(options("real/tcp-reverse.client.stdout.txt")).toMatchObject({ reverse: true, bidir: false });
    expect(options("real/tcp-bidir-2.client.stdout.txt")).toMatchObject({ bidir: true, reverse: false, parallel: 2 });
    expect(options("real/tcp-interval-0.5.client.stdout.txt")).toMatchObject({ interval: 0.5, duration: 3 });
    // -n 300M: text does not say the test ran by bytes; its 2.52 s round to 3
    expect(options("real/tcp-bytes.client.stdout.txt")).toMatchObject({ duration: 3 });
    expect(options("real/tcp-bytes.client.stdout.txt").bytes).toBeUndefined();
  });

  it("reads -O from the omitted intervals of text, and from test_start of JSON", () => {
    expect(options("real/tcp-omit.client.stdout.txt")).toMatchObject({ omit: 2, duration: 3 });
    expect(options("real/tcp-omit.server.stdout.txt")).toMatchObject({ omit: 2, duration: 3 });
    const run = imported(readFixture("real/json-udp-omit.client.txt"));
    expect(run.options).toMatchObject({ protocol: "udp", omit: 1, duration: 2, bitrate: 50_000_000 });
    // the warm-up second counts in the test's length
    expect((run.endedAt.getTime() - run.startedAt.getTime()) / 1000).toBeCloseTo(3, 2);
  });

  it("takes the UDP bitrate from JSON's target, else the sender's rate to 3 digits", () => {
    expect(options("real/json-udp.client.stdout.txt")).toMatchObject({ protocol: "udp", bitrate: 100_000_000 });
    expect(options("real/json-udp.server.stdout.txt")).toMatchObject({ protocol: "udp", bitrate: 100_000_000 });
    const text = readIperfFixture("real/udp-1.client.stdout.txt");
    const sender = parseIperfOutput(text).summary?.sender?.bitsPerSecond ?? 0;
    expect(sender).toBeGreaterThan(0);
    expect(options("real/udp-1.client.stdout.txt").bitrate).toBe(Number(sender.toPrecision(3)));
    // a 3.1.3 client: 498 Mbits/sec
    expect(options("hand-written/3.1.3-udp.client.stdout.txt").bitrate).toBe(498_000_000);
  });

  it("reads a JSON test by bytes as bytes, and a JSON duration as it was asked", () => {
    expect(options("real/interrupted-json.client.stdout.txt")).toMatchObject({ duration: 30 });
    const document = JSON.parse(readIperfFixture("real/json-tcp.client.stdout.txt")) as {
      start: { test_start: Record<string, number> };
    };
    document.start.test_start.bytes = 300 * MiB;
    document.start.test_start.duration = 0;
    const byBytes = imported(JSON.stringify(document, null, 1)).options;
    expect(byBytes.bytes).toBe(300 * MiB);
    expect(byBytes.duration).toBeUndefined();
  });

  it("clamps what iperf3's limits refuse: a run of more streams than 128 reads as 128", () => {
    const lines = readIperfFixture("real/tcp-1.client.stdout.txt").split("\n");
    const connected = lines.find((line) => line.includes("connected to"))!;
    const many = [lines[0], ...Array.from({ length: 130 }, () => connected), ...lines.slice(2)].join("\n");
    expect(imported(many).options.parallel).toBe(128);
  });
});

describe("the seed's outputs, as pasted (seeds/000_bfd366cd6fdfe746.txt)", () => {
  const seedLink = { a: ["192.168.0.10", "10.0.0.10"], b: ["192.168.0.40", "10.0.0.40"] };

  it("imports the 1G run: 917 Mbit/s received, 1000 MBytes over 9.15 s", () => {
    const text = readFixture("seed/000-windows-n1000M.pasted.txt");
    // the paste starts with the command line the author typed
    expect(text.split("\n")[0]).toBe("iperf3.exe -n 1000M -c 192.168.0.40");
    const run = imported(text, { linkAddresses: seedLink, startedAt: new Date("2024-03-02T20:00:00Z") });
    expect(run.summary?.receiver).toEqual({ start: 0, end: 9.15, bytes: 1_048_576_000, bitsPerSecond: 917e6 });
    expect(run).toMatchObject({
      format: "text",
      role: "client",
      status: "succeeded",
      version: null,
      clientSide: "a",
      clientSideFrom: "addresses",
      timeFrom: "given",
    });
    expect(run.intervals).toHaveLength(10);
    expect(run.options).toEqual({
      protocol: "tcp",
      parallel: 1,
      reverse: false,
      bidir: false,
      duration: 9,
      interval: 1,
      zerocopy: false,
    });
    expect(run.startedAt.toISOString()).toBe("2024-03-02T20:00:00.000Z");
    expect(run.endedAt.toISOString()).toBe("2024-03-02T20:00:09.150Z");
  });

  it("reads each paste as lib/iperf reads the output cut from the same lines", () => {
    for (const name of ["000-windows-n1000M", "000-windows-n5000M", "000-windows-P5-interrupted"]) {
      const run = imported(readFixture(`seed/${name}.pasted.txt`));
      const cut = parseIperfOutput(readIperfFixture(`seed/${name}.client.stdout.txt`));
      expect(run.summary, name).toEqual(cut.summary);
      expect(run.intervals, name).toEqual(cut.intervals);
      expect(run.error, name).toEqual(cut.error);
    }
  });

  it("imports the 5G run and the interrupted -P 5 run", () => {
    const fiveG = imported(readFixture("seed/000-windows-n5000M.pasted.txt"), { linkAddresses: seedLink });
    expect(fiveG.summary?.receiver).toMatchObject({ end: 19.19, bitsPerSecond: 2.19e9 });
    expect(fiveG.options).toMatchObject({ duration: 19, parallel: 1 });
    expect(fiveG.clientSide).toBe("a");
    const interrupted = imported(readFixture("seed/000-windows-P5-interrupted.pasted.txt"), {
      linkAddresses: seedLink,
    });
    expect(interrupted).toMatchObject({
      status: "interrupted",
      interrupted: true,
      clientSide: "a",
      clientSideFrom: "addresses",
    });
    expect(interrupted.error?.message).toBe("iperf3: interrupt - the client has terminated");
    expect(interrupted.options).toMatchObject({ parallel: 5, duration: 9 });
    expect(interrupted.summary?.sender).toMatchObject({ end: 8.58, bitsPerSecond: 4.73e9 });
  });

  it("marks a paste cut before iperf3's summary interrupted, with the intervals it has", () => {
    const lines = readFixture("seed/000-windows-n1000M.pasted.txt").split("\n");
    const cut = lines.slice(0, lines.findIndex((line) => line.includes("5.00-6.00")) + 1).join("\n");
    const run = imported(cut);
    expect(run).toMatchObject({ status: "interrupted", summary: null, error: null });
    expect(run.intervals).toHaveLength(6);
    expect(run.options.duration).toBe(6);
  });
});

describe("which end ran the client", () => {
  const loopbackLink = { a: ["127.0.0.2"], b: ["127.0.0.1"] };
  const swapped = { a: ["127.0.0.1"], b: ["127.0.0.2"] };
  const sideOf = (file: string, linkAddresses: ReadImportInput["linkAddresses"], clientSide?: "a" | "b") => {
    const run = imported(readFixture(file), { linkAddresses, clientSide });
    return { clientSide: run.clientSide, clientSideFrom: run.clientSideFrom };
  };

  it.each(["tcp", "tcp-reverse", "json-tcp", "json-udp-omit"])(
    "the client's and the server's output of %s agree",
    (name) => {
      for (const end of ["client", "server"]) {
        expect(sideOf(`real/${name}.${end}.txt`, loopbackLink), end).toEqual({
          clientSide: "a",
          clientSideFrom: "addresses",
        });
        expect(sideOf(`real/${name}.${end}.txt`, swapped), end).toEqual({
          clientSide: "b",
          clientSideFrom: "addresses",
        });
      }
    },
  );

  it("reads a -R client as the client, though the data came from the server", () => {
    const run = imported(readFixture("real/tcp-reverse.client.txt"), { linkAddresses: swapped });
    expect(run).toMatchObject({ role: "client", clientSide: "b", options: { reverse: true } });
    const server = imported(readFixture("real/tcp-reverse.server.txt"), { linkAddresses: swapped });
    expect(server).toMatchObject({ role: "server", clientSide: "b", options: { reverse: true } });
  });

  it("falls back to the given side, default a, when the addresses are not the link's", () => {
    const elsewhere = { a: ["198.18.0.1"], b: ["198.18.0.2"] };
    expect(sideOf("real/tcp.client.txt", elsewhere)).toEqual({ clientSide: "a", clientSideFrom: "given" });
    expect(sideOf("real/tcp.server.txt", elsewhere, "b")).toEqual({ clientSide: "b", clientSideFrom: "given" });
    expect(sideOf("real/tcp.server.txt", NO_LINK, "b")).toEqual({ clientSide: "b", clientSideFrom: "given" });
  });

  it("falls back when one address is on both ends (loopback), as the output cannot tell them apart", () => {
    expect(sideOf("real/ipv6-loopback.client.txt", { a: ["::1"], b: ["fd00::2"] }, "b")).toEqual({
      clientSide: "b",
      clientSideFrom: "given",
    });
    expect(imported(readIperfFixture("real/tcp-1.client.stdout.txt"), { linkAddresses: swapped }).clientSideFrom).toBe(
      "given",
    );
  });

  it("compares IPv6 addresses as addresses, whatever their spelling", () => {
    const link = { a: ["fd00:18:0::1"], b: ["FD00:18::2"] };
    expect(sideOf("hand-written/ipv6.client.txt", link)).toEqual({ clientSide: "a", clientSideFrom: "addresses" });
    expect(sideOf("hand-written/ipv6.server.txt", link)).toEqual({ clientSide: "a", clientSideFrom: "addresses" });
    expect(sideOf("hand-written/ipv6.server.txt", { a: ["fd00:18::2"], b: [] })).toEqual({
      clientSide: "b",
      clientSideFrom: "addresses",
    });
  });

  it("strips ::ffff: from the v4-mapped addresses of a dual-stack server", () => {
    expect(sideOf("hand-written/v4-mapped-3.0.server.txt", { a: ["198.18.0.1"], b: ["198.18.0.2"] })).toEqual({
      clientSide: "a",
      clientSideFrom: "addresses",
    });
    expect(sideOf("hand-written/v4-mapped-3.0.server.txt", { a: ["198.18.0.2"], b: [] })).toEqual({
      clientSide: "b",
      clientSideFrom: "addresses",
    });
  });

  it("reads the addresses of every text form: 3.1 Windows collapsed, a 3.1.3 server, -T and --timestamps prefixes", () => {
    expect(textAddresses(readIperfFixture("seed/000-windows-n1000M.client.stdout.txt"))).toEqual({
      local: "192.168.0.10",
      remote: "192.168.0.40",
    });
    expect(textAddresses(readIperfFixture("hand-written/3.1.3-tcp.server.stdout.txt"))).toEqual({
      local: "192.168.1.40",
      remote: "192.168.1.10",
    });
    expect(textAddresses(readIperfFixture("real/tcp-title.client.stdout.txt"))).toEqual({
      local: "127.0.0.1",
      remote: "127.0.0.1",
    });
    expect(textAddresses(readIperfFixture("real/tcp-timestamps.client.stdout.txt"))).toEqual({
      local: "127.0.0.1",
      remote: "127.0.0.1",
    });
    // a server whose stream lines were not pasted: the client it accepted
    expect(textAddresses("Accepted connection from ::ffff:198.18.0.1, port 51022\n")).toEqual({
      local: null,
      remote: "198.18.0.1",
    });
    const seedClient = imported(readIperfFixture("hand-written/3.1.3-linux-tcp.client.stdout.txt"), {
      linkAddresses: { a: ["192.168.1.40"], b: ["192.168.1.10"] },
    });
    const seedServer = imported(readIperfFixture("hand-written/3.1.3-tcp.server.stdout.txt"), {
      linkAddresses: { a: ["192.168.1.40"], b: ["192.168.1.10"] },
    });
    expect([seedClient.clientSide, seedServer.clientSide]).toEqual(["b", "b"]);
  });

  it("normalizes addresses: zone, case, mapped IPv4, zero groups; refuses what is no IP literal", () => {
    expect(normalizeAddress("FE80::1%eth0")).toBe("fe80:0:0:0:0:0:0:1");
    expect(normalizeAddress("198.18.0.1/24")).toBe("198.18.0.1");
    expect(normalizeAddress("::ffff:198.18.0.1")).toBe("198.18.0.1");
    expect(normalizeAddress("::ffff:c612:1")).toBe("198.18.0.1");
    expect(normalizeAddress("fd00:0000::0001")).toBe(normalizeAddress("fd00::1"));
    expect(normalizeAddress("nas1.lan")).toBeNull();
    expect(normalizeAddress("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(normalizeAddress("198.18.0.256")).toBeNull();
  });
});

describe("the time of an imported run", () => {
  it("takes a -J document's own start time, whatever time was given", () => {
    const text = readIperfFixture("real/json-tcp.client.stdout.txt");
    const document = JSON.parse(text) as {
      start: { timestamp: { timesecs: number } };
      end: { sum_received: { end: number } };
    };
    const run = imported(text, { startedAt: new Date("2020-01-01T00:00:00Z") });
    expect(run.timeFrom).toBe("output");
    expect(run.startedAt.getTime()).toBe(document.start.timestamp.timesecs * 1000);
    expect(run.endedAt.getTime()).toBe(run.startedAt.getTime() + Math.round(run.intervals.at(-1)!.end * 1000));
  });

  it("takes a --json-stream start event's time", () => {
    const text = readIperfFixture("hand-written/3.17-json-stream-tcp.client.stdout.txt");
    const start = JSON.parse(text.split("\n")[0]!) as { data: { timestamp: { timesecs: number } } };
    const run = imported(text);
    expect(run).toMatchObject({ format: "json-stream", timeFrom: "output", version: "3.17.1" });
    expect(run.startedAt.getTime()).toBe(start.data.timestamp.timesecs * 1000);
  });

  it("gives a text output the time given, else now", () => {
    const text = readIperfFixture("real/tcp-1.client.stdout.txt");
    const given = new Date("2025-06-01T12:00:00Z");
    expect(imported(text, { startedAt: given })).toMatchObject({ startedAt: given, timeFrom: "given" });
    const now = imported(text);
    expect(now).toMatchObject({ startedAt: NOW, timeFrom: "given" });
    expect(now.endedAt.getTime() - NOW.getTime()).toBe(Math.round(now.summary!.sender!.end * 1000));
  });
});

describe("the hash of an output", () => {
  const text = readIperfFixture("real/tcp-4.client.stdout.txt");
  const hash = imported(text).hash;

  it("is the same with CRLF, CR, trailing blanks, blank lines at the end or a BOM", () => {
    const variants = {
      crlf: text.replace(/\n/g, "\r\n"),
      cr: text.replace(/\n/g, "\r"),
      "trailing blanks": text
        .split("\n")
        .map((line) => `${line} \t  `)
        .join("\n"),
      "blank lines at the end": `${text}\n\n  \n`,
      bom: `\uFEFF${text}`,
      "all of them": `\uFEFF${text
        .split("\n")
        .map((line) => `${line}  `)
        .join("\r\n")}\r\n\r\n`,
    };
    for (const [label, variant] of Object.entries(variants)) expect(imported(variant).hash, label).toBe(hash);
    expect(hash).toBe(importHash(normalizeImportText(text)));
  });

  it("differs when a figure differs, a blank line is added inside, or a line starts with blanks", () => {
    expect(imported(text.replace("sender", "sender\n")).hash).not.toBe(hash);
    expect(imported(text.replace(/(\d+) +sender/, (_, retr: string) => `${Number(retr) + 1} sender`)).hash).not.toBe(
      hash,
    );
    expect(imported(`  ${text}`).hash).not.toBe(hash);
  });

  it("keeps the normalized text as the run's output", () => {
    const run = imported(`\uFEFF${text.replace(/\n/g, "\r\n")}`);
    expect(run.text).toBe(
      text
        .split("\n")
        .map((line) => line.trimEnd())
        .join("\n")
        .trimEnd(),
    );
    expect(run.text).not.toContain("\r");
  });
});

describe("hostile text", () => {
  const output = readIperfFixture("real/tcp-1.client.stdout.txt");
  const withLine3 = (inserted: string) => {
    const lines = output.split("\n");
    lines[2] = `${lines[2]}${inserted}`;
    return lines.join("\n");
  };

  it("refuses 5 MB of lines that are no iperf3 output, without echoing them", () => {
    const line = "GET /index.html HTTP/1.1 200 5120 secret-token-4f9a";
    const huge = Array.from({ length: Math.ceil((5 * 1024 * 1024) / (line.length + 1)) }, () => line).join("\n");
    expect(huge.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    const error = failure(huge);
    expect(error).toEqual({
      kind: "not-iperf3",
      message:
        "no iperf3 test found: expected iperf3's interval lines or its summary (text, -J or --json-stream output)",
    });
  });

  it("refuses random bytes as binary", () => {
    const text = new TextDecoder().decode(randomBytes(64 * 1024));
    const error = failure(text);
    expect(error.kind).toBe("not-text");
    expect(error.message).toMatch(
      /^contains (a NUL byte|a control character|bytes that are not UTF-8 text) .*on line \d+/,
    );
    expect(error.message.length).toBeLessThan(200);
  });

  it("refuses invalid UTF-8 (U+FFFD) even where the rest is an iperf3 output", () => {
    const text = new TextDecoder().decode(Buffer.concat([Buffer.from(output), Buffer.from([0xff, 0xfe, 0x41])]));
    expect(failure(text)).toMatchObject({ kind: "not-text", message: expect.stringContaining("not UTF-8") });
  });

  it("refuses a NUL byte and names where it is", () => {
    expect(failure(withLine3("\u0000rm -rf"))).toEqual({
      kind: "not-text",
      message: "contains a NUL byte (0x00) on line 3: only iperf3's text, -J or --json-stream output can be imported",
    });
  });

  it("refuses terminal escape sequences: ESC, C1 CSI, DEL, BEL", () => {
    expect(failure(withLine3("\u001b[2J\u001b]0;owned\u0007"))).toEqual({
      kind: "not-text",
      message:
        "contains a control character (0x1b) on line 3: only iperf3's text, -J or --json-stream output can be imported",
    });
    expect(failure(withLine3("\u009b31m")).message).toContain("(0x9b) on line 3");
    expect(failure(withLine3("\u007f")).message).toContain("(0x7f) on line 3");
    expect(failure(`${output}\u0007`).message).toContain("(0x07) on line 13");
    // line numbers count CRLF once and a lone CR as a line end
    expect(failure(`a\r\nb\rc\u001b`).message).toContain("on line 3");
  });

  it("takes tabs, CRLF, a leading BOM and non-ASCII text (the seed's Chinese) as text", () => {
    const run = imported(`\uFEFF客户端为windows10\r\n${output.replace(/ {2}/g, "\t")}`);
    expect(run.intervals).toHaveLength(3);
  });

  it("reports a -J document cut off as unreadable, without echoing it", () => {
    const error = failure('{"start":');
    expect(error).toEqual({
      kind: "unreadable",
      message: "the iperf3 -J document is cut off or not valid JSON (9 characters): import the whole file",
    });
    const document = readIperfFixture("real/json-tcp.client.stdout.txt");
    const half = document.slice(0, Math.floor(document.length / 2));
    const cut = failure(half);
    expect(cut.kind).toBe("unreadable");
    expect(cut.message).not.toContain("{");
  });

  it("reports a --json-stream output cut off in its start event as unreadable", () => {
    const stream = readIperfFixture("hand-written/3.17-json-stream-tcp.client.stdout.txt");
    expect(failure(stream.slice(0, 200)).kind).toBe("unreadable");
    // cut after some intervals: what came is kept, as a partial result
    const lines = stream.split("\n");
    const run = imported(lines.slice(0, 3).join("\n"));
    expect(run).toMatchObject({ format: "json-stream", status: "interrupted", summary: null });
    expect(run.intervals).toHaveLength(2);
  });

  it("echoes no more than 300 characters of an over-long iperf3 error line", () => {
    const payload = "A".repeat(1024 * 1024);
    const error = failure(`iperf3: error - ${payload}`);
    expect(error.kind).toBe("iperf3-error");
    expect(error.message.length).toBeLessThanOrEqual(301);
    expect(error.message).not.toContain(payload);
  });

  it("refuses a JSON document that is no iperf3 output as not iperf3", () => {
    expect(failure('{"intervals": "nope", "end": {}}').kind).toBe("not-iperf3");
    expect(failure("[1, 2, 3]").kind).toBe("not-iperf3");
    expect(failure("   \n\t\n").kind).toBe("not-iperf3");
  });
});
