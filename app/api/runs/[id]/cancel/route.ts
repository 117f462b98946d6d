import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getRunDetail } from "@/lib/runs/lists";
import { getApp } from "@/lib/app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/runs/:id/cancel: stops both ends; the samples so far are kept. Answers the run as it ended. */
export const POST = withApiAuth("run", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  await getApp().runs.cancelRun(id);
  return Response.json(await getRunDetail(id));
});
