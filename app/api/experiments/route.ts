import { withApiAuth } from "@/lib/api/auth";
import { pageParams, queryId } from "@/lib/api/pagination";
import { readJsonBody } from "@/lib/api/request";
import { getApp } from "@/lib/app";
import { listExperiments } from "@/lib/experiments/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/experiments: newest first, `?linkId=` those that use a link, `?page=&pageSize=`. */
export const GET = withApiAuth("read", async (request: Request) => {
  const url = new URL(request.url);
  const linkId = queryId(url, "linkId");
  return Response.json(await listExperiments({ linkId, ...pageParams(request) }));
});

/** POST /api/experiments: `{ kind, name?, linkIds, options, ...fields of the kind }`; 202 with the experiment. */
export const POST = withApiAuth("run", async (request: Request) => {
  const experiment = await getApp().experiments.start(await readJsonBody(request));
  return Response.json(experiment, { status: 202, headers: { Location: `/api/experiments/${experiment.id}` } });
});
