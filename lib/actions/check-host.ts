"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { checkHost, type HostCheck } from "@/lib/hosts/check";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

const CheckHostInputSchema = IdSchema;

/** Reachability, host key, platform and iperf3; on first contact only the presented fingerprint. */
export async function checkHostAction(hostId: unknown): Promise<ActionResult<HostCheck>> {
  return runAction("check-host", "inventory", async () => {
    const id = parseInput(CheckHostInputSchema, hostId, "hostId");
    const check = await checkHost(id);
    revalidatePath("/hosts");
    revalidatePath(`/hosts/${id}`);
    return check;
  });
}
