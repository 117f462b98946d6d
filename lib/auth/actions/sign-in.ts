"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { runAction, setSessionCookie, type ActionResult } from "@/lib/action";
import { clientAddress } from "@/lib/auth/client";
import { signIn } from "@/lib/auth/login";
import { safeNextPath } from "@/lib/auth/next-path";
import { LoginSchema } from "@/lib/auth/schemas";
import { parseInput } from "@/lib/errors";

// `next` is only ever a path of this app (safeNextPath); anything else sends the user home.
const SignInSchema = LoginSchema.extend({ next: z.unknown().optional() });

/** Signs in with a username and password (rate-limited by signIn) and sets the session cookie. Comes before an account. */
export async function signInAction(input: z.input<typeof SignInSchema>): Promise<ActionResult<{ next: string }>> {
  return runAction("sign-in", null, async () => {
    const { username, password, next } = parseInput(SignInSchema, input);
    const { token, expiresAt } = await signIn({ username, password }, clientAddress(await headers()));
    await setSessionCookie(token, expiresAt);
    return { next: safeNextPath(next) };
  });
}
