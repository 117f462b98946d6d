import { withApiAuth } from "@/lib/api/auth";
import { idFromParams } from "@/lib/api/request";
import { getAlert } from "@/lib/alerts/alerts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/alerts/:id: one alert with its notifications. */
export const GET = withApiAuth("read", async (_request: Request, { params }: Context) =>
  Response.json(await getAlert(await idFromParams(params))),
);
