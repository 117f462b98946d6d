"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { getApp } from "@/lib/app";

const RerunRunSchema = z.strictObject({ runId: IdSchema });

/** The same link, options and client side as an earlier run, as a new run. */
export async function rerunRunAction(input: z.input<typeof RerunRunSchema>) {
  return runAction("rerun-run", "run", async () => {
    const { runId } = parseInput(RerunRunSchema, input);
    const run = await getApp().runs.rerun(runId);
    revalidatePath(`/links/${run.linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
