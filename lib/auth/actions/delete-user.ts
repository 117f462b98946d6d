"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { deleteUser } from "@/lib/auth/users";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

const DeleteUserSchema = z.strictObject({ userId: IdSchema });

/** Deletes an account with its sessions and tokens (deleteUser refuses the last admin and oneself). */
export async function deleteUserAction(input: z.input<typeof DeleteUserSchema>): Promise<ActionResult<null>> {
  return runAction("delete-user", "users", async (principal) => {
    const { userId } = parseInput(DeleteUserSchema, input);
    await deleteUser(userId, principal!);
    revalidatePath("/users");
    return null;
  });
}
