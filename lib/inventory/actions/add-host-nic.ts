"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { createNic } from "@/lib/inventory/nics";
import { NicCreateSchema } from "@/lib/inventory/schemas";

// POST /api/nics's schema: a host Wirespeed does not log in to gets its NICs by hand, as the API records them.
const AddHostNicSchema = NicCreateSchema;

/** Records a NIC typed in on a host's page (an iperf3 server's or a device's, which no discovery reads). */
export async function addHostNicAction(input: unknown): Promise<ActionResult<{ id: number; name: string }>> {
  return runAction("add-host-nic", "inventory", async () => {
    const nic = await createNic(parseInput(AddHostNicSchema, input));
    revalidatePath(`/hosts/${nic.hostId}`);
    revalidatePath("/hosts");
    revalidatePath("/links/new");
    return { id: nic.id, name: nic.name };
  });
}
