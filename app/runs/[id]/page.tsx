import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { CopyButton } from "@/components/runs/CopyButton";
import { EnvironmentSection } from "@/components/diagnosis/EnvironmentTable";
import { FindingsSection } from "@/components/diagnosis/HintList";
import { clientSideOf, directionOf, isActiveStatus, parseStoredOptions } from "@/lib/runs/contract";
import { describeDirection, describeOptions } from "@/lib/runs/describe";
import { RerunButton } from "@/components/runs/RerunButton";
import { RunLiveView } from "@/components/runs/RunLiveView";
import { RunSummaryCards, StreamTable } from "@/components/runs/RunFigures";
import { ImportedTag, StatusBadge } from "@/components/runs/StatusBadge";
import { LocalTime } from "@/components/units/LocalTime";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { againstBaseline } from "@/lib/alerts/baseline";
import { describeAgainstBaseline } from "@/lib/alerts/contract";
import { requirePage } from "@/lib/auth/guard";
import { getLinkEnds } from "@/lib/runs/link-reads";
import { getRunDetail } from "@/lib/runs/lists";
import { getRunDiagnosis } from "@/lib/diagnosis/reads";
import { queuePositionOf } from "@/lib/runs";
import { getRunSeries, getRunStreamStats } from "@/lib/runs/series-reads";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

function runIdOf(raw: string): number | null {
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

export async function generateMetadata({ params }: Params) {
  const { id } = await params;
  return { title: `Run #${id}` };
}

/** The per-stream table reads every stream value of the run: it streams in after the rest of the page. */
async function RunStreams({ runId, protocol }: { runId: number; protocol: "tcp" | "udp" }) {
  const streams = await getRunStreamStats({ runId, isFinished: true });
  return <StreamTable streams={streams} protocol={protocol} />;
}

function StreamsPlaceholder() {
  return (
    <div role="status" className="h-40 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800">
      <span className="sr-only">Loading the per-stream results</span>
    </div>
  );
}

export default async function RunPage({ params }: Params) {
  await requirePage("read");
  const runId = runIdOf((await params).id);
  if (runId === null) notFound();
  const run = await getRunDetail(runId);
  if (!run) notFound();
  const isActive = isActiveStatus(run.status);
  const [ends, series, baseline, diagnosis] = await Promise.all([
    getLinkEnds(run.linkId),
    getRunSeries({ runId, isFinished: !isActive }),
    isActive ? Promise.resolve(null) : againstBaseline(runId),
    getRunDiagnosis(runId),
  ]);
  if (!ends) notFound();
  // An old run whose options a later schema refuses still opens.
  const options = parseStoredOptions(run.options);
  const clientSide = clientSideOf(run.clientSide);
  const direction = directionOf(options, clientSide);
  const [clientEnd, serverEnd] = clientSide === "a" ? [ends.a, ends.b] : [ends.b, ends.a];
  const queuePosition = queuePositionOf(run);
  const speedMbps = ends.speedMbps;

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/runs" className="hover:underline">
          Runs
        </Link>{" "}
        /{" "}
        <Link href={`/links/${run.linkId}`} className="hover:underline">
          {run.linkName}
        </Link>
      </nav>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            Run #{run.id} {isActive ? null : <StatusBadge status={run.status} />}
            {run.source === "imported" ? <ImportedTag name={run.importName} /> : null}
          </h1>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-mono">{describeOptions(options, direction)}</span> ·{" "}
            {describeDirection(direction, ends.a.hostName, ends.b.hostName)} · client on {clientEnd.hostName}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Started <LocalTime iso={run.startedAt ?? run.createdAt} />
            {run.endedAt && run.startedAt
              ? ` · took ${Math.round((Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000)} s`
              : ""}
            {run.source === "imported" ? (
              <span data-testid="run-import-name">
                {" · imported"}
                {run.importName ? (
                  <>
                    {" "}
                    from <span className="font-mono">{run.importName}</span>
                  </>
                ) : null}
              </span>
            ) : null}
            {run.experimentId ? (
              <>
                {" · part of "}
                <Link
                  href={`/experiments/${run.experimentId}`}
                  className="text-sky-700 hover:underline dark:text-sky-300"
                  data-testid="run-experiment"
                >
                  experiment #{run.experimentId}
                </Link>
                {run.channel ? `, channel ${run.channel}` : ""}
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <RateUnitSwitch />
          {!isActive ? <RerunButton runId={run.id} /> : null}
        </div>
      </div>

      {run.error ? (
        <section
          role="alert"
          aria-labelledby="error-heading"
          className="mb-6 rounded-lg border-2 border-red-400 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
        >
          <h2 id="error-heading" className="text-lg font-semibold">
            {run.status === "failed"
              ? "The run failed"
              : run.status === "interrupted"
                ? "The run was interrupted"
                : "The run stopped"}
            :{" "}
            <span className="font-mono text-base" data-testid="error-kind">
              {run.error.kind}
            </span>
          </h2>
          <p className="mt-2 whitespace-pre-wrap break-words font-mono text-sm">{run.error.message}</p>
          {run.error.hint ? (
            <p className="mt-2 text-sm">
              <span className="font-semibold">What to do: </span>
              {run.error.hint}
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
      ) : null}

      {!isActive && run.summary ? (
        <section aria-label="Summary" className="mb-6">
          <RunSummaryCards
            summary={run.summary}
            protocol={options.protocol}
            clientHost={clientEnd.hostName}
            serverHost={serverEnd.hostName}
            // Nothing until the link has a baseline for this test: "needs 3 runs" is no figure to show beside one.
            againstBaseline={baseline?.baselineBitsPerSecond != null ? describeAgainstBaseline(baseline) : null}
          />
        </section>
      ) : null}

      {/* A live run's findings are those of its environment so far: nothing said until there is one. */}
      <FindingsSection
        hints={diagnosis?.hints ?? []}
        emptyText={
          isActive ? null : "No findings: nothing in this run's figures or its ends' environment points to a limit."
        }
      />

      {series.compactedAt ? (
        <p
          className="mb-3 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
          data-testid="run-compacted"
        >
          <span className="font-semibold">Compacted</span> on <LocalTime iso={series.compactedAt.toISOString()} />: its{" "}
          {series.sampleCount} intervals were deleted once older than the sample retention period (
          <span className="font-mono">WIRESPEED_SAMPLES_KEEP_DAYS</span>). The chart shows the {series.points.length}{" "}
          averaged points and the stream totals kept when it ended; the summary, commands, environment and raw outputs
          are whole, and its export holds what is left.
        </p>
      ) : null}

      <div className="mb-6">
        <RunLiveView
          runId={run.id}
          status={run.status}
          queuePosition={queuePosition}
          protocol={options.protocol}
          isBidir={options.bidir}
          durationSeconds={options.bytes === undefined ? (options.duration ?? 10) : null}
          omitSeconds={options.omit ?? 0}
          lineRateBitsPerSecond={speedMbps * 1e6}
          series={{ points: series.points, streamCount: series.streamCount, sampleCount: series.sampleCount }}
          latency={{ isMeasured: diagnosis?.hasLatency ?? false, summary: diagnosis?.latency ?? null }}
        />
      </div>

      {!isActive && series.streamCount > 1 ? (
        <section aria-labelledby="streams-heading" className="mb-6">
          <h2 id="streams-heading" className="mb-3 text-lg font-semibold">
            Streams
          </h2>
          <Suspense fallback={<StreamsPlaceholder />}>
            <RunStreams runId={run.id} protocol={options.protocol} />
          </Suspense>
        </section>
      ) : null}

      <EnvironmentSection
        environment={diagnosis?.environment ?? null}
        clientHost={clientEnd.hostName}
        serverHost={serverEnd.hostName}
        isActive={isActive}
        hasStopped={!isActive && run.status !== "succeeded"}
        isImported={run.source === "imported"}
      />

      <section aria-labelledby="commands-heading" className="mb-6">
        <h2 id="commands-heading" className="mb-3 text-lg font-semibold">
          Commands
        </h2>
        {run.commands.server || run.commands.client ? (
          <div className="space-y-3">
            {(
              [
                ["server", serverEnd.hostName, run.commands.server, run.versions.server],
                ["client", clientEnd.hostName, run.commands.client, run.versions.client],
              ] as const
            ).map(([role, host, command, version]) =>
              command ? (
                <div
                  key={role}
                  className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
                >
                  <div className="mb-2 flex items-center justify-between gap-2">
                    <h3 className="text-sm font-medium">
                      {role === "server" ? "Server" : "Client"} on {host}
                      {version ? (
                        <span className="font-normal text-slate-600 dark:text-slate-400"> · iperf3 {version}</span>
                      ) : null}
                    </h3>
                    <CopyButton text={command} label={`Copy the ${role} command`} />
                  </div>
                  <pre
                    className={
                      "overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 font-mono text-xs " +
                      "text-slate-900 dark:bg-slate-950 dark:text-slate-100"
                    }
                    data-testid={`command-${role}`}
                  >
                    {command}
                  </pre>
                </div>
              ) : null,
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {isActive
              ? "The commands appear once iperf3 starts on both ends."
              : run.source === "imported"
                ? "Imported from an iperf3 output: Wirespeed started no command. The output is under Raw output."
                : "No command was started on the hosts."}
          </p>
        )}
      </section>

      {!isActive ? (
        <section aria-labelledby="output-heading" className="mb-6">
          <h2 id="output-heading" className="mb-3 text-lg font-semibold">
            Raw output
          </h2>
          <div className="grid gap-3 lg:grid-cols-2">
            {(
              [
                ["Server", serverEnd.hostName, run.output.server],
                ["Client", clientEnd.hostName, run.output.client],
              ] as const
            ).map(([role, host, output]) => (
              <details
                key={role}
                className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
                open={Boolean(run.error)}
              >
                <summary className="cursor-pointer text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
                  {role} output on {host} ({output.split("\n").filter(Boolean).length} lines)
                </summary>
                <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100">
                  {output || "(nothing)"}
                </pre>
              </details>
            ))}
          </div>
        </section>
      ) : null}

      {isActive ? null : (
        <section aria-labelledby="export-heading" className="mb-6">
          <h2 id="export-heading" className="mb-3 text-lg font-semibold">
            Export
          </h2>
          <div className="flex flex-wrap gap-3">
            <a
              href={`/runs/${run.id}/export?format=csv`}
              download={`wirespeed-run-${run.id}.csv`}
              className={
                "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium " +
                "hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 " +
                "focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700"
              }
            >
              Download CSV
            </a>
            <a
              href={`/runs/${run.id}/export?format=json`}
              download={`wirespeed-run-${run.id}.json`}
              className={
                "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium " +
                "hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 " +
                "focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700"
              }
            >
              Download JSON
            </a>
            <p className="self-center text-xs text-slate-600 dark:text-slate-400">
              {series.compactedAt
                ? `The chart's ${series.points.length} points and each stream's totals: the ${series.sampleCount} intervals were compacted.`
                : `Every interval (${series.sampleCount}), not the thinned chart.`}
            </p>
          </div>
        </section>
      )}
    </>
  );
}
