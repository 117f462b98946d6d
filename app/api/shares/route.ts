import { withApiAuth } from "@/lib/api/auth";
import { readJsonBody } from "@/lib/api/request";
import { createShare, listShares } from "@/lib/shares/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/shares: `{ shares }`, newest first, expired ones too, without their URLs (shown once, by POST). */
export const GET = withApiAuth("share", async () => {
  return Response.json({ shares: await listShares() });
});

/**
 * POST /api/shares: `{ kind: "run" | "experiment" | "link", id, expiresInDays: 1-365 | null, hideAddresses }`;
 * 201 with `{ share: { id, url, kind, expiresAt, hideAddresses } }`.
 */
export const POST = withApiAuth("share", async (request: Request) => {
  const share = await createShare(await readJsonBody(request), { origin: new URL(request.url).origin });
  return Response.json({ share }, { status: 201, headers: { Location: `/api/shares/${share.id}` } });
});
