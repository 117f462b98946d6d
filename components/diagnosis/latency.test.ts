import { describe, expect, it } from "vitest";
import type { LatencySample } from "@/lib/diagnosis/contract";
import { describeLatency, formatMs, latencyChartPoints, latencyIncreaseMs, runTimeDomain } from "./latency";

/** Pings every 0.2 s from −5 s (idle) to `end` (loaded), with the round-trip time `rtt(t)`. */
function pings(end: number, rtt: (t: number) => number | null): LatencySample[] {
  const samples: LatencySample[] = [];
  for (let step = -25; step * 0.2 < end; step += 1) {
    const t = Number((step * 0.2).toFixed(1));
    samples.push({ t, rttMs: rtt(t), phase: t < 0 ? "idle" : "loaded" });
  }
  return samples;
}

describe("latencyChartPoints", () => {
  it("draws each ping on its phase's line, and a lost one as a mark", () => {
    const points = latencyChartPoints([
      { t: 0.2, rttMs: 9.5, phase: "loaded" },
      { t: -0.2, rttMs: 0.4, phase: "idle" },
      { t: 0.4, rttMs: null, phase: "loaded" },
    ]);
    expect(points).toEqual([
      { t: -0.2, phase: "idle", idle: 0.4, loaded: null, lost: null, count: 1, lostCount: 0 },
      { t: 0.2, phase: "loaded", idle: null, loaded: 9.5, lost: null, count: 1, lostCount: 0 },
      { t: 0.4, phase: "loaded", idle: null, loaded: null, lost: 0, count: 1, lostCount: 1 },
    ]);
  });

  it("thins a long run to its peaks, never mixing the phases in one point", () => {
    // A day's worth would be 432,000 pings; 2 minutes already go past the limit.
    const samples = pings(120, (t) => (t < 0 ? 0.5 : t === 60 ? 85 : 10));
    const points = latencyChartPoints(samples, 100);
    expect(points.length).toBeLessThanOrEqual(100 + 1);
    expect(points.reduce((sum, point) => sum + point.count, 0)).toBe(samples.length);
    expect(points.every((point) => (point.phase === "idle" ? point.loaded === null : point.idle === null))).toBe(true);
    // The one spike at 60 s survives the thinning.
    expect(Math.max(...points.map((point) => point.loaded ?? 0))).toBe(85);
    expect(Math.max(...points.map((point) => point.idle ?? 0))).toBe(0.5);
    expect(points.filter((point) => point.phase === "idle").every((point) => point.t < 0)).toBe(true);
  });

  it("keeps a stretch whose pings were all lost as a gap with its mark", () => {
    const samples = pings(20, (t) => (t >= 10 && t < 12 ? null : 3));
    const points = latencyChartPoints(samples, 40);
    const lost = points.filter((point) => point.lostCount > 0);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.reduce((sum, point) => sum + point.lostCount, 0)).toBe(10);
    expect(lost.some((point) => point.loaded === null && point.lost === 0)).toBe(true);
  });
});

describe("runTimeDomain", () => {
  it("starts at −5 s when latency is measured, and at 0 otherwise", () => {
    expect(
      runTimeDomain({ isLatencyMeasured: true, plannedEnd: null, lastIntervalT: 10, samples: pings(10, () => 1) }),
    ).toEqual([-5, 10]);
    expect(runTimeDomain({ isLatencyMeasured: false, plannedEnd: null, lastIntervalT: 10, samples: [] })).toEqual([
      0, 10,
    ]);
  });

  it("reaches the planned end while live, before any ping or interval", () => {
    expect(runTimeDomain({ isLatencyMeasured: true, plannedEnd: 30, lastIntervalT: 0, samples: [] })).toEqual([-5, 30]);
    expect(runTimeDomain({ isLatencyMeasured: false, plannedEnd: null, lastIntervalT: 0, samples: [] })).toEqual([
      0, 1,
    ]);
  });

  it("takes in pings past the last interval and an idle ping before −5 s", () => {
    expect(
      runTimeDomain({
        isLatencyMeasured: true,
        plannedEnd: null,
        lastIntervalT: 10,
        samples: [
          { t: -5.4, rttMs: 1, phase: "idle" },
          { t: 10.6, rttMs: 1, phase: "loaded" },
        ],
      }),
    ).toEqual([-6, 10.6]);
  });
});

describe("the summary's words", () => {
  it("writes milliseconds to the digits that matter", () => {
    expect(formatMs(0.423)).toBe("0.42 ms");
    expect(formatMs(12.34)).toBe("12.3 ms");
    expect(formatMs(151.2)).toBe("151 ms");
    expect(formatMs(null)).toBe("–");
  });

  it("reads the rise of the median under load", () => {
    expect(latencyIncreaseMs({ idleMedianMs: 0.4, loadedMedianMs: 10.4 })).toBeCloseTo(10);
    expect(latencyIncreaseMs({ idleMedianMs: null, loadedMedianMs: 10.4 })).toBeNull();
  });

  it("says what the chart shows", () => {
    const samples: LatencySample[] = [
      { t: -1, rttMs: 0.4, phase: "idle" },
      { t: 1, rttMs: null, phase: "loaded" },
    ];
    const summary = {
      idleMedianMs: 0.4,
      idleP95Ms: 0.4,
      loadedMedianMs: 9.8,
      loadedP95Ms: 12,
      grade: "B" as const,
      sent: 2,
      lost: 1,
    };
    expect(describeLatency(samples, summary)).toBe(
      "Round-trip time of 2 pings, idle median 0.40 ms, under load median 9.80 ms, 1 lost",
    );
    expect(describeLatency([], null)).toBe("Round-trip time under load: no pings yet");
  });
});
