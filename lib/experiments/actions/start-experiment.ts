"use server";

import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/action";
import { getApp } from "@/lib/app";

/** Starts an experiment from the same body as POST /api/experiments; field errors name the field. */
export async function startExperimentAction(body: unknown) {
  return runAction("start-experiment", "run", async () => {
    const experiment = await getApp().experiments.start(body);
    revalidatePath("/experiments");
    for (const link of experiment.links) revalidatePath(`/links/${link.id}`);
    return { id: experiment.id };
  });
}
