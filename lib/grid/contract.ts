// The lab as a grid (GET /api/grid, the /grid page): a row and a column per host, each cell the latest
// successful TCP result from the row's host to the column's host over a link that joins them. Pure: the
// page's components import it.

/** How a cell came out: its latest TCP run in that direction succeeded or failed, or there is none. */
export const GRID_CELL_STATUSES = ["succeeded", "failed", "never"] as const;
export type GridCellStatus = (typeof GRID_CELL_STATUSES)[number];

export type GridHost = { id: number; name: string };

/**
 * One ordered pair of hosts that a link joins. Where several links join them, the fastest link's latest
 * successful result, and how many links there are. `at` is when that run was made.
 */
export type GridCell = {
  fromHostId: number;
  toHostId: number;
  linkId: number;
  linkCount: number;
  runId: number | null;
  at: string | null;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
  /** against the median of the link's baseline for that test (lib/alerts/baseline.ts); null without one */
  baselinePercent: number | null;
  /** older than the chosen age (default GRID_STALE_DAYS) */
  stale: boolean;
  status: GridCellStatus;
};

export type GridAnswer = { hosts: GridHost[]; cells: GridCell[] };

/** A result older than this many days is marked stale unless the request says otherwise (`staleDays`). */
export const GRID_STALE_DAYS = 7;

/** The legend's bands, by share of the line rate (or of the baseline): the lowest bound each reaches. */
export const GRID_BANDS = [
  { name: "good", minPercent: 90, label: "90% or more" },
  { name: "fair", minPercent: 70, label: "70-90%" },
  { name: "poor", minPercent: 40, label: "40-70%" },
  { name: "bad", minPercent: 0, label: "below 40%" },
] as const;
export type GridBand = (typeof GRID_BANDS)[number]["name"] | "failed" | "never";

/** The band of a cell for a share (line rate or baseline); failed and never cells have their own. */
export function gridBandOf(status: GridCellStatus, percent: number | null): GridBand {
  if (status !== "succeeded") return status;
  if (percent === null) return "never";
  return GRID_BANDS.find((band) => percent >= band.minPercent)?.name ?? "bad";
}
