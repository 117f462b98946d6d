import { LocalTime } from "@/components/units/LocalTime";
import type { RunStatus } from "@/lib/runs/contract";

type SeriesKept = { sampleCount: number; pointCount: number; compactedAt: Date | null };

/** Why a run stopped: its error's kind, message and what to do, and which of its intervals are left. */
export function RunFailure({
  status,
  error,
  series,
}: {
  status: RunStatus;
  error: { kind: string; message: string; hint: string };
  series: SeriesKept;
}) {
  return (
    <section
      role="alert"
      aria-labelledby="error-heading"
      className="mb-6 rounded-lg border-2 border-red-400 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
    >
      <h2 id="error-heading" className="text-lg font-semibold">
        {status === "failed"
          ? "The run failed"
          : status === "interrupted"
            ? "The run was interrupted"
            : "The run stopped"}
        :{" "}
        <span className="font-mono text-base" data-testid="error-kind">
          {error.kind}
        </span>
      </h2>
      <p className="mt-2 whitespace-pre-wrap break-words font-mono text-sm">{error.message}</p>
      {error.hint ? (
        <p className="mt-2 text-sm">
          <span className="font-semibold">What to do: </span>
          {error.hint}
        </p>
      ) : null}
      <p className="mt-2 text-xs">
        {series.sampleCount === 0
          ? "It got no intervals before it stopped."
          : series.compactedAt
            ? `The ${series.sampleCount} intervals it got are shown below, thinned.`
            : `The ${series.sampleCount} intervals it got are kept below.`}
      </p>
    </section>
  );
}

/** What is left of a run whose interval samples the retention period deleted. */
export function RunCompactedNote({ compactedAt, sampleCount, pointCount }: SeriesKept & { compactedAt: Date }) {
  return (
    <p
      className="mb-3 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
      data-testid="run-compacted"
    >
      <span className="font-semibold">Compacted</span> on <LocalTime iso={compactedAt.toISOString()} />: its{" "}
      {sampleCount} intervals were deleted once older than the sample retention period (
      <span className="font-mono">WIRESPEED_SAMPLES_KEEP_DAYS</span>). The chart shows the {pointCount} averaged points
      and the stream totals kept when it ended; the summary, commands, environment and raw outputs are whole, and its
      export holds what is left.
    </p>
  );
}
