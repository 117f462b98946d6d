"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { getApp } from "@/lib/app";

const CancelRunSchema = z.strictObject({ runId: IdSchema });

/** Stops a run (both ends' iperf3; the samples so far are kept) or takes it out of the queue. */
export async function cancelRunAction(input: z.input<typeof CancelRunSchema>) {
  return runAction("cancel-run", "run", async () => {
    const { runId } = parseInput(CancelRunSchema, input);
    const status = await getApp().runs.cancelRun(runId);
    revalidatePath(`/runs/${runId}`);
    revalidatePath("/runs");
    return { status };
  });
}
