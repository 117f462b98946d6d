"use client";

import Link from "next/link";
import { ImportedTag } from "./StatusBadge";
import { NoteLine } from "@/components/notes/NoteLine";
import { usePathname, useSearchParams } from "next/navigation";
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { atSeconds, GRID_PROPS, LINE_RATE_LINE, secondsAxisProps, useRateAxis } from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { DownloadChart } from "@/components/charts/DownloadChart";
import { TooltipBox } from "@/components/charts/ChartTooltip";
import { formatNumber, formatPercent, formatRate } from "@/lib/format";
import type { RunDirection } from "@/lib/runs/contract";
import { COMPARE_COLORS } from "@/components/charts/colors";
import { describeOptions } from "@/lib/runs/describe";
import { environmentChanges } from "@/lib/diagnosis/changes";
import type { RunEnvironment } from "@/lib/diagnosis/contract";

export type ComparedRun = {
  run: {
    id: number;
    createdAt: string;
    status: string;
    /** "imported" for a run read from an iperf3 output a user brought */
    source?: string;
    options: { protocol: "tcp" | "udp"; parallel: number; duration?: number; bytes?: number; latency?: boolean };
    direction: RunDirection;
    receivedBitsPerSecond: number | null;
    lineRatePercent: number | null;
    retransmits: number | null;
    jitterMs: number | null;
    lostPercent: number | null;
    /** what a user wrote down about the run, and its labels */
    note?: string;
    labels?: string[];
  };
  sentBitsPerSecond: number | null;
  points: Array<{ t: number; bps: number | null }>;
  /** both ends' snapshots at the start of the run; null for a run from before snapshots */
  environment: RunEnvironment | null;
};

/** Run ids as the compare names them: "#3, #7". */
function runList(runs: readonly ComparedRun[]): string {
  return runs.map((entry) => `#${entry.run.id}`).join(", ");
}

/**
 * What changed in the ends' environment between the runs, one line per field ("MTU 9000 → 1500
 * on the server"); "Same environment" when nothing did and every run has both snapshots.
 */
function EnvironmentChanges({ runs }: { runs: readonly ComparedRun[] }) {
  const changes = environmentChanges(runs.map((entry) => ({ runId: entry.run.id, environment: entry.environment })));
  const withoutSnapshot = runs.filter((entry) => !entry.environment);
  const isEveryEndRead = runs.every((entry) => entry.environment?.client && entry.environment.server);
  const readCount = runs.length - withoutSnapshot.length;
  return (
    <div
      className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-800"
      data-testid="environment-changes"
      data-change-count={changes.length}
    >
      <h3 className="text-sm font-semibold">What changed</h3>
      {changes.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm break-words">
          {changes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {isEveryEndRead
            ? "Same environment: both ends looked the same at the start of every run compared."
            : readCount >= 2
              ? "Nothing changed in the environment that was read."
              : "Nothing to compare: fewer than two of these runs have an environment snapshot."}
        </p>
      )}
      {withoutSnapshot.length > 0 ? (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {withoutSnapshot.length === 1
            ? `Run ${runList(withoutSnapshot)} has`
            : `Runs ${runList(withoutSnapshot)} have`}{" "}
          no environment snapshot: imported from an iperf3 output, or older than environment snapshots.
        </p>
      ) : null}
    </div>
  );
}

type Metric = {
  label: string;
  value: (entry: ComparedRun) => number | null;
  format: (value: number | null) => string;
  isHigherBetter: boolean;
};

function difference(value: number | null, baseline: number | null): number | null {
  if (value == null || baseline == null || baseline === 0) return null;
  return ((value - baseline) / Math.abs(baseline)) * 100;
}

/** Two or more runs side by side: their interval curves overlaid, their figures with the difference to the first, in %. */
export function CompareRuns({ runs, lineRateBitsPerSecond }: { runs: ComparedRun[]; lineRateBitsPerSecond: number }) {
  // Closing keeps the table's filters and page as they are now (they change in place, without the server).
  const pathname = usePathname();
  const remaining = new URLSearchParams(useSearchParams().toString());
  remaining.delete("compare");
  const closeHref = `${pathname}${remaining.size ? `?${remaining.toString()}` : ""}`;
  const peak = Math.max(lineRateBitsPerSecond, ...runs.flatMap((entry) => entry.points.map((point) => point.bps ?? 0)));
  const { unit, rateAxis } = useRateAxis(peak, [0, peak * 1.05]);
  const maxT = Math.max(1, ...runs.flatMap((entry) => entry.points.map((point) => point.t)));
  const allMetrics: Metric[] = [
    {
      label: "Received",
      value: (entry) => entry.run.receivedBitsPerSecond,
      format: (value) => formatRate(value, unit),
      isHigherBetter: true,
    },
    {
      label: "Sent",
      value: (entry) => entry.sentBitsPerSecond,
      format: (value) => formatRate(value, unit),
      isHigherBetter: true,
    },
    {
      label: "Line rate",
      value: (entry) => entry.run.lineRatePercent,
      format: (value) => formatPercent(value),
      isHigherBetter: true,
    },
    {
      label: "Retransmits",
      value: (entry) => entry.run.retransmits,
      format: (value) => (value == null ? "–" : String(value)),
      isHigherBetter: false,
    },
    {
      label: "Jitter",
      value: (entry) => entry.run.jitterMs,
      format: (value) => (value == null ? "–" : `${formatNumber(value)} ms`),
      isHigherBetter: false,
    },
    {
      label: "Loss",
      value: (entry) => entry.run.lostPercent,
      format: (value) => formatPercent(value, 2),
      isHigherBetter: false,
    },
  ];
  const metrics = allMetrics.filter((metric) => runs.some((entry) => metric.value(entry) != null));
  const baseline = runs[0]!;
  return (
    <section
      id="compare"
      aria-labelledby="compare-heading"
      className="mb-8 rounded-lg border border-sky-300 bg-white p-4 dark:border-sky-800 dark:bg-slate-900"
      data-testid="compare"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="compare-heading" className="text-lg font-semibold">
          Comparing {runs.length} runs
        </h2>
        <Link
          href={closeHref}
          scroll={false}
          className="text-sm text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        >
          Close comparison
        </Link>
      </div>
      <DownloadChart
        fileName={`wirespeed-compare-${runs.map((entry) => entry.run.id).join("-")}.png`}
        title={`Wirespeed: runs ${runs.map((entry) => `#${entry.run.id}`).join(", ")} compared, every interval`}
      >
        <ChartFrame
          size="large"
          label={`Interval curves of runs ${runs.map((entry) => `#${entry.run.id}`).join(", ")}`}
        >
          <LineChart margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
            <CartesianGrid {...GRID_PROPS} vertical={false} />
            <XAxis {...secondsAxisProps(maxT)} allowDuplicatedCategory={false} />
            <YAxis {...rateAxis} />
            {lineRateBitsPerSecond > 0 ? <ReferenceLine {...LINE_RATE_LINE} y={lineRateBitsPerSecond} /> : null}
            {runs.map((entry, index) => (
              <Line
                key={entry.run.id}
                data={entry.points}
                dataKey="bps"
                name={`#${entry.run.id}`}
                stroke={COMPARE_COLORS[index % COMPARE_COLORS.length]}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ))}
            <Tooltip
              isAnimationActive={false}
              content={({ active, payload, label }) =>
                active && payload?.length ? (
                  <TooltipBox
                    title={atSeconds(Number(label))}
                    rows={payload.map((item) => ({
                      label: String(item.name),
                      value: formatRate(item.value as number, unit),
                      color: item.color,
                    }))}
                  />
                ) : null
              }
            />
          </LineChart>
        </ChartFrame>
      </DownloadChart>
      <div className="relative mt-4 overflow-x-auto">
        <table className="w-full text-left text-sm tabular-nums">
          <caption className="sr-only">
            Figures of the compared runs, with the difference to run #{baseline.run.id}
          </caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2">
                Figure
              </th>
              {runs.map((entry, index) => (
                <th key={entry.run.id} scope="col" className="whitespace-nowrap px-3 py-2 text-right">
                  <span
                    aria-hidden
                    className="mr-1.5 inline-block h-2.5 w-2.5 rounded-full"
                    style={{ backgroundColor: COMPARE_COLORS[index % COMPARE_COLORS.length] }}
                  />
                  <Link href={`/runs/${entry.run.id}`} className="text-sky-700 hover:underline dark:text-sky-300">
                    #{entry.run.id}
                  </Link>
                  {entry.run.source === "imported" ? <ImportedTag /> : null}
                  <span className="block font-mono text-[11px] normal-case tracking-normal text-slate-600 dark:text-slate-400">
                    {describeOptions(entry.run.options, entry.run.direction)}
                  </span>
                  {/* Narrower than in a table row, so that the runs compared still fit side by side on a phone. */}
                  <span className="ml-auto block max-w-48 font-normal normal-case tracking-normal">
                    <NoteLine note={entry.run.note} labels={entry.run.labels} className="justify-end text-right" />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {metrics.map((metric) => (
              <tr key={metric.label} className="border-t border-slate-200 dark:border-slate-800">
                <th scope="row" className="px-3 py-2 font-medium">
                  {metric.label}
                </th>
                {runs.map((entry, index) => {
                  const value = metric.value(entry);
                  const change = index === 0 ? null : difference(value, metric.value(baseline));
                  const isBetter = change != null && (metric.isHigherBetter ? change > 0 : change < 0);
                  return (
                    <td
                      key={entry.run.id}
                      className="whitespace-nowrap px-3 py-2 text-right"
                      data-testid={`compare-${metric.label.toLowerCase().replace(/ /g, "-")}-${entry.run.id}`}
                    >
                      {metric.format(value)}
                      {index === 0 ? (
                        <span className="block text-xs text-slate-500 dark:text-slate-400">baseline</span>
                      ) : change != null ? (
                        <span
                          className={
                            "block text-xs font-medium " +
                            (Math.abs(change) < 0.05
                              ? "text-slate-600 dark:text-slate-400"
                              : isBetter
                                ? "text-emerald-700 dark:text-emerald-300"
                                : "text-red-700 dark:text-red-300")
                          }
                        >
                          {change > 0 ? "+" : ""}
                          {change.toFixed(1)} %
                        </span>
                      ) : (
                        <span className="block text-xs text-slate-500 dark:text-slate-400">–</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <EnvironmentChanges runs={runs} />
    </section>
  );
}
