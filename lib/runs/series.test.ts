import { describe, expect, it } from "vitest";
import { buildSeries, type ChartSample } from "./series";

const sample = (figures: Partial<ChartSample>): ChartSample => ({
  end: 1,
  direction: "forward",
  bitsPerSecond: 430e6,
  retransmits: null,
  jitterMs: 0.058,
  lostPackets: null,
  packets: null,
  omitted: false,
  streams: [],
  ...figures,
});

describe("buildSeries", () => {
  it("gives an interval's loss as iperf3 computes it, 100 × lost ÷ total", () => {
    // The counts of a real 3.12 interval (9166 of 83403 datagrams lost); (lost ÷ total) × 100 is one unit in the last place off.
    const { points } = buildSeries([sample({ lostPackets: 9166, packets: 83403 })]);
    expect(points[0]!.lostPercent).toBe((100 * 9166) / 83403);
    expect(points[0]!.lostPercent).not.toBe((9166 / 83403) * 100);
    expect(buildSeries([sample({ lostPackets: 0, packets: 0 })]).points[0]!.lostPercent).toBeNull();
  });
});
