import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { checkHost } from "@/lib/hosts/check";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/hosts/:id/check: reachability, host key (to confirm on first contact), platform, iperf3. */
export const POST = withApiAuth(
  "inventory",
  async (_request: Request, { params }: { params: Promise<{ id: string }> }) =>
    Response.json(await checkHost(await idFromParams(params))),
);
