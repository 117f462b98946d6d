import { withApiAuth } from "@/lib/api/auth";
import { readJsonBody } from "@/lib/api/request";
import { createChannel, listChannels } from "@/lib/notify/channels";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/channels: every notification channel by name, without its secrets. */
export const GET = withApiAuth("read", async () => Response.json({ channels: await listChannels() }));

/** POST /api/channels: `{ name, type, config }`; 201 with the channel (its secrets listed by name in `secretsSet`). */
export const POST = withApiAuth("monitor", async (request: Request) => {
  const channel = await createChannel(await readJsonBody(request));
  return Response.json(channel, { status: 201, headers: { Location: `/api/channels/${channel.id}` } });
});
