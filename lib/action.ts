import "server-only";
import { cookies, headers } from "next/headers";
import { withPrincipal } from "@/lib/auth/context";
import { authorize, currentSessionPrincipal } from "@/lib/auth/guard";
import type { Principal } from "@/lib/auth/principal";
import type { Permission } from "@/lib/auth/roles";
import { isSecureRequest, SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth/sessions";
import { AppError, type FieldError } from "@/lib/errors";

/** What every server action answers: the value, or the fields that were wrong and a message. */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; message: string; errors: FieldError[] };

/**
 * The one wrapper of server actions: the signed-in user must hold `permission` (the
 * check of lib/auth/guard.ts, the same as pages' and the API's), the body runs as that
 * user (the audit log names them), and every known error (not allowed, validation, not
 * found, conflict, a host that failed) becomes `{ ok: false }` with messages written for
 * the user. Anything else is a bug: only its first line is logged, and the user gets a
 * generic message.
 *
 * `permission: null` is for the actions that come before an account: sign-in and first set-up.
 */
export async function runAction<T>(
  name: string,
  permission: Permission | null,
  body: (principal: Principal | null) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    if (permission === null) return { ok: true, value: await body(null) };
    const principal = authorize(await currentSessionPrincipal(), permission);
    return { ok: true, value: await withPrincipal(principal, () => body(principal)) };
  } catch (error) {
    return actionFailureOf(error, name);
  }
}

/**
 * The answer of a server action that threw: an AppError's message (and hint, after it) and
 * fields, whatever its kind. Anything else is a bug whose text may hold request data: only
 * its first line is logged, under the action's name.
 */
export function actionFailureOf(error: unknown, name: string): ActionResult<never> {
  if (error instanceof AppError) {
    return { ok: false, message: error.hint ? `${error.message}. ${error.hint}` : error.message, errors: error.fields };
  }
  const firstLine =
    error instanceof Error
      ? (error.message.split("\n").find((line) => line.trim()) ?? "").slice(0, 200)
      : String(error);
  console.error(`action ${name}: unexpected error: ${firstLine}`);
  return { ok: false, message: "Something went wrong on the server: see its log.", errors: [] };
}

/** The session cookie of a new session (sign-in, first set-up): Secure when the request came over HTTPS. */
export async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  const secure = isSecureRequest(await headers());
  (await cookies()).set(SESSION_COOKIE, token, sessionCookieOptions(secure, expiresAt));
}
