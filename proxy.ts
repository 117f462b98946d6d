import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageContentSecurityPolicy } from "@/lib/auth/page-policy";
import { isShareRender, SHARE_PAGE_PATH, SHARE_REWRITE_HEADER } from "@/lib/shares/page-route";

// Every page gets a fresh nonce in its Content-Security-Policy. Next.js reads the policy of
// the request and puts the nonce on its own scripts; x-nonce hands it to server components
// for an inline script of the app's own. The path being asked for goes to server components
// too (x-wirespeed-path), so that a page that needs a sign-in can send the visitor back to it
// afterwards. No check is made here: every page, action and route checks the role itself
// (lib/auth/guard.ts).
export function proxy(request: NextRequest) {
  const share = shareCopyOf(request);
  if (share) return share;
  const nonce = newNonce();
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

/**
 * A share link's page as a browser opens it (GET, not the router's own request for its data)
 * goes to its copy in memory (app/api/share-pages/[token]): a link posted on a forum is opened by
 * many at once, and rendering the page for each would cost every one of them Next.js's work.
 * The copy's own request for the page carries SHARE_RENDER_HEADER with this process's secret and goes
 * through to the page; a visitor's header without it is no way past the copy.
 */
function shareCopyOf(request: NextRequest): NextResponse | null {
  if (request.method !== "GET" || isShareRender(request.headers)) return null;
  if (request.headers.has("rsc") || request.headers.has("next-router-prefetch")) return null;
  const token = SHARE_PAGE_PATH.exec(request.nextUrl.pathname)?.[1];
  if (!token) return null;
  const headers = new Headers(request.headers);
  headers.set(SHARE_REWRITE_HEADER, "1");
  return NextResponse.rewrite(new URL(`/api/share-pages/${token}`, request.url), { request: { headers } });
}
