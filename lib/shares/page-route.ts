// How a share link's page (/s/TOKEN) is served: proxy.ts hands it to app/api/share-pages/[token],
// which answers the page's HTML from memory with a fresh nonce, and renders it through the page
// itself (app/s/[token]/page.tsx) only when what the share shows changed. Pure, so that proxy.ts can import it.

/** A share link's page: its path, and the token in it. */
export const SHARE_PAGE_PATH = /^\/s\/([A-Za-z0-9_-]+)\/?$/;
/** Sent by the in-memory copy's own request for the page: proxy.ts lets it through to the page. */
export const SHARE_RENDER_HEADER = "x-wirespeed-share-render";
/** Set by proxy.ts on the request it hands to the in-memory copy. */
export const SHARE_REWRITE_HEADER = "x-wirespeed-share-rewrite";
