import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { openExperimentEventStream } from "@/lib/experiments/events";
import { eventStreamResponse, resumePoint } from "@/lib/runs/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/experiments/:id/events: server-sent `status`, `step`, `sample` (with its runId) and `row`. */
export const GET = withApiAuth("read", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const exists = await db.experiment.findUnique({ where: { id }, select: { id: true } });
  if (!exists) throw new AppError("not-found", `Experiment ${id} does not exist.`);
  return eventStreamResponse(openExperimentEventStream(id, resumePoint(request), request.signal));
});
