"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { UserUpdateSchema } from "@/lib/auth/schemas";
import { updateUser } from "@/lib/auth/users";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

// The user and the changes side by side, so that a bad password is named `password`.
const UpdateUserSchema = UserUpdateSchema.extend({ userId: IdSchema });

/** Changes a user's role, password or disabled flag (a new password or a disable ends their sessions). */
export async function updateUserAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("update-user", "users", async (principal) => {
    const { userId, ...changes } = parseInput(UpdateUserSchema, input);
    await updateUser(userId, changes, principal!);
    revalidatePath("/users");
    return { id: userId };
  });
}
