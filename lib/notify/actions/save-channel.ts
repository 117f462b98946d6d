"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { createChannel, updateChannel } from "@/lib/notify/channels";

// The channel is the REST API's body (POST, or PATCH where a secret left out keeps its stored value), validated by lib/notify.
const SaveChannelSchema = z.strictObject({ channelId: IdSchema.optional(), channel: z.unknown() });

/** Creates a notification channel (no id) or changes one; answers its id. Secrets are sealed there and never come back. */
export async function saveChannelAction(
  input: z.input<typeof SaveChannelSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("save-channel", "monitor", async () => {
    const { channelId, channel } = parseInput(SaveChannelSchema, input);
    const saved = channelId === undefined ? await createChannel(channel) : await updateChannel(channelId, channel);
    revalidatePath("/alerts/channels");
    // The rules' form lists the channels by name.
    revalidatePath("/alerts/rules");
    return { id: saved.id };
  });
}
