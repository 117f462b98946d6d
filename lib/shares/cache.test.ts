import { describe, expect, it } from "vitest";
import { SharedPageCache, type RenderedPage } from "./cache";
import type { SharedContent } from "./contract";

// The in-memory copy of a share's page: rendered once for what the share shows, by one rendering
// however many visitors arrive at once, rendered again once the content was read again, and never
// kept when the rendering was not the page.

const content = (id: number) => ({ kind: "run", id }) as unknown as SharedContent;
const page = (html: string, status = 200): RenderedPage => ({ status, html, nonce: "n0nce" });

/** A cache holding share `shareId`'s content, read by the first get; that content. */
async function cacheWith(shareId: number, shown: SharedContent, ttlMs = 60_000) {
  const cache = new SharedPageCache();
  await cache.get(shareId, async () => ({ content: shown, ttlMs }), 0);
  return cache;
}

describe("a share's page in memory", () => {
  it("is rendered once for its content, whoever asks and however many ask at once", async () => {
    const shown = content(1);
    const cache = await cacheWith(1, shown);
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return page(`<p>${renders}</p>`);
    };
    const all = await Promise.all(Array.from({ length: 16 }, () => cache.page(1, shown, render)));
    expect(renders).toBe(1);
    expect(new Set(all.map((rendered) => rendered.html))).toEqual(new Set(["<p>1</p>"]));
    expect((await cache.page(1, shown, render)).html).toBe("<p>1</p>");
  });

  it("is rendered again once what the share shows was read again, and forgotten with its share", async () => {
    const cache = await cacheWith(1, content(1), 1_000);
    const first = (await cache.get(1, async () => ({ content: null, ttlMs: 0 }), 500))!;
    expect((await cache.page(1, first, async () => page("old"))).html).toBe("old");
    // Past its time: the content is read again, a new object, and the page with it.
    const again = (await cache.get(1, async () => ({ content: content(1), ttlMs: 1_000 }), 2_000))!;
    expect(again).not.toBe(first);
    expect((await cache.page(1, again, async () => page("new"))).html).toBe("new");
    cache.drop(1);
    expect((await cache.page(1, again, async () => page("unkept"))).html).toBe("unkept");
    expect((await cache.page(1, again, async () => page("still unkept"))).html).toBe("still unkept");
  });

  it("keeps no rendering that was not the page: an error status or a failed request", async () => {
    const shown = content(2);
    const cache = await cacheWith(1, shown);
    expect((await cache.page(1, shown, async () => page("busy", 503))).status).toBe(503);
    expect((await cache.page(1, shown, async () => page("fine"))).html).toBe("fine");

    const other = await cacheWith(2, shown);
    await expect(other.page(2, shown, () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect((await other.page(2, shown, async () => page("fine"))).html).toBe("fine");
  });

  it("keeps to its byte budget, forgetting the page used least recently first", async () => {
    const html = (share: number) => `<p>${String(share).repeat(3_000)}</p>`;
    // Room for about three pages of 3 kB with their contents.
    const cache = new SharedPageCache(13_000);
    const open = async (share: number) => {
      const shown = (await cache.get(share, async () => ({ content: content(share), ttlMs: 60_000 }), 0))!;
      let renders = 0;
      const rendered = await cache.page(share, shown, async () => {
        renders += 1;
        return page(html(share));
      });
      expect(rendered.html).toBe(html(share));
      return renders;
    };
    for (const share of [1, 2, 3]) expect(await open(share)).toBe(1);
    expect(cache.size).toBe(3);
    // Share 1 read again: share 2 is now the one used least recently, and goes for share 4.
    expect(await open(1)).toBe(0);
    expect(await open(4)).toBe(1);
    expect(cache.bytes).toBeLessThanOrEqual(13_000);
    expect(await open(1)).toBe(0);
    expect(await open(4)).toBe(0);
    expect(await open(2)).toBe(1);
    expect(cache.bytes).toBeLessThanOrEqual(13_000);
    // Every page forgotten, nothing is counted any more.
    for (const share of [1, 2, 3, 4]) cache.drop(share);
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
