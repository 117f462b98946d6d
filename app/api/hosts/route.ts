import { withApiAuth } from "@/lib/api/auth";
import { readJsonBody } from "@/lib/api/request";
import { createHost, listHosts } from "@/lib/inventory/hosts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every host; credentials appear only as `authMethod` and `hasSecret`. */
export const GET = withApiAuth("read", async () => Response.json({ hosts: await listHosts() }));

/** Records a host; 201 with the host and its Location. */
export const POST = withApiAuth("credentials", async (request: Request) => {
  const host = await createHost(await readJsonBody(request));
  return Response.json(host, { status: 201, headers: { Location: `/api/hosts/${host.id}` } });
});
