import { describe, expect, it } from "vitest";
import type { InterferencePair, InterferenceResult } from "@/lib/experiments/contract";
import { heatmapCellOf } from "./heatmap-cells";

const pair = (linkIds: [number, number], percentOfAlone: number | null): InterferencePair => ({
  linkIds,
  aloneBitsPerSecond: [1e9, 1e9],
  togetherBitsPerSecond: [6e8, 6e8],
  togetherAggregateBitsPerSecond: 1.2e9,
  percentOfAlone,
  runIds: [1, 2, 3, 4],
});

const RESULT: InterferenceResult = {
  pairs: [pair([6, 7], 62), pair([6, 9], 101), pair([7, 9], null)],
  groups: [[6, 7]],
};

describe("heatmapCellOf", () => {
  it("gives a pair's share of alone on the grid's bands, the same either way round", () => {
    expect(heatmapCellOf(RESULT, 6, 7)).toEqual({ percent: 62, band: "poor", isMeasured: true });
    expect(heatmapCellOf(RESULT, 7, 6)).toEqual(heatmapCellOf(RESULT, 6, 7));
    expect(heatmapCellOf(RESULT, 9, 6)).toMatchObject({ percent: 101, band: "good" });
  });

  it("tells a pair that gave no result from one not measured yet", () => {
    expect(heatmapCellOf(RESULT, 7, 9)).toEqual({ percent: null, band: "failed", isMeasured: true });
    expect(heatmapCellOf(RESULT, 6, 8)).toEqual({ percent: null, band: "never", isMeasured: false });
  });
});
