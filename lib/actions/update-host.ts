"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { parseInput } from "@/lib/errors";
import { updateHost } from "@/lib/inventory/hosts";
import { HostUpdateSchema, IdSchema } from "@/lib/inventory/schemas";

// The REST API's PATCH schema: any subset of the host's fields.
const UpdateHostInputSchema = HostUpdateSchema;

/** Changes the fields given; `auth` replaces method and secret together. */
export async function updateHostAction(hostId: unknown, changes: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("update-host", "inventory", async () => {
    const id = parseInput(IdSchema, hostId, "hostId");
    await updateHost(id, parseInput(UpdateHostInputSchema, changes));
    revalidatePath("/hosts");
    revalidatePath(`/hosts/${id}`);
    revalidatePath("/links");
    revalidatePath("/");
    return { id };
  });
}
