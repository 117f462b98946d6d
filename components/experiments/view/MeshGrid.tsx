"use client";

import { GridLegend } from "@/components/grid/GridLegend";
import { GridTable } from "@/components/grid/GridTable";
import type { GridAnswer } from "@/lib/grid/contract";

/** A mesh's runs as the lab's grid: a row and a column per host, each cell that way's run in this mesh; its legend under it. */
export function MeshGrid({ grid }: { grid: GridAnswer }) {
  return (
    <div className="space-y-3" data-testid="mesh-grid">
      <GridTable answer={grid} caption="This mesh's result from each row's host to each column's host" />
      <GridLegend by="line-rate" staleDays={null} />
    </div>
  );
}
