"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { acknowledgeAlert } from "@/lib/alerts/alerts";

const AckAlertSchema = z.strictObject({ alertId: IdSchema });

/** Acknowledges an alert: someone has seen it. It stays firing until its runs recover. */
export async function ackAlertAction(
  input: z.input<typeof AckAlertSchema>,
): Promise<ActionResult<{ id: number; acknowledgedAt: string | null }>> {
  return runAction("ack-alert", "monitor", async () => {
    const { alertId } = parseInput(AckAlertSchema, input);
    const alert = await acknowledgeAlert(alertId);
    revalidatePath("/alerts");
    revalidatePath(`/links/${alert.link.id}`);
    revalidatePath("/");
    return { id: alert.id, acknowledgedAt: alert.acknowledgedAt };
  });
}
