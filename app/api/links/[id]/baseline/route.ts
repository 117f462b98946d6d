import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getLinkBaseline } from "@/lib/alerts/baseline";
import { AppError } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/links/:id/baseline: `{ linkId, baselineRuns, signatures }`, each signature with its median and its N. */
export const GET = withApiAuth("read", async (_request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  const baseline = await getLinkBaseline(id);
  if (!baseline) throw new AppError("not-found", `no link has id ${id}`);
  return Response.json(baseline);
});
