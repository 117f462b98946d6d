"use client";

import { useId } from "react";
import { formatPercentWord } from "@/lib/format";
import { SHARED_BOTTLENECK_PERCENT, type InterferenceResult } from "@/lib/experiments/contract";
import { BAND_FILLS } from "@/components/grid/bands";
import { GRID_BANDS, type GridBand } from "@/lib/grid/contract";
import { heatmapCellOf } from "./heatmap-cells";

type Props = {
  result: InterferenceResult;
  /** the plan's links in its order: the heatmap's rows and columns */
  links: { id: number; name: string }[];
};

const NOT_MEASURED = "not measured yet";

/**
 * Which links share a bottleneck, at a glance: a table with a row and a column per link, each cell
 * what the two links got together as a share of what each got alone, coloured on the grid's bands
 * (the same fills in both themes; the text says it too); then the groups of links that share one. Scrolls inside its box on a phone.
 */
export function InterferenceHeatmap({ result, links }: Props) {
  const nameOf = (id: number) => links.find((link) => link.id === id)?.name ?? `link ${id}`;
  const captionId = useId();
  return (
    <div className="space-y-3" data-testid="interference-heatmap">
      <div
        role="region"
        aria-labelledby={captionId}
        // Keyboard users scroll a table wider than the screen.
        tabIndex={0}
        className="max-w-full overflow-x-auto rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
      >
        <table className="border-separate border-spacing-1 text-sm">
          <caption id={captionId} className="mb-1 text-left text-sm font-medium">
            Each pair together, as a share of the two alone
          </caption>
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">
                <span className="sr-only">Link</span>
              </th>
              {links.map((link) => (
                <th
                  key={link.id}
                  scope="col"
                  className="max-w-28 px-2 py-1 text-center text-xs font-medium break-words"
                >
                  {link.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {links.map((row) => (
              <tr key={row.id}>
                <th scope="row" className="max-w-32 px-2 py-1 text-left text-xs font-medium break-words">
                  {row.name}
                </th>
                {links.map((column) => {
                  if (row.id === column.id)
                    return (
                      <td key={column.id} className="min-w-16 px-2 py-2 text-center text-slate-500">
                        <span aria-hidden>—</span>
                        <span className="sr-only">same link</span>
                      </td>
                    );
                  const cell = heatmapCellOf(result, row.id, column.id);
                  const text = !cell.isMeasured
                    ? NOT_MEASURED
                    : cell.percent === null
                      ? "no result"
                      : `${formatPercentWord(cell.percent)} of alone, ${
                          cell.percent < SHARED_BOTTLENECK_PERCENT ? "shared bottleneck" : "independent"
                        }`;
                  return (
                    <td
                      key={column.id}
                      className={`min-w-16 rounded px-2 py-2 text-center font-medium tabular-nums ${BAND_FILLS[cell.band]}`}
                      data-band={cell.band}
                      data-testid={`heatmap-cell-${row.id}-${column.id}`}
                      title={`${row.name} with ${column.name}: ${text}`}
                    >
                      <span aria-hidden>
                        {cell.percent !== null ? formatPercentWord(cell.percent) : cell.isMeasured ? "failed" : "…"}
                      </span>
                      <span className="sr-only">{text}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <HeatmapLegend />
      <InterferenceGroups result={result} nameOf={nameOf} />
    </div>
  );
}

function HeatmapLegend() {
  const items: { band: GridBand; label: string }[] = [
    ...GRID_BANDS.map((band) => ({ band: band.name, label: `${band.label} of alone` })),
    { band: "failed", label: "failed" },
    { band: "never", label: NOT_MEASURED },
  ];
  return (
    <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      {items.map((item) => (
        <li key={item.band} className="flex items-center gap-1.5">
          <span aria-hidden className={`inline-block h-3 w-5 rounded-sm ${BAND_FILLS[item.band]}`} />
          {item.label}
        </li>
      ))}
      <li>Below {SHARED_BOTTLENECK_PERCENT}%: the two links share a bottleneck</li>
    </ul>
  );
}

function InterferenceGroups({ result, nameOf }: { result: InterferenceResult; nameOf: (id: number) => string }) {
  const judged = result.pairs.filter((pair) => pair.percentOfAlone !== null);
  if (judged.length === 0) return null;
  return (
    <div data-testid="interference-groups">
      <h3 className="text-sm font-medium">Links that share a bottleneck</h3>
      {result.groups.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm">
          {result.groups.map((group) => (
            <li key={group.join("-")}>{group.map(nameOf).join(", ")}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          None: every pair measured got {SHARED_BOTTLENECK_PERCENT}% or more of alone together.
        </p>
      )}
    </div>
  );
}
