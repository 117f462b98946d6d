import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { acknowledgeAlert } from "@/lib/alerts/alerts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** POST /api/alerts/:id/ack: acknowledged by the caller; the alert stays firing until its runs recover. */
export const POST = withApiAuth("monitor", async (_request: Request, { params }: Context) =>
  Response.json(await acknowledgeAlert(await idFromParams(params))),
);
