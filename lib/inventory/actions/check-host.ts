"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { checkHost, type HostCheck } from "@/lib/hosts/check";
import { IdSchema } from "@/lib/inventory/schemas";

const CheckHostSchema = z.strictObject({ hostId: IdSchema });

/** Reachability, host key, platform and iperf3; on first contact only the presented fingerprint. */
export async function checkHostAction(input: z.input<typeof CheckHostSchema>): Promise<ActionResult<HostCheck>> {
  return runAction("check-host", "inventory", async () => {
    const { hostId } = parseInput(CheckHostSchema, input);
    const check = await checkHost(hostId);
    revalidatePath("/hosts");
    revalidatePath(`/hosts/${hostId}`);
    return check;
  });
}
