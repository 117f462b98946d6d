"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { updateSchedule } from "@/lib/schedules/store";

const SetScheduleEnabledSchema = z.strictObject({
  scheduleId: IdSchema,
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

/** Pauses a schedule (no next start) or resumes it (its next start counted afresh from now). */
export async function setScheduleEnabledAction(
  input: z.input<typeof SetScheduleEnabledSchema>,
): Promise<ActionResult<{ id: number; enabled: boolean; nextRunAt: string | null }>> {
  return runAction("set-schedule-enabled", "monitor", async () => {
    const { scheduleId, enabled } = parseInput(SetScheduleEnabledSchema, input);
    const saved = await updateSchedule(scheduleId, { enabled });
    revalidatePath("/schedules");
    revalidatePath(`/schedules/${saved.id}`);
    if (saved.linkId !== null) revalidatePath(`/links/${saved.linkId}`);
    return { id: saved.id, enabled: saved.enabled, nextRunAt: saved.nextRunAt };
  });
}
