"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { createAlertRule, updateAlertRule } from "@/lib/alerts/rules";

// The rule is the REST API's body, validated by lib/alerts (m ≤ n, at least one condition), so each field keeps its name.
const SaveAlertRuleSchema = z.strictObject({ ruleId: IdSchema.optional(), rule: z.unknown() });

/** Creates an alert rule (no id) or changes one; answers its id. */
export async function saveAlertRuleAction(
  input: z.input<typeof SaveAlertRuleSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("save-alert-rule", "monitor", async () => {
    const { ruleId, rule } = parseInput(SaveAlertRuleSchema, input);
    const saved = ruleId === undefined ? await createAlertRule(rule) : await updateAlertRule(ruleId, rule);
    revalidatePath("/alerts/rules");
    revalidatePath("/alerts");
    return { id: saved.id };
  });
}
