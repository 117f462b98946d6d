import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HOSTILE_TEXT } from "@/testing/hostile-values";
import {
  bsdPing,
  busyboxPing,
  iputilsPing,
  MAX_PING_COUNT,
  parsePosixPingLine,
  parseWindowsPingLine,
  windowsPingSupport,
  WINDOWS_BELOW_1MS,
} from "./ping";
import { parsePidLine } from "./process";
import type { PingSupport } from "./types";
import { cmdCommand } from "./windows";

const windowsPing = windowsPingSupport(cmdCommand);

/** The lines of a fixture as ping printed them: the comment lines on top and, in a timed one, the times dropped. */
function pingFixtureLines(name: string): string[] {
  const text = fs.readFileSync(path.join(__dirname, "fixtures", "ping", name), "utf8");
  const lines = text
    .split("\n")
    .filter((line, index, all) => !(line.startsWith("# ") && all.slice(0, index).every((l) => l.startsWith("# "))));
  return name.includes(".timed.") ? lines.filter((l) => l !== "").map((l) => l.slice(l.indexOf("\t") + 1)) : lines;
}

/** What a parser makes of a fixture: the lines it did not return null for. */
function parsed(name: string, parse: PingSupport["parseLine"]) {
  return pingFixtureLines(name)
    .map(parse)
    .filter((line) => line !== null);
}

const replies = (seqs: number[]) => seqs.map((seq) => ({ seq, rttMs: expect.any(Number) as number }));
const lost = (seq: number) => ({ seq, rttMs: null });

describe("parsePosixPingLine", () => {
  it("reads iputils replies (captured), sequence numbers from 1, and nothing from the header or statistics", () => {
    const lines = parsed("iputils-loopback.txt", parsePosixPingLine);
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines[0]).toEqual({ seq: 1, rttMs: 0.039 });
    expect(parsed("iputils-ipv6.txt", parsePosixPingLine)).toEqual(replies([1, 2, 3, 4, 5]));
  });

  it("reads iputils' -O lines for requests unanswered so far, and its own errors, as losses (captured)", () => {
    expect(parsed("iputils-loss.timed.txt", parsePosixPingLine)).toEqual([
      ...replies([1, 2, 3, 4]),
      lost(5),
      lost(6),
      lost(7),
      ...replies([8, 9, 10, 11, 12]),
    ]);
    const unreachable = parsed("iputils-unreachable.timed.txt", parsePosixPingLine);
    expect(unreachable).toContainEqual(lost(6));
    expect(
      pingFixtureLines("iputils-unreachable.timed.txt")
        .filter((l) => l.includes("Destination Host Unreachable"))
        .map(parsePosixPingLine),
    ).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17].map(lost));
    // The requests queued behind the failed ARP were answered, late: a second and more.
    expect(unreachable).toContainEqual({ seq: 18, rttMs: 1013 });
  });

  it("reads rounded round-trip times under a deep queue (captured)", () => {
    const lines = parsed("iputils-bufferbloat.timed.txt", parsePosixPingLine);
    expect(lines).toContainEqual({ seq: 27, rttMs: 89.6 });
    expect(lines).toContainEqual({ seq: 12, rttMs: 368 });
    expect(lines.filter((l) => l.rttMs !== null).map((l) => l.seq)).toEqual(
      Array.from({ length: 45 }, (_, i) => i + 1),
    );
  });

  it("reads BusyBox replies (captured): seq=N from 0, nothing for a loss", () => {
    expect(parsed("busybox-loopback.txt", parsePosixPingLine)).toEqual(replies([0, 1, 2, 3, 4]));
    expect(parsed("busybox-ipv6.txt", parsePosixPingLine)[0]).toEqual({ seq: 0, rttMs: 0.055 });
    expect(parsed("busybox-loss.timed.txt", parsePosixPingLine)).toEqual(replies([0, 1, 2, 3, 7, 8, 9, 10, 11]));
  });

  it("reads ESXi's vmkping (hand-written): icmp_seq=N from 0", () => {
    expect(parsed("esxi-vmkping.txt", parsePosixPingLine)).toEqual([
      { seq: 0, rttMs: 0.243 },
      { seq: 1, rttMs: 0.26 },
      { seq: 3, rttMs: 0.262 },
      { seq: 4, rttMs: 0.251 },
    ]);
  });

  it("reads macOS (hand-written): its request timeouts as losses, a duplicate as a reply of the same request", () => {
    const lines = parsed("macos.txt", parsePosixPingLine);
    expect(lines).toEqual([...replies([0, 1, 2]), lost(3), lost(4), ...replies([5, 6, 7, 7, 8, 9])]);
    expect(lines[6]).toEqual({ seq: 6, rttMs: 12.204 });
    expect(parsed("macos-ping6.txt", parsePosixPingLine)).toEqual([
      { seq: 0, rttMs: 0.512 },
      { seq: 1, rttMs: 0.487 },
      { seq: 2, rttMs: 0.53 },
      { seq: 3, rttMs: 0.498 },
    ]);
  });

  it("reads FreeBSD (hand-written): an error without a sequence number is no line of ours", () => {
    expect(parsed("freebsd.txt", parsePosixPingLine)).toEqual(replies([0, 1, 2, 4, 5]));
    expect(parsed("freebsd-ping6.txt", parsePosixPingLine)).toEqual([
      { seq: 0, rttMs: 0.112 },
      { seq: 1, rttMs: 0.095 },
      { seq: 2, rttMs: 0.101 },
    ]);
  });

  it("refuses lines that only look like replies", () => {
    expect(parsePosixPingLine("PING 198.18.0.2 (198.18.0.2) from 198.18.0.1 : 56(84) bytes of data.")).toBeNull();
    expect(parsePosixPingLine("rtt min/avg/max/mdev = 0.049/0.063/0.072/0.007 ms")).toBeNull();
    expect(parsePosixPingLine("64 bytes from 198.18.0.2: icmp_seq=1 ttl=64 (truncated)")).toBeNull();
    expect(parsePosixPingLine("")).toBeNull();
  });
});

describe("parseWindowsPingLine", () => {
  it("reads replies, time<1ms as half a millisecond, and every request without an echo as a loss (hand-written, CRLF)", () => {
    expect(parsed("windows.txt", parseWindowsPingLine).map((l) => l.rttMs)).toEqual([
      WINDOWS_BELOW_1MS,
      WINDOWS_BELOW_1MS,
      3,
      null,
      14,
      null,
      null,
      WINDOWS_BELOW_1MS,
    ]);
    expect(parsed("windows.txt", parseWindowsPingLine).every((l) => l.seq === null)).toBe(true);
  });

  it("reads IPv6 replies, which have no byte count or TTL (hand-written)", () => {
    expect(parsed("windows-ipv6.txt", parseWindowsPingLine)).toEqual([
      { seq: null, rttMs: 0.5 },
      { seq: null, rttMs: 2 },
      { seq: null, rttMs: null },
      { seq: null, rttMs: 0.5 },
    ]);
  });
});

const INPUT = { address: "198.18.0.2", source: "198.18.0.1", count: 75 };
const INPUT6 = { address: "fd00::2", source: "fd00::1", count: 75 };

describe("ping commands", () => {
  it("Linux: iputils with -O, the source address bound, behind the PID line and the channel watch", () => {
    const command = iputilsPing.command(INPUT);
    expect(command.argv.slice(0, 2)).toEqual(["sh", "-c"]);
    expect(command.argv.slice(3)).toEqual([
      "sh",
      "ping",
      "-n",
      "-O",
      "-i",
      "0.2",
      "-c",
      "75",
      "-I",
      "198.18.0.1",
      "198.18.0.2",
    ]);
    expect(command.argv[2]).toContain("wirespeed-pid");
    expect(command.keepStdinOpen).toBe(true);
    expect(iputilsPing.command(INPUT6).argv.slice(-2)).toEqual(["fd00::1", "fd00::2"]);
    expect(iputilsPing.intervalSeconds).toBe(0.2);
  });

  it("ESXi: BusyBox syntax, -6 for IPv6", () => {
    expect(busyboxPing.command(INPUT).argv.slice(3)).toEqual([
      "sh",
      "ping",
      "-c",
      "75",
      "-i",
      "0.2",
      "-I",
      "198.18.0.1",
      "198.18.0.2",
    ]);
    expect(busyboxPing.command(INPUT6).argv.slice(3)).toEqual([
      "sh",
      "ping",
      "-6",
      "-c",
      "75",
      "-i",
      "0.2",
      "-I",
      "fd00::1",
      "fd00::2",
    ]);
    expect(busyboxPing.command(INPUT).keepStdinOpen).toBe(true);
  });

  it("FreeBSD and macOS: -S for the source, ping6 for IPv6", () => {
    expect(bsdPing.command(INPUT).argv.slice(3)).toEqual([
      "sh",
      "ping",
      "-n",
      "-i",
      "0.2",
      "-c",
      "75",
      "-S",
      "198.18.0.1",
      "198.18.0.2",
    ]);
    expect(bsdPing.command(INPUT6).argv.slice(3)).toEqual([
      "sh",
      "ping6",
      "-n",
      "-i",
      "0.2",
      "-c",
      "75",
      "-S",
      "fd00::1",
      "fd00::2",
    ]);
  });

  it("Windows: cmd syntax, one request a second, each waited for 1 s", () => {
    const command = windowsPing.command(INPUT);
    expect(command.argv).toEqual(["ping", "-n", "75", "-w", "1000", "-S", "198.18.0.1", "198.18.0.2"]);
    expect(command.quote(command.argv)).toBe("ping -n 75 -w 1000 -S 198.18.0.1 198.18.0.2");
    expect(windowsPing.command(INPUT6).argv.slice(-2)).toEqual(["fd00::1", "fd00::2"]);
    expect(windowsPing.intervalSeconds).toBe(1);
  });

  const supports = { iputilsPing, busyboxPing, bsdPing, windowsPing };
  for (const [name, support] of Object.entries(supports)) {
    it(`${name}: refuses anything but an IP literal as either address, and a count out of range`, () => {
      const hostile = [
        ...HOSTILE_TEXT.map((c) => String(c.value)),
        "-f",
        "example.com",
        "198.18.0.2 -f",
        "198.18.0.256",
        "",
        "fe80::1%eth0;reboot",
      ];
      for (const value of hostile) {
        expect(() => support.command({ ...INPUT, address: value }), JSON.stringify(value)).toThrow(
          /address to ping must be an IPv4 or IPv6 address/,
        );
        expect(() => support.command({ ...INPUT, source: value }), JSON.stringify(value)).toThrow(
          /source address must be an IPv4 or IPv6 address/,
        );
      }
      for (const count of [0, -1, 1.5, Number.NaN, MAX_PING_COUNT + 1]) {
        expect(() => support.command({ ...INPUT, count }), String(count)).toThrow(/count must be a whole number/);
      }
      expect(support.command({ ...INPUT, address: "fe80::2%eth1", source: "fe80::1%eth1" }).argv).toContain(
        "fe80::2%eth1",
      );
    });
  }
});

/** Runs a command's line in sh with stdin open (as an SSH channel's is) until it exits; its stdout lines. */
async function runInSh(
  line: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ lines: string[]; status: number | null }> {
  const child = spawn("sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"], env });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  child.stdin.destroy();
  return { lines: stdout.split("\n").filter((l) => l !== ""), status };
}

describe("ping commands, run", () => {
  it("Linux: the real iputils ping on loopback prints its PID first, then lines the parser reads", async () => {
    const command = iputilsPing.command({ address: "127.0.0.1", source: "127.0.0.1", count: 3 });
    const { lines, status } = await runInSh(command.quote(command.argv));
    expect(status).toBe(0);
    expect(parsePidLine(lines[0]!)).toBeGreaterThan(1);
    expect(lines.map(parsePosixPingLine).filter((l) => l !== null)).toEqual(replies([1, 2, 3]));
  });

  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "ws-ping-"));
  afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));
  const fake = (name: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho ${name} "$@"\n`, { mode: 0o755 });
  fake("ping");
  const pathWith = (dir: string) => ({ ...process.env, PATH: `${dir}:/usr/bin:/bin` });

  it("ESXi: where vmkping exists (a real ESXi host), it runs without -I, whose argument it takes for a NIC name", async () => {
    const withVmkping = fs.mkdtempSync(path.join(bin, "esxi-"));
    fs.writeFileSync(path.join(withVmkping, "vmkping"), '#!/bin/sh\necho vmkping "$@"\n', { mode: 0o755 });
    for (const [input, expected] of [
      [INPUT, "vmkping -c 75 -i 0.2 198.18.0.2"],
      [INPUT6, "vmkping -6 -c 75 -i 0.2 fd00::2"],
    ] as const) {
      const command = busyboxPing.command(input);
      const { lines } = await runInSh(command.quote(command.argv), pathWith(withVmkping));
      expect(parsePidLine(lines[0]!)).toBeGreaterThan(1);
      expect(lines[1]).toBe(expected);
    }
  });

  it("ESXi: without vmkping (BusyBox, the lab's stand-in), ping gets every word, the source address too", async () => {
    const command = busyboxPing.command(INPUT);
    const { lines } = await runInSh(command.quote(command.argv), pathWith(bin));
    expect(lines[1]).toBe("ping -c 75 -i 0.2 -I 198.18.0.1 198.18.0.2");
  });
});
