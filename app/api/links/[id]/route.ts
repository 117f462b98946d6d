import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { deleteLink, getLink, updateLink } from "@/lib/inventory/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = withApiAuth("read", async (_request: Request, { params }: Context) =>
  Response.json(await getLink(await idFromParams(params))),
);

export const PATCH = withApiAuth("inventory", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateLink(id, await readJsonBody(request)));
});

/** Deletes the link with its runs; answers what went. */
export const DELETE = withApiAuth("inventory", async (_request: Request, { params }: Context) =>
  Response.json({ deleted: await deleteLink(await idFromParams(params)) }),
);
