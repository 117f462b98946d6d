import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { deleteNic, getNic, updateNic } from "@/lib/inventory/nics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = withApiAuth("read", async (_request: Request, { params }: Context) =>
  Response.json(await getNic(await idFromParams(params))),
);

export const PATCH = withApiAuth("inventory", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateNic(id, await readJsonBody(request)));
});

/** Deletes the NIC with its links and their runs; answers what went. */
export const DELETE = withApiAuth("inventory", async (_request: Request, { params }: Context) =>
  Response.json({ deleted: await deleteNic(await idFromParams(params)) }),
);
