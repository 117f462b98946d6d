// How a share link's page (/s/TOKEN) is served: proxy.ts hands it to app/api/share-pages/[token],
// which answers the page's HTML from memory with a fresh nonce, and renders it through the page
// itself (app/s/[token]/page.tsx) only when what the share shows changed. Pure, so that proxy.ts can import it.

/** A share link's page: its path, and the token in it. */
export const SHARE_PAGE_PATH = /^\/s\/([A-Za-z0-9_-]+)\/?$/;
/**
 * Sent by the in-memory copy's own request for the page, with shareRenderSecret() as its value:
 * proxy.ts lets that one through to the page. A visitor's, without the secret, counts for nothing.
 */
export const SHARE_RENDER_HEADER = "x-wirespeed-share-render";
/** Set by proxy.ts on the request it hands to the in-memory copy. */
export const SHARE_REWRITE_HEADER = "x-wirespeed-share-rewrite";

/** Where the secret lives: proxy.ts and the route handlers are bundled apart, and share the process's globalThis. */
const SECRET_KEY = Symbol.for("wirespeed.share-render-secret");

/** This process's secret of the render request: 32 random bytes, made at its first use, never sent anywhere else. */
export function shareRenderSecret(): string {
  const holder = globalThis as { [SECRET_KEY]?: string };
  holder[SECRET_KEY] ??= Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  return holder[SECRET_KEY];
}

/** Whether a request is the in-memory copy's own request for the page (its header carries this process's secret). */
export function isShareRender(headers: Headers): boolean {
  const value = headers.get(SHARE_RENDER_HEADER);
  const secret = shareRenderSecret();
  if (value === null || value.length !== secret.length) return false;
  // Every character compared, whatever the first that differs: the answer's time says nothing of the secret.
  let difference = 0;
  for (let index = 0; index < secret.length; index += 1)
    difference |= value.charCodeAt(index) ^ secret.charCodeAt(index);
  return difference === 0;
}

/**
 * What an unknown, expired or revoked token answers (404): the same few bytes every time, from
 * memory, so that made-up tokens cost no rendering of the page.
 */
export const SHARE_NOT_FOUND_HTML =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head>' +
  "<body><main><h1>Not found</h1><p>This share link does not exist, has expired or was revoked.</p></main></body></html>";
