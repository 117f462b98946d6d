import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { getApp } from "@/lib/app";
import { parseListenRequest } from "@/lib/runs/listen-request";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * POST /api/links/:id/listen `{ "timeoutSeconds": 300 }`: a one-off iperf3 server on the link's
 * managed end waits for the device's iperf3 client; 201 with `{ run }`, listening, and its `listen`
 * (address, port, command, expiresAt). Operators only, as POST /api/runs.
 */
export const POST = withApiAuth("run", async (request: Request, { params }: Context) => {
  const linkId = await idFromParams(params);
  // No body at all takes every default.
  const hasBody = request.body !== null && request.headers.get("content-length") !== "0";
  const { timeoutSeconds } = parseListenRequest(hasBody ? await readJsonBody(request) : {});
  const run = await getApp().runs.listenForDevice({ linkId, timeoutSeconds });
  return Response.json({ run }, { status: 201, headers: { Location: `/api/runs/${run.id}` } });
});
