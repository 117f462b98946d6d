"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { getApp } from "@/lib/app";
import { IdSchema } from "@/lib/inventory/schemas";

const RerunExperimentSchema = z.strictObject({ experimentId: IdSchema });

/** The whole plan of an earlier experiment again, as a new experiment. */
export async function rerunExperimentAction(input: z.input<typeof RerunExperimentSchema>) {
  return runAction("rerun-experiment", "run", async () => {
    const { experimentId } = parseInput(RerunExperimentSchema, input);
    const experiment = await getApp().experiments.rerun(experimentId);
    revalidatePath("/experiments");
    return { id: experiment.id };
  });
}
