import { withApiAuth } from "@/lib/api/auth";
import { AppError } from "@/lib/errors";
import { idFromParams } from "@/lib/api/request";
import { getRunDetail } from "@/lib/queries/run-lists";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/runs/:id: status, options, commands, summary, error and both raw outputs. */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const run = await getRunDetail(id);
  if (!run) throw new AppError("not-found", `Run ${id} does not exist.`);
  return Response.json(run);
});
