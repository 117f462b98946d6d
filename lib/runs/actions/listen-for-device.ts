"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { getApp } from "@/lib/app";
import { parseListenRequest } from "@/lib/runs/listen-request";

// The link comes from the page; timeoutSeconds is checked by parseListenRequest, the same as the REST API's.
const ListenForDeviceSchema = z.strictObject({
  linkId: IdSchema,
  request: z.record(z.string(), z.unknown(), { error: "must be an object: { timeoutSeconds }" }),
});

/** "Listen for a device": a one-off iperf3 server on the link's managed end waits for the device's client. */
export async function listenForDeviceAction(input: z.input<typeof ListenForDeviceSchema>) {
  return runAction("listen-for-device", "run", async () => {
    const { linkId, request } = parseInput(ListenForDeviceSchema, input);
    const { timeoutSeconds } = parseListenRequest(request);
    const run = await getApp().runs.listenForDevice({ linkId, timeoutSeconds });
    revalidatePath(`/links/${linkId}`);
    revalidatePath("/runs");
    return { id: run.id };
  });
}
