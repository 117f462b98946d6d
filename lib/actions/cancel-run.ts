"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { InventoryError } from "@/lib/inventory/errors";
import { runEngine } from "@/lib/runs";
import { runAction } from "./action";

const CancelRunSchema = z.object({ runId: z.number().int().min(1).max(2_147_483_647) });

/** Stops a run (both ends' iperf3; the samples so far are kept) or takes it out of the queue. */
export async function cancelRun(input: z.input<typeof CancelRunSchema>) {
  return runAction("cancelRun", "run", async () => {
    const parsed = CancelRunSchema.safeParse(input);
    if (!parsed.success) throw new InventoryError("invalid", "No run to cancel was given.");
    const status = await runEngine.cancelRun(parsed.data.runId);
    revalidatePath(`/runs/${parsed.data.runId}`);
    revalidatePath("/runs");
    return { status };
  });
}
