import { GRID_BANDS, type GridBand } from "@/lib/grid/contract";
import type { GridColourBy } from "@/lib/grid/schemas";
import { BAND_FILLS, COLOUR_BY_LABELS } from "./bands";

function entriesOf(by: GridColourBy): Array<{ band: GridBand; label: string }> {
  return [
    ...GRID_BANDS.map((band) => ({ band: band.name, label: band.label })),
    { band: "failed", label: "failed" },
    // A result without a baseline yet has no share of it to be coloured by.
    { band: "never", label: by === "baseline" ? "never tested, or no baseline yet" : "never tested" },
  ];
}

/**
 * The one legend of the grid's colours, with what the share is of, when a result is stale (null: never,
 * as for a mesh's own new runs) and what marks a result whose bytes went another way.
 */
export function GridLegend({ by, staleDays }: { by: GridColourBy; staleDays: number | null }) {
  return (
    <section aria-labelledby="grid-legend-heading" className="text-sm" data-testid="grid-legend">
      <h2 id="grid-legend-heading" className="mb-1 font-medium">
        Share of the {COLOUR_BY_LABELS[by].toLowerCase()}
      </h2>
      <ul className="flex flex-wrap gap-x-3 gap-y-1.5">
        {entriesOf(by).map((entry) => (
          <li key={entry.band} className="flex items-center gap-1.5">
            <span aria-hidden className={`inline-block h-4 w-6 rounded ${BAND_FILLS[entry.band]}`} />
            {entry.label}
          </li>
        ))}
        {staleDays === null ? null : (
          <li className="flex items-center gap-1.5">
            <span
              aria-hidden
              className="inline-block h-4 w-6 rounded border-2 border-dashed border-slate-800 bg-slate-200"
            />
            stale: older than {staleDays === 1 ? "1 day" : `${staleDays} days`}
          </li>
        )}
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="inline-block w-6 text-center text-xs line-through">
            10G
          </span>
          off the link: the test&apos;s bytes went another way
        </li>
      </ul>
    </section>
  );
}
