"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { updateLink } from "@/lib/inventory/links";

// The switch itself is checked by the link's own schema (LinkUpdateSchema), so its message is the API's.
const SetHomeAssistantButtonSchema = z.strictObject({ linkId: IdSchema, homeAssistantRunButton: z.unknown() });

/** Whether Home Assistant's "Run again" button of a link may start its last test, as PATCH /api/links/:id sets it. */
export async function setHomeAssistantButtonAction(
  input: z.input<typeof SetHomeAssistantButtonSchema>,
): Promise<ActionResult<{ id: number; homeAssistantRunButton: boolean }>> {
  return runAction("set-home-assistant-button", "inventory", async () => {
    const { linkId, homeAssistantRunButton } = parseInput(SetHomeAssistantButtonSchema, input);
    const link = await updateLink(linkId, { homeAssistantRunButton });
    revalidatePath(`/links/${linkId}`);
    return { id: link.id, homeAssistantRunButton: link.homeAssistantRunButton };
  });
}
