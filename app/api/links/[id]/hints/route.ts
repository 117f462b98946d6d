import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { idFromParams } from "@/lib/api/request";
import { getLinkHints } from "@/lib/diagnosis/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/links/:id/hints: `{ hints }`, the findings of the link's latest runs and experiments, each with its `source`. */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  await requireRow("link", id, `no link has id ${id}`);
  return Response.json({ hints: await getLinkHints(id) });
});
