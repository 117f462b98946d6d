import "server-only";
import { NextResponse } from "next/server";
import { isSecureRequest } from "@/lib/auth/sessions";
import {
  noticeCookie,
  OIDC_NOTICE_COOKIE,
  OIDC_NOTICE_MS,
  OIDC_PENDING_COOKIE,
  type OidcSignInError,
} from "@/lib/auth/oidc";

// The answers of the two routes of a sign-in through the identity provider: a redirect, with the cookies it needs.

/** The pending sign-in's cookie is sent to these routes only. */
export const PENDING_PATH = "/api/auth/oidc";

export function cookieOptions(request: Request, maxAgeMs: number, path: string) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: isSecureRequest(request.headers),
    path,
    maxAge: Math.floor(maxAgeMs / 1000),
  };
}

/** A redirect: to the provider, or to a path of this app (relative, so that it holds behind any proxy). */
export function redirectTo(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

/** Back to the page that says why the sign-in did not happen (the message travels in a sealed cookie). */
export function failedSignIn(request: Request, error: OidcSignInError): NextResponse {
  const response = redirectTo(error.page === "refused" ? "/login/refused" : "/login");
  response.cookies.set(OIDC_NOTICE_COOKIE, noticeCookie(error), cookieOptions(request, OIDC_NOTICE_MS, "/login"));
  response.cookies.set(OIDC_PENDING_COOKIE, "", cookieOptions(request, 0, PENDING_PATH));
  return response;
}
