import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { AppError } from "@/lib/errors";
import { deleteChannel, getChannel, updateChannel } from "@/lib/notify/channels";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The channel without its secrets (a viewer gets its URL's origin only). */
export const GET = withApiAuth("read", async (_request: Request, { params }: Context, principal) => {
  const id = await idFromParams(params);
  const channel = await getChannel(id, principal);
  if (!channel) throw new AppError("not-found", `Notification channel ${id} does not exist.`);
  return Response.json(channel);
});

/** Any of name and config; a config field left out is kept, `null` clears it. */
export const PATCH = withApiAuth("monitor", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateChannel(id, await readJsonBody(request)));
});

/** Deletes the channel; the rules that named it lose it, past notifications keep its name. */
export const DELETE = withApiAuth("monitor", async (_request: Request, { params }: Context) => {
  await deleteChannel(await idFromParams(params));
  return new Response(null, { status: 204 });
});
