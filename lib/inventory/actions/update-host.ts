"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { updateHost } from "@/lib/inventory/hosts";
import { HostUpdateSchema, IdSchema } from "@/lib/inventory/schemas";

// The REST API's PATCH schema (any subset of the host's fields) beside the host's id, so that each field keeps its name.
const UpdateHostSchema = HostUpdateSchema.extend({ hostId: IdSchema });

/** Changes the fields given; `auth` replaces method and secret together. Input is the form's, checked here. */
export async function updateHostAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("update-host", "inventory", async () => {
    const { hostId, ...changes } = parseInput(UpdateHostSchema, input);
    await updateHost(hostId, changes);
    revalidatePath("/hosts");
    revalidatePath(`/hosts/${hostId}`);
    revalidatePath("/links");
    revalidatePath("/");
    return { id: hostId };
  });
}
