import { expect, type Page } from "@playwright/test";

// Proof that a page updated itself from the REST API rather than by being loaded again:
// its document is the one first loaded (a mark set on it is still there, one navigation
// entry), the server was never asked to render it again (no RSC request for it but
// prefetches), and its data came over the API paths it asks.

export type LiveWatch = {
  /** Paths and queries of the API requests the page made since `watchLive`. */
  apiRequests: string[];
  /** Fails unless the document is the same, with one navigation, and no RSC render of `pathname` was asked for. */
  expectSameDocument: () => Promise<void>;
};

export async function watchLive(page: Page, apiPrefix: string): Promise<LiveWatch> {
  const pathname = new URL(page.url()).pathname;
  const mark = `live-${Date.now()}-${Math.random()}`;
  await page.evaluate((value) => {
    (window as unknown as { wirespeedMark?: string }).wirespeedMark = value;
  }, mark);
  const apiRequests: string[] = [];
  const pageRenders: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(apiPrefix)) apiRequests.push(`${url.pathname}${url.search}`);
    const headers = request.headers();
    // The router asking the server to render the page again (router.refresh, a navigation); prefetches of links do not count.
    if (
      url.pathname === pathname &&
      (headers.rsc === "1" || url.searchParams.has("_rsc")) &&
      !headers["next-router-prefetch"]
    )
      pageRenders.push(url.toString());
  });
  return {
    apiRequests,
    async expectSameDocument() {
      const state = await page.evaluate(() => ({
        mark: (window as unknown as { wirespeedMark?: string }).wirespeedMark,
        navigations: performance.getEntriesByType("navigation").length,
      }));
      expect(state.mark, "the page was loaded again").toBe(mark);
      expect(state.navigations).toBe(1);
      expect(pageRenders, "the server was asked to render the page again").toEqual([]);
    },
  };
}
