import { withApiAuth } from "@/lib/api/auth";
import { AppError } from "@/lib/errors";
import { idFromParams } from "@/lib/api/request";
import { getLinkEnds, getLinkHistory } from "@/lib/runs/link-reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * GET /api/links/:id/history: the link page's history chart (one point per succeeded run,
 * oldest first, the newest 2,000) and how many of the link's runs are queued or running.
 */
export const GET = withApiAuth("read", async (_request: Request, { params }: Context) => {
  const linkId = await idFromParams(params);
  if (!(await getLinkEnds(linkId))) throw new AppError("not-found", `Link ${linkId} does not exist.`);
  return Response.json(await getLinkHistory({ linkId }));
});
