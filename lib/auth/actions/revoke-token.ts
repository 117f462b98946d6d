"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { revokeApiToken } from "@/lib/auth/tokens";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

const RevokeTokenSchema = z.strictObject({ tokenId: IdSchema });

/** Revokes one of the user's own tokens (an admin may revoke anyone's). */
export async function revokeTokenAction(input: z.input<typeof RevokeTokenSchema>): Promise<ActionResult<null>> {
  return runAction("revoke-token", "read", async (principal) => {
    const { tokenId } = parseInput(RevokeTokenSchema, input);
    await revokeApiToken(tokenId, principal!);
    revalidatePath("/account");
    revalidatePath("/users");
    return null;
  });
}
