import { cookies } from "next/headers";
import { clientAddress } from "@/lib/auth/client";
import { finishOidcSignIn, OIDC_PENDING_COOKIE, OidcSignInError } from "@/lib/auth/oidc";
import { SESSION_COOKIE, sessionCookieOptions, isSecureRequest } from "@/lib/auth/sessions";
import { cookieOptions, failedSignIn, PENDING_PATH, redirectTo } from "../respond";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Where the identity provider sends the browser back (WIRESPEED_PUBLIC_URL + /api/auth/oidc/callback): the
 * answer is checked against the pending sign-in's cookie, which is deleted whatever the outcome, so that the
 * same answer is never taken twice. Signed in: a session cookie and the page asked for before signing in (or
 * the home page); else the page that says why.
 */
export async function GET(request: Request) {
  const pending = (await cookies()).get(OIDC_PENDING_COOKIE)?.value;
  try {
    const { token, expiresAt, next } = await finishOidcSignIn({
      search: new URL(request.url).search,
      pending,
      client: clientAddress(request.headers),
    });
    const response = redirectTo(next);
    response.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(isSecureRequest(request.headers), expiresAt));
    response.cookies.set(OIDC_PENDING_COOKIE, "", cookieOptions(request, 0, PENDING_PATH));
    return response;
  } catch (error) {
    if (error instanceof OidcSignInError) return failedSignIn(request, error);
    throw error;
  }
}
