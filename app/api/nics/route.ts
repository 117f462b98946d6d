import { withApiAuth } from "@/lib/api/auth";
import { parseId, readJsonBody } from "@/lib/api/request";
import { createNic, listNics } from "@/lib/inventory/nics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every NIC, or one host's with `?hostId=N`. */
export const GET = withApiAuth("read", async (request: Request) => {
  const hostId = new URL(request.url).searchParams.get("hostId");
  return Response.json({ nics: await listNics(hostId === null ? {} : { hostId: parseId(hostId, "hostId") }) });
});

export const POST = withApiAuth("inventory", async (request: Request) => {
  const nic = await createNic(await readJsonBody(request));
  return Response.json(nic, { status: 201, headers: { Location: `/api/nics/${nic.id}` } });
});
