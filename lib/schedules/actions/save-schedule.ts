"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { createSchedule, updateSchedule } from "@/lib/schedules/store";

// The schedule itself is the REST API's body, validated by lib/schedules/store.ts (so each field keeps its name).
const SaveScheduleSchema = z.strictObject({ scheduleId: IdSchema.optional(), schedule: z.unknown() });

/** Creates a schedule (no id) or replaces the fields of one; answers its id for its page. */
export async function saveScheduleAction(
  input: z.input<typeof SaveScheduleSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("save-schedule", "monitor", async () => {
    const { scheduleId, schedule } = parseInput(SaveScheduleSchema, input);
    const saved =
      scheduleId === undefined ? await createSchedule(schedule) : await updateSchedule(scheduleId, schedule);
    revalidateSchedulePages(saved.id, saved.linkId);
    return { id: saved.id };
  });
}

/** Every page that shows a schedule: its list, its page, its link's page and the overview's cards. */
function revalidateSchedulePages(id: number, linkId: number | null) {
  revalidatePath("/schedules");
  revalidatePath(`/schedules/${id}`);
  if (linkId !== null) revalidatePath(`/links/${linkId}`);
  revalidatePath("/");
}
