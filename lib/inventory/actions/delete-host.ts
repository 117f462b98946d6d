"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { deleteHost, type DeletedCounts } from "@/lib/inventory/hosts";
import { IdSchema } from "@/lib/inventory/schemas";

const DeleteHostSchema = z.strictObject({ hostId: IdSchema });

/** Deletes the host with its NICs, their links and runs; refused while one of those runs is active. */
export async function deleteHostAction(input: z.input<typeof DeleteHostSchema>): Promise<ActionResult<DeletedCounts>> {
  return runAction("delete-host", "credentials", async () => {
    const { hostId } = parseInput(DeleteHostSchema, input);
    const deleted = await deleteHost(hostId);
    revalidatePath("/hosts");
    revalidatePath("/links");
    revalidatePath("/runs");
    revalidatePath("/");
    return deleted;
  });
}
