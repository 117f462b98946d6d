import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { queryInteger } from "@/lib/api/pagination";
import { idFromParams } from "@/lib/api/request";
import { listRunSamples } from "@/lib/runs/series-reads";
import { readCompactedDigest } from "@/lib/runs/digest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:id/samples: every interval in order; `?after=<seq>&limit=` pages through long runs.
 * `compactedAt`: when sample retention deleted them (the run's export keeps its thinned points); null while kept.
 */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const runId = await idFromParams(params);
  const url = new URL(request.url);
  const after = queryInteger(url, "after", { min: 0, max: 2_147_483_647, fallback: 0 });
  const limit = queryInteger(url, "limit", { min: 1, max: 10_000, fallback: 1000 });
  await requireRow("run", runId, `Run ${runId} does not exist.`);
  const [samples, compacted] = await Promise.all([listRunSamples({ runId, after, limit }), readCompactedDigest(runId)]);
  const next = samples.length === limit ? samples.at(-1)!.seq + 1 : null;
  return Response.json({ samples, next, compactedAt: compacted?.compactedAt ?? null });
});
