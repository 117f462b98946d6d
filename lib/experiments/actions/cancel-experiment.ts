"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { getApp } from "@/lib/app";
import { IdSchema } from "@/lib/inventory/schemas";

const CancelExperimentSchema = z.strictObject({ experimentId: IdSchema });

/** Stops an experiment's current step (its samples are kept) and drops the steps after it. */
export async function cancelExperimentAction(input: z.input<typeof CancelExperimentSchema>) {
  return runAction("cancel-experiment", "run", async () => {
    const { experimentId } = parseInput(CancelExperimentSchema, input);
    const experiment = await getApp().experiments.cancel(experimentId);
    revalidatePath(`/experiments/${experimentId}`);
    revalidatePath("/experiments");
    return { status: experiment.status };
  });
}
