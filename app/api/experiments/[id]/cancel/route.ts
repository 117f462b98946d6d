import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getApp } from "@/lib/app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/experiments/:id/cancel: stops the current step (its samples are kept) and drops the rest. */
export const POST = withApiAuth("run", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  return Response.json(await getApp().experiments.cancel(id));
});
