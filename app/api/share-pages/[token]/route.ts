import { newNonce, pageContentSecurityPolicy } from "@/lib/auth/page-policy";
import { getSharedPage } from "@/lib/shares/page-data";
import { SHARE_RENDER_HEADER, SHARE_REWRITE_HEADER } from "@/lib/shares/page-route";
import type { RenderedPage } from "@/lib/shares/cache";
import { getApp } from "@/lib/running-app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

/**
 * A share link's page (/s/TOKEN, which proxy.ts hands here), from memory: the page rendered once
 * for what the share shows, then the same HTML to every visitor with a fresh nonce in it and in its
 * Content-Security-Policy, as proxy.ts gives every page. Whether the share still opens is asked at
 * every request (getSharedPage), so a revoke or an expiry counts at once; a share that opens
 * nothing is the page's own 404, rendered each time.
 */
export async function GET(request: Request, { params }: Params): Promise<Response> {
  const { token } = await params;
  // Only what proxy.ts hands on: /api/share-pages/TOKEN opened as such is nothing.
  if (request.headers.get(SHARE_REWRITE_HEADER) !== "1") return new Response(null, { status: 404 });
  const page = await getSharedPage(token);
  const rendered = page
    ? await getApp().sharedPages.page(token, page.content, () => renderPage(token))
    : await renderPage(token);
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
    headers: { [SHARE_RENDER_HEADER]: "1" },
    cache: "no-store",
    redirect: "manual",
  });
  const policy = response.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
  return { status: response.status, html: await response.text(), nonce };
}
