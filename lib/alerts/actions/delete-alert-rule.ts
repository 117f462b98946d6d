"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { deleteAlertRule } from "@/lib/alerts/rules";

const DeleteAlertRuleSchema = z.strictObject({ ruleId: IdSchema });

/** Deletes an alert rule with its alerts. */
export async function deleteAlertRuleAction(
  input: z.input<typeof DeleteAlertRuleSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("delete-alert-rule", "monitor", async () => {
    const { ruleId } = parseInput(DeleteAlertRuleSchema, input);
    await deleteAlertRule(ruleId);
    revalidatePath("/alerts/rules");
    revalidatePath("/alerts");
    // Its alerts went with it: the cards and link pages no longer mark them.
    revalidatePath("/");
    return { id: ruleId };
  });
}
