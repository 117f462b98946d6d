import { withApiAuth } from "@/lib/api/auth";
import { readJsonBody } from "@/lib/api/request";
import { createLink, listLinks } from "@/lib/inventory/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every link with both ends and `mtuMismatch`. */
export const GET = withApiAuth("read", async () => Response.json({ links: await listLinks() }));

/** Records a link; `speedMbps` defaults to the slower NIC's speed. */
export const POST = withApiAuth("inventory", async (request: Request) => {
  const link = await createLink(await readJsonBody(request));
  return Response.json(link, { status: 201, headers: { Location: `/api/links/${link.id}` } });
});
