import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getLinkHints } from "@/lib/diagnosis/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/links/:id/hints: `{ hints }`, the findings of the link's latest runs and experiments, each with its `source`. */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const link = await db.link.findUnique({ where: { id }, select: { id: true } });
  if (!link) throw new AppError("not-found", `no link has id ${id}`);
  return Response.json({ hints: await getLinkHints(id) });
});
