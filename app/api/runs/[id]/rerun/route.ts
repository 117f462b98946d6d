import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getApp } from "@/lib/app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/runs/:id/rerun: the same link and options again, as a new run; 202 with it. */
export const POST = withApiAuth("run", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const run = await getApp().runs.rerun(id);
  return Response.json(run, { status: 202, headers: { Location: `/api/runs/${run.id}` } });
});
