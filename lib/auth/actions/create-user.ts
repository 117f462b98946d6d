"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import { NewUserSchema } from "@/lib/auth/schemas";
import { createUser } from "@/lib/auth/users";
import { parseInput } from "@/lib/errors";

// Username, password and role, checked as createUser checks them.
const CreateUserSchema = NewUserSchema;

/** A new account with a role; the admin passes the password on themselves. Input is the form's, checked here. */
export async function createUserAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("create-user", "users", async () => {
    const user = await createUser(parseInput(CreateUserSchema, input));
    revalidatePath("/users");
    return { id: user.id };
  });
}
