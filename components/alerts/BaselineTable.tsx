import Link from "next/link";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { Rate } from "@/components/units/Rate";
import type { BaselineJson } from "@/lib/alerts/contract";

// No "use client": a link page renders it on the server.

function Runs({ baseline }: { baseline: BaselineJson }) {
  if (baseline.medianBitsPerSecond === null) {
    return (
      <span className="text-slate-600 dark:text-slate-400">
        {baseline.count} of the {baseline.minRuns} it needs
      </span>
    );
  }
  const newest = baseline.runIds[0];
  return (
    <span className="tabular-nums">
      {baseline.count} of {baseline.n}
      {newest ? (
        <>
          {" · newest "}
          <Link href={`/runs/${newest}`} className={TEXT_LINK}>
            #{newest}
          </Link>
        </>
      ) : null}
    </span>
  );
}

function Median({ baseline }: { baseline: BaselineJson }) {
  return baseline.medianBitsPerSecond === null ? (
    <span className="text-slate-600 dark:text-slate-400">none yet</span>
  ) : (
    <Rate bitsPerSecond={baseline.medianBitsPerSecond} className="font-medium tabular-nums" />
  );
}

function Band({ baseline }: { baseline: BaselineJson }) {
  if (baseline.minBitsPerSecond === null || baseline.maxBitsPerSecond === null)
    return <span className="text-slate-600 dark:text-slate-400">–</span>;
  return (
    <span className="tabular-nums">
      <Rate bitsPerSecond={baseline.minBitsPerSecond} /> – <Rate bitsPerSecond={baseline.maxBitsPerSecond} />
    </span>
  );
}

/** A link's baselines, one per test signature: the median of its last N successful runs, the band they span, and how many make it. */
export function BaselineTable({ baselines }: { baselines: BaselineJson[] }) {
  return (
    <TableOrCards
      items={baselines}
      label="Baselines"
      testId="baseline-table"
      columns={[{ header: "Test" }, { header: "Median" }, { header: "Slowest – fastest" }, { header: "Runs" }]}
      keyOf={(baseline) => baseline.signature}
      rowTestId={(baseline) => `baseline-${baseline.signature.replaceAll(" ", "-")}`}
      isStackedWhenNarrow
      row={(baseline) => (
        <>
          <th scope="row" className="px-4 py-2 font-medium">
            {baseline.label}
          </th>
          <td className="px-4 py-2">
            <Median baseline={baseline} />
          </td>
          <td className="px-4 py-2">
            <Band baseline={baseline} />
          </td>
          <td className="px-4 py-2">
            <Runs baseline={baseline} />
          </td>
        </>
      )}
    />
  );
}
