"use server";

import { cookies, headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { recordAudit } from "@/lib/auth/audit";
import { currentSessionPrincipal } from "@/lib/auth/guard";
import { clientAddress, signIn } from "@/lib/auth/login";
import { createSession, deleteSession, isSecureRequest, SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth/sessions";
import { createApiToken, revokeApiToken } from "@/lib/auth/tokens";
import { createFirstAdmin, createUser, deleteUser, updateUser } from "@/lib/auth/users";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

// Sign-in, first set-up, sign-out, users and API tokens. Each goes through runAction
// with the permission it needs; the two that come before an account pass null.

async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  const secure = isSecureRequest(await headers());
  (await cookies()).set(SESSION_COOKIE, token, sessionCookieOptions(secure, expiresAt));
}

/** Where to go after signing in: a path of this app only, never another site. */
function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(?!\/)[^\s\\]*$/.test(next) && !next.startsWith("/login") ? next : "/";
}

export async function signInAction(input: { username: unknown; password: unknown; next?: unknown }): Promise<ActionResult<{ next: string }>> {
  return runAction("sign-in", null, async () => {
    const { token, expiresAt } = await signIn({ username: input.username, password: input.password }, clientAddress(await headers()));
    await setSessionCookie(token, expiresAt);
    return { next: safeNext(input.next) };
  });
}

/** The first account: only while none exists (createFirstAdmin checks in a transaction). */
export async function setUpAdminAction(input: { username: unknown; password: unknown }): Promise<ActionResult<{ next: string }>> {
  return runAction("set-up", null, async () => {
    const admin = await createFirstAdmin({ username: input.username, password: input.password });
    const { token, expiresAt } = await createSession(admin.id);
    await setSessionCookie(token, expiresAt);
    return { next: "/" };
  });
}

export async function signOutAction(): Promise<ActionResult<null>> {
  return runAction("sign-out", null, async () => {
    const jar = await cookies();
    const token = jar.get(SESSION_COOKIE)?.value;
    const principal = await currentSessionPrincipal();
    if (token) await deleteSession(token);
    jar.delete(SESSION_COOKIE);
    if (principal) await recordAudit("session.logout", "session", null, "", principal);
    return null;
  });
}

export async function createUserAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("create-user", "users", async () => {
    const user = await createUser(input);
    revalidatePath("/users");
    return { id: user.id };
  });
}

export async function updateUserAction(id: unknown, changes: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction("update-user", "users", async (principal) => {
    const userId = parseInput(IdSchema, id, "id");
    await updateUser(userId, changes, principal!);
    revalidatePath("/users");
    return { id: userId };
  });
}

export async function deleteUserAction(id: unknown): Promise<ActionResult<null>> {
  return runAction("delete-user", "users", async (principal) => {
    await deleteUser(parseInput(IdSchema, id, "id"), principal!);
    revalidatePath("/users");
    return null;
  });
}

/** A token for the signed-in user, with their role: the one time its value is ever shown. */
export async function createTokenAction(name: unknown): Promise<ActionResult<{ token: string; id: number }>> {
  return runAction("create-token", "read", async (principal) => {
    if (!principal?.userId) throw new Error("Only a signed-in user can have API tokens.");
    const { token, view } = await createApiToken(principal.userId, name);
    revalidatePath("/account");
    return { token, id: view.id };
  });
}

export async function revokeTokenAction(id: unknown): Promise<ActionResult<null>> {
  return runAction("revoke-token", "read", async (principal) => {
    await revokeApiToken(parseInput(IdSchema, id, "id"), principal!);
    revalidatePath("/account");
    revalidatePath("/users");
    return null;
  });
}
