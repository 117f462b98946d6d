import { newNonce, pageContentSecurityPolicy } from "@/lib/auth/page-policy";
import { openSharedPage } from "@/lib/shares/page-data";
import {
  isShareRender,
  SHARE_NOT_FOUND_HTML,
  SHARE_RENDER_HEADER,
  SHARE_REWRITE_HEADER,
  shareRenderSecret,
} from "@/lib/shares/page-route";
import type { RenderedPage } from "@/lib/shares/cache";
import { getApp } from "@/lib/running-app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

/**
 * A share link's page (/s/TOKEN, which proxy.ts hands here), from memory: the page rendered once
 * for what the share shows, then the same HTML to every visitor with a fresh nonce in it and in its
 * Content-Security-Policy, as proxy.ts gives every page. Whether the share still opens is asked at
 * every request (openSharedPage), so a revoke or an expiry counts at once; a token that opens
 * nothing is a fixed 404 from memory (SHARE_NOT_FOUND_HTML): no rendering, no request to the page.
 */
export async function GET(request: Request, { params }: Params): Promise<Response> {
  const { token } = await params;
  // Only what proxy.ts hands on: /api/share-pages/TOKEN opened as such is nothing.
  if (request.headers.get(SHARE_REWRITE_HEADER) !== "1") return new Response(null, { status: 404 });
  // The page's own request handed back here: proxy.ts did not know this process's secret. Said, never looped.
  if (isShareRender(request.headers)) {
    console.error("[wirespeed] a share page's render request came back to its copy in memory: not rendered");
    return new Response(null, { status: 500 });
  }
  const opened = await openSharedPage(token);
  if (!opened) return pageResponse({ status: 404, html: SHARE_NOT_FOUND_HTML, nonce: "" });
  return pageResponse(await getApp().sharedPages.page(opened.shareId, opened.page.content, () => renderPage(token)));
}

/** A page's HTML with a fresh nonce in it and in its policy, kept by no cache between here and the visitor. */
function pageResponse(rendered: RenderedPage): Response {
  const nonce = newNonce();
  return new Response(rendered.nonce ? rendered.html.replaceAll(rendered.nonce, nonce) : rendered.html, {
    status: rendered.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": pageContentSecurityPolicy(nonce),
      "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate",
      "x-robots-tag": "noindex",
    },
  });
}

/** The page as app/s/[token]/page.tsx renders it, asked of this server over loopback without cookies. */
async function renderPage(token: string): Promise<RenderedPage> {
  const port = process.env.PORT || "3000";
  const response = await fetch(`http://127.0.0.1:${port}/s/${encodeURIComponent(token)}`, {
    headers: { [SHARE_RENDER_HEADER]: shareRenderSecret() },
    cache: "no-store",
    redirect: "manual",
  });
  const policy = response.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
  return { status: response.status, html: await response.text(), nonce };
}
