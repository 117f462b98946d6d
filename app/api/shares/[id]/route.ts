import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { revokeShare } from "@/lib/shares/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** DELETE /api/shares/:id: 204; the link answers 404 from now on. */
export const DELETE = withApiAuth("share", async (_request: Request, { params }: Context) => {
  await revokeShare(await idFromParams(params));
  return new Response(null, { status: 204 });
});
