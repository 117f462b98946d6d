"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { TokenNameSchema } from "@/lib/auth/schemas";
import { createApiToken } from "@/lib/auth/tokens";
import { parseInput } from "@/lib/errors";

const CreateTokenSchema = z.strictObject({ name: TokenNameSchema });

/** A token for the signed-in user, with their role: the one time its value is ever shown. Input is the form's, checked here. */
export async function createTokenAction(input: unknown): Promise<ActionResult<{ token: string; id: number }>> {
  return runAction("create-token", "read", async (principal) => {
    if (!principal?.userId) throw new Error("Only a signed-in user can have API tokens.");
    const { name } = parseInput(CreateTokenSchema, input);
    const { token, view } = await createApiToken(principal.userId, name);
    revalidatePath("/account");
    return { token, id: view.id };
  });
}
