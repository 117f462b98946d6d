import Link from "next/link";
import { formatPercentWord, formatRate } from "@/lib/format";
import { gridBandOf, type GridAnswer, type GridCell, type GridHost } from "@/lib/grid/contract";
import type { GridColourBy } from "@/lib/grid/schemas";
import { FOCUS_RING } from "@/components/ui/styles";
import { BAND_FILLS, bandWords } from "./bands";

// The grid as a table: a row and a column per host, each cell the latest TCP result from the row's host
// to the column's host, coloured by its band (./bands.ts) and saying it in words. It takes a GridAnswer
// and nothing else, so that any page holding one (the grid, a mesh experiment's) draws it the same way.

const HEADER = "bg-slate-100 px-2 py-1.5 text-left text-xs font-semibold dark:bg-slate-800";

/** The share a cell is coloured by. */
function shareOf(cell: GridCell, by: GridColourBy): number | null {
  return by === "baseline" ? cell.baselinePercent : cell.lineRatePercent;
}

function ResultCell({ cell, from, to, by }: { cell: GridCell; from: GridHost; to: GridHost; by: GridColourBy }) {
  const share = shareOf(cell, by);
  const band = gridBandOf(cell.status, share);
  const shareText =
    share === null
      ? by === "baseline" && cell.status === "succeeded"
        ? "no baseline"
        : null
      : `${formatPercentWord(share)}${by === "baseline" ? " of baseline" : ""}`;
  return (
    <td className="p-0.5 align-top">
      <Link
        href={`/links/${cell.linkId}`}
        data-testid={`grid-cell-${from.id}-${to.id}`}
        data-band={band}
        data-stale={cell.stale ? "true" : undefined}
        data-off-link={cell.offLink ? "true" : undefined}
        // A dashed border marks a stale result; every cell has the border's room, so none shifts.
        className={`block min-w-[6.5rem] rounded border-2 px-2 py-1 text-xs leading-snug ${BAND_FILLS[band]} ${FOCUS_RING} ${
          cell.stale ? "border-dashed border-slate-800" : "border-transparent"
        }`}
      >
        {cell.status === "failed" ? <span className="block font-semibold">failed</span> : null}
        {cell.receivedBitsPerSecond !== null ? (
          <span
            className={`block tabular-nums ${cell.status === "failed" ? "" : "text-sm font-semibold"} ${cell.offLink ? "line-through" : ""}`}
          >
            {cell.status === "failed" ? "last ok " : ""}
            {formatRate(cell.receivedBitsPerSecond)}
          </span>
        ) : cell.status === "never" ? (
          <span className="block font-semibold">never tested</span>
        ) : null}
        {shareText && cell.status === "succeeded" ? <span className="block tabular-nums">{shareText}</span> : null}
        {cell.linkCount > 1 ? <span className="block">fastest of {cell.linkCount} links</span> : null}
        {cell.stale ? <span className="block font-semibold">stale</span> : null}
        {/* The figure is of another path (its run's proof of the path): not the link's. */}
        {cell.offLink ? <span className="block font-semibold">off the link</span> : null}
        <span className="sr-only">
          {`, ${band === "failed" || band === "never" ? "" : `${bandWords(band, by)}, `}`}
          {cell.at ? `measured ${cell.at.slice(0, 10)}, ` : ""}
          {`${from.name} to ${to.name}: open the link`}
        </span>
      </Link>
    </td>
  );
}

function EmptyCell({ same }: { same: boolean }) {
  return (
    <td className="px-2 py-1.5 text-center text-xs text-slate-600 dark:text-slate-400">
      <span aria-hidden>{same ? "·" : "–"}</span>
      <span className="sr-only">{same ? "same host" : "no link"}</span>
    </td>
  );
}

/** The grid of `answer`, coloured by the share of the line rate or of the baseline (`by`). */
export function GridTable({
  answer,
  by = "line-rate",
  caption = "Latest TCP result from each row's host to each column's host",
}: {
  answer: GridAnswer;
  by?: GridColourBy;
  caption?: string;
}) {
  const cells = new Map(answer.cells.map((cell) => [`${cell.fromHostId} ${cell.toHostId}`, cell]));
  return (
    // Scrolls inside its box at phone width: the page itself never scrolls sideways. Focusable, so that a
    // keyboard can scroll it too.
    <div
      role="region"
      aria-label="Host grid"
      tabIndex={0}
      className={`max-w-full overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800 ${FOCUS_RING}`}
    >
      <table className="border-separate border-spacing-0 text-sm" data-testid="grid-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={`${HEADER} sticky left-0 z-10`}>
              <span aria-hidden>from ↓ to →</span>
              <span className="sr-only">From host, to host</span>
            </th>
            {answer.hosts.map((host) => (
              <th key={host.id} scope="col" className={`${HEADER} whitespace-nowrap`}>
                {host.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.hosts.map((from) => (
            <tr key={from.id}>
              <th
                scope="row"
                className={`${HEADER} sticky left-0 z-10 max-w-[8rem] break-words border-t border-slate-200 dark:border-slate-700`}
              >
                {from.name}
              </th>
              {answer.hosts.map((to) => {
                const cell = cells.get(`${from.id} ${to.id}`);
                return cell ? (
                  <ResultCell key={to.id} cell={cell} from={from} to={to} by={by} />
                ) : (
                  <EmptyCell key={to.id} same={from.id === to.id} />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
