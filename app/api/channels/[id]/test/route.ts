import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { recordAudit } from "@/lib/auth/audit";
import { sendTestNotification } from "@/lib/notify/deliver";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * POST /api/channels/:id/test: sends a test notification, one attempt, and answers
 * `{ result }`. A delivery that failed is still a 200: the request worked, the result says why.
 */
export const POST = withApiAuth(
  "monitor",
  async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
    const id = await idFromParams(params);
    const result = await sendTestNotification(id);
    await recordAudit("channel.test", "channel", id, `${result.channelName}: ${result.status}`);
    return Response.json({ result });
  },
);
