"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { updateLink } from "@/lib/inventory/links";

// The settings themselves are checked by the link's own schema (LinkUpdateSchema), so their messages are the API's.
const SetBaselineRunsSchema = z.strictObject({
  linkId: IdSchema,
  baselineRuns: z.unknown().optional(),
  importsInBaseline: z.unknown().optional(),
});

/**
 * A link's baseline settings, as PATCH /api/links/:id sets them: how many of its latest successful
 * runs of a test make its baseline, and whether imported runs count.
 */
export async function setBaselineRunsAction(
  input: z.input<typeof SetBaselineRunsSchema>,
): Promise<ActionResult<{ id: number; baselineRuns: number; importsInBaseline: boolean }>> {
  return runAction("set-baseline-runs", "inventory", async () => {
    const { linkId, baselineRuns, importsInBaseline } = parseInput(SetBaselineRunsSchema, input);
    const link = await updateLink(linkId, { baselineRuns, importsInBaseline });
    revalidatePath(`/links/${linkId}`);
    return { id: link.id, baselineRuns: link.baselineRuns, importsInBaseline: link.importsInBaseline };
  });
}
