"use server";

import { cookies } from "next/headers";
import { runAction, type ActionResult } from "@/lib/action";
import { recordAudit } from "@/lib/auth/audit";
import { currentSessionPrincipal } from "@/lib/auth/guard";
import { deleteSession, SESSION_COOKIE } from "@/lib/auth/sessions";

/** Ends the session of this browser (no input: the cookie says which). */
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
