"use server";

import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import type { DeliveryResult } from "@/lib/notify/contract";
import { sendTestNotification } from "@/lib/notify/deliver";

const TestChannelSchema = z.strictObject({ channelId: IdSchema });

/** Sends a test notification to a stored channel; answers how it went (sent, or failed after n attempts and why). */
export async function testChannelAction(
  input: z.input<typeof TestChannelSchema>,
): Promise<ActionResult<DeliveryResult>> {
  return runAction("test-channel", "monitor", async () => {
    const { channelId } = parseInput(TestChannelSchema, input);
    return sendTestNotification(channelId);
  });
}
