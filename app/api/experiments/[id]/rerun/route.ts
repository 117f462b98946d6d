import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getApp } from "@/lib/app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/experiments/:id/rerun: the whole plan again, as a new experiment; 202 with it. */
export const POST = withApiAuth("run", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const experiment = await getApp().experiments.rerun(id);
  return Response.json(experiment, { status: 202, headers: { Location: `/api/experiments/${experiment.id}` } });
});
