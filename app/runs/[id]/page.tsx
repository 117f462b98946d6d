import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { pageIdOf } from "@/components/page-params";
import { Suspense } from "react";
import { EnvironmentSection } from "@/components/diagnosis/EnvironmentTable";
import { FindingsSection } from "@/components/diagnosis/HintList";
import { PageSection } from "@/components/PageSection";
import { clientSideOf, directionOf, isActiveStatus, parseStoredOptions } from "@/lib/runs/contract";
import { RunCommands, RunExport, RunRawOutput } from "@/components/runs/RunCommands";
import { RunCompactedNote, RunFailure } from "@/components/runs/RunFailure";
import { RunHeader } from "@/components/runs/RunHeader";
import { NoteEditor } from "@/components/notes/NoteEditor";
import { RunLiveView } from "@/components/runs/RunLiveView";
import { ListenPanel, PeerAddressNote } from "@/components/runs/ListenPanel";
import { peerWarning } from "@/lib/runs/listen";
import { RunSummaryCards, StreamTable } from "@/components/runs/RunFigures";
import { againstBaseline } from "@/lib/alerts/baseline";
import { describeAgainstBaseline } from "@/lib/alerts/contract";
import { requirePage } from "@/lib/auth/guard";
import { getLinkEnds } from "@/lib/runs/link-reads";
import { getRunDetail } from "@/lib/runs/lists";
import { getRunDiagnosis } from "@/lib/diagnosis/reads";
import { queuePositionOf } from "@/lib/runs";
import { getRunSeries, getRunStreamStats } from "@/lib/runs/series-reads";
import { CopyAsPost } from "@/components/posts/CopyAsPost";
import { postLinkOf, postTestOf, runPostSource } from "@/lib/posts/sources";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

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
  const runId = pageIdOf((await params).id);
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
  const hosts = { server: serverEnd.hostName, client: clientEnd.hostName };
  const kept = { sampleCount: series.sampleCount, pointCount: series.points.length, compactedAt: series.compactedAt };
  // A device's run: where it listens while it waits, and a word when the device came from elsewhere.
  const listen = run.status === "listening" ? run.listen : null;
  const listenQr = listen
    ? await QRCode.toString(`${listen.address}:${listen.port}`, { type: "svg", margin: 1, errorCorrectionLevel: "M" })
    : null;
  const peerNote = peerWarning(run.peerAddress, clientEnd.address);

  return (
    <>
      <RunHeader
        run={run}
        options={options}
        direction={direction}
        aName={ends.a.hostName}
        bName={ends.b.hostName}
        clientName={clientEnd.hostName}
        isActive={isActive}
      />
      <div className="-mt-2 mb-4">
        <NoteEditor kind="run" id={run.id} note={run.note} labels={run.labels} />
      </div>

      {run.error ? <RunFailure status={run.status} error={run.error} series={kept} /> : null}

      {listen && listenQr ? (
        <ListenPanel
          deviceName={clientEnd.hostName}
          address={listen.address}
          port={listen.port}
          command={listen.command}
          expiresAt={listen.expiresAt}
          qrSvg={listenQr}
        />
      ) : null}

      {peerNote ? <PeerAddressNote warning={peerNote} /> : null}

      {!isActive && run.summary ? (
        <section aria-label="Summary" className="mb-6">
          <RunSummaryCards
            summary={run.summary}
            protocol={options.protocol}
            clientHost={clientEnd.hostName}
            serverHost={serverEnd.hostName}
            // Nothing until the link has a baseline for this test: "needs 3 runs" is no figure to show beside one.
            againstBaseline={baseline?.baselineBitsPerSecond != null ? describeAgainstBaseline(baseline) : null}
            pathCheck={run.pathCheck}
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

      {series.compactedAt ? <RunCompactedNote {...kept} compactedAt={series.compactedAt} /> : null}

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
        <PageSection name="streams" title="Streams" className="mb-6">
          <Suspense fallback={<StreamsPlaceholder />}>
            <RunStreams runId={run.id} protocol={options.protocol} />
          </Suspense>
        </PageSection>
      ) : null}

      <EnvironmentSection
        environment={diagnosis?.environment ?? null}
        clientHost={clientEnd.hostName}
        serverHost={serverEnd.hostName}
        isActive={isActive}
        hasStopped={!isActive && run.status !== "succeeded"}
        isImported={run.source === "imported"}
      />

      <RunCommands
        hosts={hosts}
        commands={run.commands}
        versions={run.versions}
        isActive={isActive}
        isImported={run.source === "imported"}
      />

      {!isActive ? <RunRawOutput hosts={hosts} output={run.output} isOpen={Boolean(run.error)} /> : null}

      {isActive ? null : (
        <CopyAsPost
          source={runPostSource({
            run,
            link: postLinkOf(ends),
            test: postTestOf(options, direction),
            environment: diagnosis?.environment ?? null,
            hints: diagnosis?.hints ?? [],
            againstBaseline: baseline?.baselineBitsPerSecond != null ? describeAgainstBaseline(baseline) : null,
          })}
        />
      )}

      {isActive ? null : (
        <RunExport
          runId={run.id}
          sampleCount={series.sampleCount}
          pointCount={series.points.length}
          isCompacted={series.compactedAt !== null}
        />
      )}
    </>
  );
}
