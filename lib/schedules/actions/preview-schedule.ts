"use server";

import { runAction, type ActionResult } from "@/lib/action";
import type { SchedulePreview } from "@/lib/schedules/contract";
import { previewStarts } from "@/lib/schedules/timing";

/**
 * The schedule form's live preview: the next starts of `{ cron | everyMinutes, timezone }`, or
 * what is wrong with them by field. It changes nothing, so anyone who may read schedules may ask.
 */
export async function previewScheduleAction(input: unknown): Promise<ActionResult<SchedulePreview>> {
  return runAction("preview-schedule", "read", async () => previewStarts(input, new Date()));
}
