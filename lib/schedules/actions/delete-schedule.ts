"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { deleteSchedule, getSchedule } from "@/lib/schedules/store";

const DeleteScheduleSchema = z.strictObject({ scheduleId: IdSchema });

/** Deletes a schedule and its history of starts; the runs and experiments it started stay. */
export async function deleteScheduleAction(
  input: z.input<typeof DeleteScheduleSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("delete-schedule", "monitor", async () => {
    const { scheduleId } = parseInput(DeleteScheduleSchema, input);
    // Read first only to know which link page shows it; a missing schedule is deleteSchedule's 404.
    const linkId = (await getSchedule(scheduleId))?.linkId ?? null;
    await deleteSchedule(scheduleId);
    revalidatePath("/schedules");
    if (linkId !== null) revalidatePath(`/links/${linkId}`);
    revalidatePath("/");
    return { id: scheduleId };
  });
}
