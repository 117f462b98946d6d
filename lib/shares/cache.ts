import type { SharedContent } from "./contract";

// What share pages show, kept in memory by token: a link posted on a forum is opened by many at
// once, and each open must not read the run's samples again. Whether the share still opens is
// asked of the database at every request (one lookup by the token's unique index), so a revoke
// or an expiry counts at once, on every instance; only what the page shows is kept here.

/** A share's page as the page rendered it: its HTML, and the nonce its scripts carry in it. */
export type RenderedPage = { status: number; html: string; nonce: string };

type Entry = {
  shareId: number;
  content: Promise<SharedContent | null>;
  until: number;
  /** The page rendered from this entry's content, once asked (the rendering while it is under way). */
  page?: { content: SharedContent; rendered: Promise<RenderedPage> };
};

/** At most this many pages are kept; the oldest goes first. */
const MAX_ENTRIES = 500;

export class SharedPageCache {
  readonly #entries = new Map<string, Entry>();

  /**
   * The content for `token`, read by `read` when it is not kept (or was kept for another share, or
   * too long ago). Readers arriving while it is read share the one read. `ttlMs` says how long a
   * content may be kept, once read.
   */
  async get(
    token: string,
    shareId: number,
    read: () => Promise<{ content: SharedContent | null; ttlMs: number }>,
    nowMs = Date.now(),
  ): Promise<SharedContent | null> {
    const kept = this.#entries.get(token);
    if (kept && kept.shareId === shareId && kept.until > nowMs) return kept.content;
    const entry: Entry = { shareId, content: Promise.resolve(null), until: Number.POSITIVE_INFINITY };
    entry.content = read().then(
      ({ content, ttlMs }) => {
        entry.until = nowMs + ttlMs;
        return content;
      },
      (error: unknown) => {
        // A failed read is not kept: the next visitor reads again.
        if (this.#entries.get(token) === entry) this.#entries.delete(token);
        throw error;
      },
    );
    this.#entries.delete(token);
    this.#entries.set(token, entry);
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    return entry.content;
  }

  /**
   * The page of `token` rendered from `content`, by `render` when it was not yet (or was rendered
   * from another content: the share's figures were read again since). Visitors arriving while it
   * renders share the one rendering; a rendering that is not the page (not a 200) is not kept.
   */
  page(token: string, content: SharedContent, render: () => Promise<RenderedPage>): Promise<RenderedPage> {
    const entry = this.#entries.get(token);
    if (entry?.page && entry.page.content === content) return entry.page.rendered;
    const rendered = render();
    if (!entry) return rendered;
    const page = { content, rendered };
    entry.page = page;
    const forget = () => {
      if (entry.page === page) delete entry.page;
    };
    rendered.then((result) => (result.status === 200 ? undefined : forget()), forget);
    return rendered;
  }

  /** Forgets a token's page (its share was revoked). */
  drop(token: string): void {
    this.#entries.delete(token);
  }

  get size(): number {
    return this.#entries.size;
  }
}
