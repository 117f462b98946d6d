import { withApiAuth } from "@/lib/api/auth";
import { AppError } from "@/lib/errors";
import { idFromParams } from "@/lib/api/request";
import { db } from "@/lib/db";
import { eventStreamResponse, openRunEventStream, resumePoint } from "@/lib/runs/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/runs/:id/events: the run's server-sent events; resumes after Last-Event-ID. */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const runId = await idFromParams(params);
  const exists = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!exists) throw new AppError("not-found", `Run ${runId} does not exist.`);
  return eventStreamResponse(openRunEventStream(runId, resumePoint(request), request.signal));
});
