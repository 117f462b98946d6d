// The grid's colour scale, one for both themes: a cell is read against the legend whatever the theme, so
// its fill never changes with it, and its text is dark on every light fill (white on the one dark fill)
// for AA contrast in both. The words beside each fill say the band without the colour.
import { GRID_BANDS, type GridBand } from "@/lib/grid/contract";
import type { GridColourBy } from "@/lib/grid/schemas";

export const BAND_FILLS: Record<GridBand, string> = {
  good: "bg-emerald-300 text-slate-950",
  fair: "bg-yellow-200 text-slate-950",
  poor: "bg-orange-300 text-slate-950",
  bad: "bg-red-300 text-slate-950",
  failed: "bg-red-800 text-white",
  never: "bg-slate-200 text-slate-900",
};

/** A band in words: "90% or more of the line rate", "failed", "never tested". */
export function bandWords(band: GridBand, by: GridColourBy): string {
  const range = GRID_BANDS.find((entry) => entry.name === band);
  if (range) return `${range.label} of the ${by === "baseline" ? "baseline" : "line rate"}`;
  return band === "failed" ? "failed" : "never tested";
}

/** What the cells' share is of, as the legend and the switch name it. */
export const COLOUR_BY_LABELS: Record<GridColourBy, string> = { "line-rate": "Line rate", baseline: "Baseline" };
