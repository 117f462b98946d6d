import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { deleteHost, getHost, updateHost } from "@/lib/inventory/hosts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = withApiAuth("read", async (_request: Request, { params }: Context) =>
  Response.json(await getHost(await idFromParams(params))),
);

export const PATCH = withApiAuth("inventory", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateHost(id, await readJsonBody(request)));
});

/** Deletes the host with its NICs, links and runs; answers what went. */
export const DELETE = withApiAuth("credentials", async (_request: Request, { params }: Context) =>
  Response.json({ deleted: await deleteHost(await idFromParams(params)) }),
);
