import { beginOidcSignIn, OIDC_PENDING_COOKIE, OIDC_PENDING_MS, OidcSignInError } from "@/lib/auth/oidc";
import { cookieOptions, failedSignIn, PENDING_PATH, redirectTo } from "../respond";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Starts a sign-in through the identity provider: a redirect to its authorization page, with the sealed
 * cookie (PKCE verifier, state, nonce, the `?next=` page to open after; 10 minutes) that the callback
 * checks its answer against.
 */
export async function GET(request: Request) {
  try {
    const { url, pending } = await beginOidcSignIn(new URL(request.url).searchParams.get("next") ?? undefined);
    const response = redirectTo(url.href);
    response.cookies.set(OIDC_PENDING_COOKIE, pending, cookieOptions(request, OIDC_PENDING_MS, PENDING_PATH));
    return response;
  } catch (error) {
    if (error instanceof OidcSignInError) return failedSignIn(request, error);
    throw error;
  }
}
