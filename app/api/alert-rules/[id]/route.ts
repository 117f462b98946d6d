import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/rules";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = withApiAuth("read", async (_request: Request, { params }: Context) =>
  Response.json(await getAlertRule(await idFromParams(params))),
);

/** Any subset of the fields; `channelIds` replaces the rule's channels. */
export const PATCH = withApiAuth("monitor", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateAlertRule(id, await readJsonBody(request)));
});

/** Deletes the rule with the alerts it opened; 204. */
export const DELETE = withApiAuth("monitor", async (_request: Request, { params }: Context) => {
  await deleteAlertRule(await idFromParams(params));
  return new Response(null, { status: 204 });
});
