import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { discoverNics } from "@/lib/hosts/discover";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/hosts/:id/discover: creates or updates the host's NICs from what it reports, and returns them. */
export const POST = withApiAuth(
  "inventory",
  async (_request: Request, { params }: { params: Promise<{ id: string }> }) =>
    Response.json({ nics: await discoverNics(await idFromParams(params)) }),
);
