"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { deleteHost, type DeletedCounts } from "@/lib/inventory/hosts";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

const DeleteHostInputSchema = IdSchema;

/** Deletes the host with its NICs, their links and runs; refused while one of those runs is active. */
export async function deleteHostAction(hostId: unknown): Promise<ActionResult<DeletedCounts>> {
  return runAction("delete-host", "credentials", async () => {
    const id = parseInput(DeleteHostInputSchema, hostId, "hostId");
    const deleted = await deleteHost(id);
    revalidatePath("/hosts");
    revalidatePath("/links");
    revalidatePath("/runs");
    revalidatePath("/");
    return deleted;
  });
}
