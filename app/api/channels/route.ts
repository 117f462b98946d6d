import { withApiAuth } from "@/lib/api/auth";
import { readJsonBody } from "@/lib/api/request";
import { createChannel, listChannels } from "@/lib/notify/channels";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/channels: every notification channel by name, without its secrets (a viewer gets each URL's origin only). */
export const GET = withApiAuth("read", async (_request: Request, _context: unknown, principal) =>
  Response.json({ channels: await listChannels(principal) }),
);

/** POST /api/channels: `{ name, type, config }`; 201 with the channel (its secrets listed by name in `secretsSet`). */
export const POST = withApiAuth("monitor", async (request: Request) => {
  const channel = await createChannel(await readJsonBody(request));
  return Response.json(channel, { status: 201, headers: { Location: `/api/channels/${channel.id}` } });
});
