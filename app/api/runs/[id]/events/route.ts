import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { idFromParams } from "@/lib/api/request";
import { eventStreamResponse, openRunEventStream, resumePoint } from "@/lib/runs/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/runs/:id/events: the run's server-sent events; resumes after Last-Event-ID. */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const runId = await idFromParams(params);
  await requireRow("run", runId, `Run ${runId} does not exist.`);
  return eventStreamResponse(openRunEventStream(runId, resumePoint(request), request.signal));
});
