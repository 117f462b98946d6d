"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { getApp } from "@/lib/app";
import { parseRunRequest } from "@/lib/runs/request";

// The link comes from the page; the options are checked by parseRunRequest, the same as the REST API's.
const StartRunSchema = z.strictObject({
  linkId: IdSchema,
  request: z.record(z.string(), z.unknown(), { error: "must be an object of iperf3 options" }),
});

/** Starts (or queues) a test on a link with the new-test form's options. */
export async function startRunAction(input: z.input<typeof StartRunSchema>) {
  return runAction("start-run", "run", async () => {
    const { linkId, request } = parseInput(StartRunSchema, input);
    const { options, clientSide } = parseRunRequest(request);
    const run = await getApp().runs.startRun({ linkId, options, clientSide });
    revalidatePath(`/links/${linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
