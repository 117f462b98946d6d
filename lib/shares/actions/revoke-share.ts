"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { revokeShare } from "@/lib/shares/store";

const RevokeShareSchema = z.strictObject({ shareId: IdSchema });

/** Revokes a share link (the /shares page): it answers 404 from now on. */
export async function revokeShareAction(
  input: z.input<typeof RevokeShareSchema>,
): Promise<ActionResult<{ id: number }>> {
  return runAction("revoke-share", "share", async () => {
    const { shareId } = parseInput(RevokeShareSchema, input);
    await revokeShare(shareId);
    revalidatePath("/shares");
    return { id: shareId };
  });
}
