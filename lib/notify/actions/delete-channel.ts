"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { deleteChannel } from "@/lib/notify/channels";

const DeleteChannelSchema = z.strictObject({ channelId: IdSchema });

/** Deletes a channel; the rules that named it no longer send there, and past deliveries keep its name. */
export async function deleteChannelAction(
  input: z.input<typeof DeleteChannelSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("delete-channel", "monitor", async () => {
    const { channelId } = parseInput(DeleteChannelSchema, input);
    await deleteChannel(channelId);
    revalidatePath("/alerts/channels");
    revalidatePath("/alerts/rules");
    return { id: channelId };
  });
}
