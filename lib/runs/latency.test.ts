import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { busyboxPing, iputilsPing, parseWindowsPingLine } from "@/agents/ping";
import type { PingSupport } from "@/agents/types";
import type { LatencySample } from "@/lib/diagnosis/contract";
import { bufferbloatGrade, LOSS_TIMEOUT_MS, percentile, PingTimeline, summarizeLatency } from "./latency";

const FIXTURES = path.resolve(__dirname, "../../agents/fixtures/ping");

/** A fixture's lines without its comment lines on top; a timed one's as [ms since the start, line]. */
function fixtureLines(name: string): string[] {
  const lines = fs.readFileSync(path.join(FIXTURES, name), "utf8").split("\n");
  return lines.slice(lines.findIndex((line) => !line.startsWith("# ")));
}
function timedLines(name: string): Array<[number, string]> {
  return fixtureLines(name)
    .filter((line) => line !== "")
    .map((line) => [Number(line.slice(0, line.indexOf("\t"))), line.slice(line.indexOf("\t") + 1)]);
}

function timelineOf(support: PingSupport, trafficStartMs: number) {
  return new PingTimeline({ intervalSeconds: support.intervalSeconds, parseLine: support.parseLine, trafficStartMs });
}

/** Pushes each line at its time, up to `endMs` (the traffic's end), then ends: every sample in order. */
function play(timeline: PingTimeline, lines: Array<[number, string]>, endMs: number): LatencySample[] {
  const samples = lines.filter(([atMs]) => atMs <= endMs).flatMap(([atMs, line]) => timeline.push(line, atMs));
  return [...samples, ...timeline.end(endMs)];
}

const isIncreasing = (values: number[]) => values.every((value, i) => i === 0 || value > values[i - 1]!);

describe("PingTimeline", () => {
  it("places each reply where its request was sent (captured under a deep queue): idle before the traffic, loaded after, none lost", () => {
    // iperf3 started through the queue at about 1.6 s; the traffic ends at 6.65 s.
    const samples = play(timelineOf(iputilsPing, 1600), timedLines("iputils-bufferbloat.timed.txt"), 6650);
    expect(samples).toHaveLength(33);
    expect(samples.filter((s) => s.rttMs === null)).toEqual([]);
    expect(samples.filter((s) => s.phase === "idle")).toHaveLength(8);
    // seq 1 arrived at 121 ms after 0.088 ms: sent 1.479 s before the traffic
    expect(samples[0]).toEqual({ t: -1.479, rttMs: 0.088, phase: "idle" });
    // seq 12 arrived at 2652 ms after 368 ms: sent at 2284 (its "no answer yet" line came first, and is no loss)
    expect(samples[11]).toEqual({ t: 0.684, rttMs: 368, phase: "loaded" });
    // One interval apart, within the lines' own delay, whatever the queue held each reply for: no drift,
    // no jump (the first line reached the recorder 20 ms late, hence its shorter gap).
    const gaps = samples.slice(2).map((s, i) => s.t - samples[i + 1]!.t);
    expect(Math.min(...gaps)).toBeGreaterThan(0.18);
    expect(Math.max(...gaps)).toBeLessThan(0.225);
  });

  it("counts a request as lost once a later reply comes (captured: iputils -O named them first)", () => {
    const timeline = timelineOf(iputilsPing, 0);
    const lines = timedLines("iputils-loss.timed.txt");
    const before = lines.filter(([atMs]) => atMs < 1458).flatMap(([atMs, line]) => timeline.push(line, atMs));
    expect(before.map((s) => s.rttMs)).toEqual([0.049, 0.06, 0.068, 0.07]);
    const atReply = timeline.push(lines.find(([atMs]) => atMs === 1458)![1], 1458);
    // 5, 6 and 7 at their "no answer yet" lines, an interval before each, then 8
    expect(atReply).toEqual([
      { t: 0.845, rttMs: null, phase: "loaded" },
      { t: 1.047, rttMs: null, phase: "loaded" },
      { t: 1.252, rttMs: null, phase: "loaded" },
      { t: 1.458, rttMs: 0.072, phase: "loaded" },
    ]);
  });

  it("counts a request lost after LOSS_TIMEOUT_MS without a reply, and a late reply within it (captured: ARP failed, then answered)", () => {
    const timeline = timelineOf(iputilsPing, 0);
    const lines = timedLines("iputils-unreachable.timed.txt");
    const emitted = lines.map(([atMs, line]) => ({ atMs, samples: timeline.push(line, atMs) }));
    const samples = [...emitted.flatMap((e) => e.samples), ...timeline.end(7800)];
    const summary = summarizeLatency(samples);
    // as ping itself counts: 35 transmitted, 23 received, 12 errors
    expect(summary).toMatchObject({ sent: 35, lost: 12 });
    expect(samples.filter((s) => s.rttMs === null).map((s) => s.t)).toEqual([
      1.051, 1.255, 1.459, 1.663, 1.867, 2.071, 2.275, 2.479, 2.683, 2.887, 3.091, 3.295,
    ]);
    // seq 6, named at 1251 (sent 1051), is settled by the first line 2 s later, at 3087, before any reply
    const firstLoss = emitted.find((e) => e.samples.some((s) => s.rttMs === null))!;
    expect(firstLoss.atMs).toBe(3087);
    expect(firstLoss.atMs - 1051).toBeGreaterThanOrEqual(LOSS_TIMEOUT_MS);
    // queued for a second behind the failed ARP, and still counted as replies
    expect(samples.filter((s) => s.rttMs !== null && s.rttMs > 100).map((s) => s.rttMs)).toEqual([
      1013, 808, 604, 400, 196,
    ]);
    expect(isIncreasing(samples.map((s) => s.t))).toBe(true);
  });

  it("finds the losses BusyBox does not print from the gap in its sequence numbers, placed between the replies around them (captured)", () => {
    const samples = play(timelineOf(busyboxPing, 1000), timedLines("busybox-loss.timed.txt"), 3000);
    expect(summarizeLatency(samples)).toMatchObject({ sent: 12, lost: 3 });
    const lost = samples.filter((s) => s.rttMs === null);
    // seq 3 sent at 633.908, seq 7 at 1434.85: 4, 5 and 6 a quarter of the way each
    expect(lost).toEqual([
      { t: -0.166, rttMs: null, phase: "idle" },
      { t: 0.034, rttMs: null, phase: "loaded" },
      { t: 0.235, rttMs: null, phase: "loaded" },
    ]);
  });

  it("counts a duplicated reply once (macOS, hand-written, lines a fifth of a second apart)", () => {
    const timeline = new PingTimeline({ intervalSeconds: 0.2, parseLine: busyboxPing.parseLine, trafficStartMs: 0 });
    const samples = fixtureLines("macos.txt").flatMap((line, i) => timeline.push(line, 200 * i));
    expect(summarizeLatency(samples)).toMatchObject({ sent: 10, lost: 2 });
  });

  it("takes each Windows line as the next request, its losses at once (hand-written)", () => {
    // Windows pings once a second
    const timeline = new PingTimeline({ intervalSeconds: 1, parseLine: parseWindowsPingLine, trafficStartMs: 2000 });
    const samples = fixtureLines("windows.txt").flatMap((line, i) => timeline.push(line, 1000 * i));
    expect(samples.map((s) => s.rttMs)).toEqual([0.5, 0.5, 3, null, 14, null, null, 0.5]);
    // "Request timed out." is line 5 of the output, printed 1 s (-w 1000) after its request
    expect(samples[3]).toEqual({ t: 2, rttMs: null, phase: "loaded" });
    expect(samples[0]!.phase).toBe("idle");
  });

  it("follows sequence numbers round 65535", () => {
    const timeline = timelineOf(busyboxPing, 0);
    const reply = (seq: number) => `64 bytes from 198.18.0.2: seq=${seq} ttl=64 time=1.000 ms`;
    const samples = [
      timeline.push(reply(65534), 1000),
      timeline.push(reply(65535), 1200),
      timeline.push(reply(1), 1600),
    ].flat();
    expect(samples.map((s) => s.rttMs)).toEqual([1, 1, null, 1]);
    expect(samples[2]!.t).toBe(1.399);
  });

  it("ends with the traffic: older unanswered requests lost, newer ones dropped, later lines ignored", () => {
    const timeline = timelineOf(iputilsPing, 0);
    // up to "no answer yet for icmp_seq=7": requests 5, 6 and 7 named, sent at 845, 1047 and 1252
    const lines = timedLines("iputils-loss.timed.txt").filter(([atMs]) => atMs <= 1452);
    lines.forEach(([atMs, line]) => timeline.push(line, atMs));
    expect(timeline.end(3100)).toEqual([
      { t: 0.845, rttMs: null, phase: "loaded" },
      { t: 1.047, rttMs: null, phase: "loaded" },
    ]);
    expect(timeline.push("64 bytes from 198.18.96.2: icmp_seq=8 ttl=64 time=0.072 ms", 3200)).toEqual([]);
    expect(timeline.end(3300)).toEqual([]);
  });
});

describe("summarizeLatency", () => {
  it("captured under a deep queue: well under a millisecond idle, over a hundred loaded, grade D", () => {
    const samples = play(timelineOf(iputilsPing, 1600), timedLines("iputils-bufferbloat.timed.txt"), 6650);
    const summary = summarizeLatency(samples);
    expect(summary.idleMedianMs).toBeLessThan(0.2);
    expect(summary).toMatchObject({ loadedMedianMs: 163, grade: "D", sent: 33, lost: 0 });
    // 25 loaded replies: the 95th percentile is 4/5 of the way from the 23rd (340) to the 24th (341)
    expect(summary.loadedP95Ms).toBe(340.8);
  });

  it("leaves lost pings out of the figures but counts them, and has no grade without both phases", () => {
    const samples: LatencySample[] = [
      { t: -1, rttMs: 1, phase: "idle" },
      { t: -0.8, rttMs: null, phase: "idle" },
      { t: -0.6, rttMs: 3, phase: "idle" },
      { t: 0.2, rttMs: null, phase: "loaded" },
    ];
    expect(summarizeLatency(samples)).toEqual({
      idleMedianMs: 2,
      idleP95Ms: 2.9,
      loadedMedianMs: null,
      loadedP95Ms: null,
      grade: null,
      sent: 4,
      lost: 2,
    });
    expect(summarizeLatency([])).toEqual({
      idleMedianMs: null,
      idleP95Ms: null,
      loadedMedianMs: null,
      loadedP95Ms: null,
      grade: null,
      sent: 0,
      lost: 0,
    });
  });

  it("interpolates percentiles between the nearest ranks", () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([10], 95)).toBe(10);
    expect(percentile([], 50)).toBeNull();
    expect(percentile([0, 100], 95)).toBe(95);
  });
});

describe("bufferbloatGrade", () => {
  it("grades the rise of the median: A below 5 ms, B below 30, C below 60, D below 200, F from 200", () => {
    const grades = [-1, 0, 4.99, 5, 29.9, 30, 59.9, 60, 199.9, 200, 1000].map(bufferbloatGrade);
    expect(grades).toEqual(["A", "A", "A", "B", "B", "C", "C", "D", "D", "F", "F"]);
  });
});
