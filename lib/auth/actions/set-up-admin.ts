"use server";

import { z } from "zod";
import { runAction, setSessionCookie, type ActionResult } from "@/lib/action";
import { PasswordSchema, UsernameSchema } from "@/lib/auth/schemas";
import { createSession } from "@/lib/auth/sessions";
import { createFirstAdmin } from "@/lib/auth/users";
import { parseInput } from "@/lib/errors";

// Not strict: the sign-in form also sends `next`, which set-up has no use for.
const SetUpAdminSchema = z.object({ username: UsernameSchema, password: PasswordSchema });

/** The first account: only while none exists (createFirstAdmin checks in a transaction). Comes before an account. */
export async function setUpAdminAction(
  input: z.input<typeof SetUpAdminSchema>,
): Promise<ActionResult<{ next: string }>> {
  return runAction("set-up", null, async () => {
    const { username, password } = parseInput(SetUpAdminSchema, input);
    const admin = await createFirstAdmin({ username, password });
    const { token, expiresAt } = await createSession(admin.id);
    await setSessionCookie(token, expiresAt);
    return { next: "/" };
  });
}
