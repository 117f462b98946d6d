import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { idFromParams } from "@/lib/api/request";
import { openExperimentEventStream } from "@/lib/experiments/events";
import { eventStreamResponse, resumePoint } from "@/lib/runs/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/experiments/:id/events: server-sent `status`, `step`, `sample` (with its runId) and `row`. */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  await requireRow("experiment", id, `Experiment ${id} does not exist.`);
  return eventStreamResponse(openExperimentEventStream(id, resumePoint(request), request.signal));
});
