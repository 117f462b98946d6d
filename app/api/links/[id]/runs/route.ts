import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { pageParams } from "@/lib/api/pagination";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { listLinkRuns } from "@/lib/runs/lists";
import { getApp } from "@/lib/app";
import { parseRunRequest } from "@/lib/runs/request";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/links/:id/runs: the link's runs, newest first, `?page=&pageSize=`. */
export const GET = withApiAuth("read", async (request: Request, { params }: Context) => {
  const linkId = await idFromParams(params);
  // A link without runs and no link at all both list nothing: only the row tells them apart.
  await requireRow("link", linkId, `Link ${linkId} does not exist.`);
  return Response.json(await listLinkRuns({ linkId, ...pageParams(request) }));
});

/** POST /api/links/:id/runs: starts (or queues) a test on the link; 202 with the run. */
export const POST = withApiAuth("run", async (request: Request, { params }: Context) => {
  const linkId = await idFromParams(params);
  const runRequest = parseRunRequest(await readJsonBody(request));
  const run = await getApp().runs.startRun({ linkId, options: runRequest.options, clientSide: runRequest.clientSide });
  return Response.json(run, { status: 202, headers: { Location: `/api/runs/${run.id}` } });
});
