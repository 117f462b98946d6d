"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { updateLink } from "@/lib/inventory/links";

// baselineRuns itself is checked by the link's own schema (LinkUpdateSchema), so its message is the API's.
const SetBaselineRunsSchema = z.strictObject({ linkId: IdSchema, baselineRuns: z.unknown() });

/** How many of a link's latest successful runs of a test make its baseline: a setting of the link, as PATCH /api/links/:id sets it. */
export async function setBaselineRunsAction(input: z.input<typeof SetBaselineRunsSchema>): Promise<ActionResult<{ id: number; baselineRuns: number }>> {
  return runAction("set-baseline-runs", "inventory", async () => {
    const { linkId, baselineRuns } = parseInput(SetBaselineRunsSchema, input);
    const link = await updateLink(linkId, { baselineRuns });
    revalidatePath(`/links/${linkId}`);
    return { id: link.id, baselineRuns: link.baselineRuns };
  });
}
