import { withApiAuth } from "@/lib/api/auth";
import { resultTableCsv } from "@/lib/experiments/export";
import { getExperiment } from "@/lib/experiments/reads";
import { getRunDetail } from "@/lib/runs/lists";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /experiments/:id/export?format=csv|json. CSV: the result table as the page shows it,
 * rates in plain bits/s, the experiment's note and labels in the last two columns of its first
 * row. JSON: the experiment as the API gives it, plus each run's summary (the raw iperf3 output
 * stays on each run's own export).
 */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const raw = (await params).id;
  const experimentId = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  const experiment = Number.isSafeInteger(experimentId) && experimentId >= 1 ? await getExperiment(experimentId) : null;
  if (!experiment)
    return new Response(`Experiment ${raw} does not exist.\n`, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  const format = new URL(request.url).searchParams.get("format") === "json" ? "json" : "csv";
  const headers = {
    "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="wirespeed-experiment-${experiment.id}.${format}"`,
    "cache-control": "no-store",
  };
  if (format === "csv")
    return new Response(experiment.table ? resultTableCsv(experiment.table, experiment) : "", { headers });
  const runIds = [...new Set(experiment.steps.flatMap((step) => step.runIds))];
  const runs = (await Promise.all(runIds.map((runId) => getRunDetail(runId)))).flatMap((run) =>
    run ? [{ ...run, output: undefined }] : [],
  );
  return new Response(`${JSON.stringify({ experiment, runs }, null, 2)}\n`, { headers });
});
