import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { MAX_IMPORT_REQUEST_BYTES } from "@/lib/imports/contract";
import { importOutputs } from "@/lib/imports/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * POST /api/links/:id/imports: `{ outputs: [{ text, startedAt?, name?, clientSide? }] }`, at most
 * 50 outputs and 20 MB in all; answers `{ imported, duplicates, failed }`, one entry per output.
 */
export const POST = withApiAuth("run", async (request: Request, { params }: Context) => {
  const linkId = await idFromParams(params);
  const body = await readJsonBody(request, MAX_IMPORT_REQUEST_BYTES);
  return Response.json(await importOutputs(linkId, body));
});
