"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { InventoryError } from "@/lib/inventory/errors";
import { runEngine } from "@/lib/runs";
import { runAction } from "./action";

const RerunSchema = z.object({ runId: z.number().int().min(1).max(2_147_483_647) });

/** The same link, options and client side as an earlier run, as a new run. */
export async function rerun(input: z.input<typeof RerunSchema>) {
  return runAction("rerun", "run", async () => {
    const parsed = RerunSchema.safeParse(input);
    if (!parsed.success) throw new InventoryError("invalid", "No run to repeat was given.");
    const run = await runEngine.rerun(parsed.data.runId);
    revalidatePath(`/links/${run.linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
