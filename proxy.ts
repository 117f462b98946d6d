import { NextResponse, type NextRequest } from "next/server";

// `next dev` needs eval for its reload and error overlay; a production build never does.
const isDevelopment = process.env.NODE_ENV === "development";

/**
 * The policy of a page. Scripts run only with this response's nonce, or when a script that
 * had it loads them ('strict-dynamic': Next.js's chunks); an injected inline script runs not.
 * Styles keep 'unsafe-inline' for the inline style attributes of the charts.
 */
function pageContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDevelopment ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

// Every page gets a fresh nonce in its Content-Security-Policy. Next.js reads the policy of
// the request and puts the nonce on its own scripts; x-nonce hands it to server components
// for an inline script of the app's own. The path being asked for goes to server components
// too (x-wirespeed-path), so that a page that needs a sign-in can send the visitor back to it
// afterwards. No check is made here: every page, action and route checks the role itself
// (lib/auth/guard.ts).
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.set("x-nonce", nonce);
  headers.set("x-wirespeed-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  // A share link's page (/s/TOKEN) is read by anyone who has the link, never found by a search engine.
  if (request.nextUrl.pathname.startsWith("/s/")) response.headers.set("x-robots-tag", "noindex");
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/).*)"],
};
