// The interference heatmap's cells: a pair's share of alone and its band on the grid's legend. Pure.
import type { InterferenceResult } from "@/lib/experiments/contract";
import { gridBandOf, type GridBand } from "@/lib/grid/contract";

/** The heatmap's cell of two links: their pair's share of alone, and its band. */
export function heatmapCellOf(result: InterferenceResult, first: number, second: number) {
  const pair = result.pairs.find(
    (entry) => entry.linkIds.includes(first) && entry.linkIds.includes(second) && first !== second,
  );
  const percent = pair?.percentOfAlone ?? null;
  const band: GridBand = pair && pair.percentOfAlone === null ? "failed" : gridBandOf("succeeded", percent);
  return { percent, band, isMeasured: pair !== undefined };
}
