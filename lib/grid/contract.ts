// The lab as a grid (GET /api/grid, the /grid page): a row and a column per host, each cell the latest
// successful TCP result from the row's host to the column's host over a link that joins them. Pure: the
// page's components import it.
//
// Which runs make a cell: TCP runs of the link whose data went from the row's host to the column's
// (the direction over the link: `a-to-b` from the a end, `b-to-a` from the b end, and `bidir` both ways,
// each way with its own received rate), any number of streams, inside experiments or not (a mesh
// experiment fills the grid); not the runs of a channels experiment, each of which carries only its
// share of the link. Cancelled and interrupted runs say nothing about the link and are passed over.

/**
 * How a cell came out, by its latest ended TCP run in that direction that succeeded or failed:
 * `succeeded`, `failed` (the figures are then those of the latest success before it, if any), or
 * `never` (no such run).
 */
export const GRID_CELL_STATUSES = ["succeeded", "failed", "never"] as const;
export type GridCellStatus = (typeof GRID_CELL_STATUSES)[number];

export type GridHost = { id: number; name: string };

/**
 * One ordered pair of hosts that a link joins. Where several links join them, the fastest link's (the
 * highest latest received rate; without one, a failed link before an untested one, then the highest
 * line rate), and how many links there are. `runId`, `at` (when that run was made) and the figures are
 * those of the link's latest successful run in that direction, null without one.
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
  /**
   * Against the baseline of that run's test when it was made, as the run page says it (lib/alerts/baseline.ts:
   * the median of the link's runs of that signature before it); null without one, and for the second way of
   * a bidir run (a baseline is of the first way's rate).
   */
  baselinePercent: number | null;
  /** The result is older than the chosen age (default GRID_STALE_DAYS); false without one. */
  stale: boolean;
  /**
   * The result's bytes went another way than the link (its run's pathCheck verdict is off-link): the
   * figure is not the link's. False without a result, or for a run whose path was not checked.
   */
  offLink: boolean;
  status: GridCellStatus;
};

/**
 * The rows and columns (the hosts asked for; without a filter, every host a link joins), by name, and one
 * cell per ordered pair of them that a link joins.
 */
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
