"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { createLink } from "@/lib/inventory/links";
import { LinkCreateSchema } from "@/lib/inventory/schemas";

// The REST API's schema: two NIC ids, a name, and a speed that defaults to the slower NIC's.
const CreateLinkSchema = LinkCreateSchema;

/** Records a link between two NICs; answers its id for the link page. */
export async function createLinkAction(input: unknown): Promise<ActionResult<{ id: number; name: string }>> {
  return runAction("create-link", "inventory", async () => {
    const link = await createLink(parseInput(CreateLinkSchema, input));
    revalidatePath("/links");
    revalidatePath("/");
    return { id: link.id, name: link.name };
  });
}
