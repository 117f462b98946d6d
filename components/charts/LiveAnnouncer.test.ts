import { describe, expect, it } from "vitest";
import { describeLiveRate } from "@/components/charts/LiveAnnouncer";
import type { SeriesPoint } from "@/lib/runs/series";

const point = (bps: number | null, reverseBps: number | null = null): SeriesPoint => ({
  t: 1,
  bps,
  reverseBps,
  retransmits: null,
  jitterMs: null,
  lostPercent: null,
  omitted: false,
});

describe("describeLiveRate", () => {
  it("says the last rate and the count of intervals", () => {
    expect(describeLiveRate(point(941_000_000), 23, "bits")).toBe("941 Mbit/s now, 23 intervals");
    expect(describeLiveRate(point(941_000_000), 1, "bits")).toBe("941 Mbit/s now, 1 interval");
  });

  it("says the reverse direction of a bidirectional run, in the chosen unit", () => {
    expect(describeLiveRate(point(8_000_000_000, 4_000_000_000), 5, "bytes")).toBe(
      "1.00 GB/s and 500 MB/s in reverse now, 5 intervals",
    );
  });

  it("says when there is no rate yet", () => {
    expect(describeLiveRate(undefined, 0, "bits")).toBe("No rate yet, 0 intervals");
    expect(describeLiveRate(point(null), 2, "bits")).toBe("No rate yet, 2 intervals");
  });
});
