import { describe, expect, it } from "vitest";
import { SharedPageCache, type RenderedPage } from "./cache";
import type { SharedContent } from "./contract";

// The in-memory copy of a share's page: rendered once for what the share shows, by one rendering
// however many visitors arrive at once, rendered again once the content was read again, and never
// kept when the rendering was not the page.

const content = (id: number) => ({ kind: "run", id }) as unknown as SharedContent;
const page = (html: string, status = 200): RenderedPage => ({ status, html, nonce: "n0nce" });

/** A cache holding `token`'s content, read by the first get; that content. */
async function cacheWith(token: string, shown: SharedContent, ttlMs = 60_000) {
  const cache = new SharedPageCache();
  await cache.get(token, 1, async () => ({ content: shown, ttlMs }), 0);
  return cache;
}

describe("a share's page in memory", () => {
  it("is rendered once for its content, whoever asks and however many ask at once", async () => {
    const shown = content(1);
    const cache = await cacheWith("t", shown);
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return page(`<p>${renders}</p>`);
    };
    const all = await Promise.all(Array.from({ length: 16 }, () => cache.page("t", shown, render)));
    expect(renders).toBe(1);
    expect(new Set(all.map((rendered) => rendered.html))).toEqual(new Set(["<p>1</p>"]));
    expect((await cache.page("t", shown, render)).html).toBe("<p>1</p>");
  });

  it("is rendered again once what the share shows was read again, and forgotten with its share", async () => {
    const cache = await cacheWith("t", content(1), 1_000);
    const first = (await cache.get("t", 1, async () => ({ content: null, ttlMs: 0 }), 500))!;
    expect((await cache.page("t", first, async () => page("old"))).html).toBe("old");
    // Past its time: the content is read again, a new object, and the page with it.
    const again = (await cache.get("t", 1, async () => ({ content: content(1), ttlMs: 1_000 }), 2_000))!;
    expect(again).not.toBe(first);
    expect((await cache.page("t", again, async () => page("new"))).html).toBe("new");
    cache.drop("t");
    expect((await cache.page("t", again, async () => page("unkept"))).html).toBe("unkept");
    expect((await cache.page("t", again, async () => page("still unkept"))).html).toBe("still unkept");
  });

  it("keeps no rendering that was not the page: an error status or a failed request", async () => {
    const shown = content(2);
    const cache = await cacheWith("t", shown);
    expect((await cache.page("t", shown, async () => page("busy", 503))).status).toBe(503);
    expect((await cache.page("t", shown, async () => page("fine"))).html).toBe("fine");

    const other = await cacheWith("u", shown);
    await expect(other.page("u", shown, () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect((await other.page("u", shown, async () => page("fine"))).html).toBe("fine");
  });
});
