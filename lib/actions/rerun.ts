"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { runEngine } from "@/lib/runs";
import { runAction } from "./action";

const RerunSchema = z.strictObject({ runId: IdSchema });

/** The same link, options and client side as an earlier run, as a new run. */
export async function rerun(input: z.input<typeof RerunSchema>) {
  return runAction("rerun", "run", async () => {
    const { runId } = parseInput(RerunSchema, input);
    const run = await runEngine.rerun(runId);
    revalidatePath(`/links/${run.linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
