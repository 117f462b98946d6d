// The Content-Security-Policy of a page, with the nonce that lets its own scripts run: proxy.ts
// gives each page a fresh one, and so does a share link's page served from memory
// (app/api/share-pages). Pure, so that proxy.ts can import it.

// `next dev` needs eval for its reload and error overlay; a production build never does.
const isDevelopment = process.env.NODE_ENV === "development";

/** A nonce for one response: 16 random bytes in base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * The policy of a page. Scripts run only with this response's nonce, or when a script that
 * had it loads them ('strict-dynamic': Next.js's chunks); an injected inline script runs not.
 * Styles keep 'unsafe-inline' for the inline style attributes of the charts.
 */
export function pageContentSecurityPolicy(nonce: string): string {
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
