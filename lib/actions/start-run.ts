"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { InventoryError } from "@/lib/inventory/errors";
import { runEngine } from "@/lib/runs";
import { parseRunRequest } from "@/lib/runs/request";
import { runAction } from "./action";

// The link comes from the page; the options are checked by parseRunRequest, the same as the REST API's.
const StartRunSchema = z.object({
  linkId: z.number().int().min(1).max(2_147_483_647),
  request: z.record(z.string(), z.unknown()),
});

/** Starts (or queues) a test on a link with the new-test form's options. */
export async function startRun(input: z.input<typeof StartRunSchema>) {
  return runAction("startRun", "run", async () => {
    const parsed = StartRunSchema.safeParse(input);
    if (!parsed.success) throw new InventoryError("invalid", "The form did not send a link and options.");
    const { options, clientSide } = parseRunRequest(parsed.data.request);
    const run = await runEngine.startRun({ linkId: parsed.data.linkId, options, clientSide });
    revalidatePath(`/links/${parsed.data.linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
