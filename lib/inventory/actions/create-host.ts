"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { createHost } from "@/lib/inventory/hosts";
import { HostCreateSchema } from "@/lib/inventory/schemas";

// The REST API's schema: the form may send exactly what POST /api/hosts takes.
const CreateHostSchema = HostCreateSchema;

/** Records a new host; its secret is sealed by createHost and never comes back. */
export async function createHostAction(input: unknown): Promise<ActionResult<{ id: number; name: string }>> {
  return runAction("create-host", "credentials", async () => {
    const host = await createHost(parseInput(CreateHostSchema, input));
    revalidatePath("/hosts");
    revalidatePath("/");
    return { id: host.id, name: host.name };
  });
}
