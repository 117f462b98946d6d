import { withApiAuth } from "@/lib/api/auth";
import { NOTE_CSV_HEADERS, noteCsvCells } from "@/lib/experiments/export";
import { getRunDetail } from "@/lib/runs/lists";
import { iterateRunSamples } from "@/lib/runs/series-reads";
import { readCompactedDigest } from "@/lib/runs/digest";
import type { SeriesPoint } from "@/lib/runs/series";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Every sample field, in the order of the samples API; streams as JSON text in one cell.
const CSV_COLUMNS = [
  "seq",
  "start",
  "end",
  "direction",
  "bytes",
  "bitsPerSecond",
  "retransmits",
  "cwndBytes",
  "jitterMs",
  "lostPackets",
  "packets",
  "omitted",
  "streams",
] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// A compacted run's CSV: its thinned chart points (what retention left), one column per stream line.
const COMPACTED_CSV_COLUMNS = [
  "t",
  "bitsPerSecond",
  "reverseBitsPerSecond",
  "retransmits",
  "jitterMs",
  "lostPercent",
  "omitted",
] as const;

function compactedCsvRow(point: SeriesPoint, streamCount: number): string {
  const cells = [
    point.t,
    point.bps,
    point.reverseBps,
    point.retransmits,
    point.jitterMs,
    point.lostPercent,
    point.omitted,
  ];
  for (let index = 0; index < streamCount; index += 1) cells.push(point[`s${index}`] ?? null);
  return cells.map(csvCell).join(",");
}

/**
 * GET /runs/:id/export?format=csv|json: every sample of a run (never the thinned chart),
 * streamed so that a one-hour 0.1 s run does not sit in memory twice. A run compacted by sample
 * retention has no samples left: its export holds what is, the thinned points and the stream
 * totals (JSON: under "compacted", with "samples" empty; CSV: the points, with other columns).
 * The run's note and labels are in its JSON, and in the CSV's last two columns on the first line.
 */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const raw = (await params).id;
  const runId = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  const run = Number.isSafeInteger(runId) ? await getRunDetail(runId) : null;
  if (!run)
    return new Response(`Run ${raw} does not exist.\n`, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  const format = new URL(request.url).searchParams.get("format") === "json" ? "json" : "csv";
  const compacted = await readCompactedDigest(runId);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        if (format === "csv" && compacted) {
          const streamColumns = Array.from(
            { length: compacted.streamCount },
            (_, index) => `stream${index + 1}BitsPerSecond`,
          );
          controller.enqueue(
            encoder.encode(`${[...COMPACTED_CSV_COLUMNS, ...streamColumns, ...NOTE_CSV_HEADERS].join(",")}\n`),
          );
          compacted.points.forEach((point, index) => {
            const cells = [compactedCsvRow(point, compacted.streamCount), ...noteCsvCells(run, index === 0)];
            controller.enqueue(encoder.encode(`${cells.join(",")}\n`));
          });
        } else if (format === "csv") {
          controller.enqueue(encoder.encode(`${[...CSV_COLUMNS, ...NOTE_CSV_HEADERS].join(",")}\n`));
          let isFirst = true;
          for await (const sample of iterateRunSamples(runId)) {
            const cells = [...CSV_COLUMNS.map((column) => csvCell(sample[column])), ...noteCsvCells(run, isFirst)];
            controller.enqueue(encoder.encode(`${cells.join(",")}\n`));
            isFirst = false;
          }
        } else {
          const { output, ...rest } = run;
          const compactedJson = compacted
            ? {
                at: compacted.compactedAt,
                sampleCount: compacted.sampleCount,
                streamCount: compacted.streamCount,
                points: compacted.points,
                streams: compacted.streams,
              }
            : null;
          controller.enqueue(
            encoder.encode(
              `{"run":${JSON.stringify({ ...rest, output })},"compacted":${JSON.stringify(compactedJson)},"samples":[`,
            ),
          );
          let isFirst = true;
          for await (const sample of iterateRunSamples(runId)) {
            controller.enqueue(encoder.encode(`${isFirst ? "" : ","}\n${JSON.stringify(sample)}`));
            isFirst = false;
          }
          controller.enqueue(encoder.encode("\n]}\n"));
        }
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="wirespeed-run-${runId}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
