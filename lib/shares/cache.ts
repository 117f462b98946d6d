import type { SharedContent } from "./contract";

// What share pages show, kept in memory by share: a link posted on a forum is opened by many at
// once, and each open must not read the run's samples again. Whether the share still opens is
// asked of the database at every request (one lookup by the token hash's unique index), so a revoke
// or an expiry counts at once, on every instance; only what the page shows is kept here.

/** A share's page as the page rendered it: its HTML, and the nonce its scripts carry in it. */
export type RenderedPage = { status: number; html: string; nonce: string };

type Entry = {
  content: Promise<SharedContent | null>;
  until: number;
  /** The page rendered from this entry's content, once asked (the rendering while it is under way). */
  page?: { content: SharedContent; rendered: Promise<RenderedPage> };
  /** What the content and the rendered page take, once known (UTF-8 bytes of their JSON and HTML). */
  contentBytes: number;
  pageBytes: number;
};

/**
 * At most this many bytes are kept (the contents' JSON and the pages' HTML); the page used least
 * recently goes first. A run's page with its chart is about 170 kB at worst: some hundred pages.
 */
export const SHARED_PAGES_BYTES = 16 * 1024 * 1024;
/** What an entry costs beside its content and page, so that many small ones are bounded too. */
const ENTRY_BYTES = 1024;

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");

export class SharedPageCache {
  readonly #entries = new Map<number, Entry>();
  readonly #budget: number;
  #bytes = 0;

  constructor(budgetBytes: number = SHARED_PAGES_BYTES) {
    this.#budget = budgetBytes;
  }

  /**
   * The content of share `shareId`, read by `read` when it is not kept (or was kept too long ago).
   * Readers arriving while it is read share the one read. `ttlMs` says how long a content may be
   * kept, once read.
   */
  async get(
    shareId: number,
    read: () => Promise<{ content: SharedContent | null; ttlMs: number }>,
    nowMs = Date.now(),
  ): Promise<SharedContent | null> {
    const kept = this.#entries.get(shareId);
    if (kept && kept.until > nowMs) {
      this.#touch(shareId, kept);
      return kept.content;
    }
    const entry: Entry = {
      content: Promise.resolve(null),
      until: Number.POSITIVE_INFINITY,
      contentBytes: 0,
      pageBytes: 0,
    };
    entry.content = read().then(
      ({ content, ttlMs }) => {
        entry.until = nowMs + ttlMs;
        this.#resize(shareId, entry, () => {
          entry.contentBytes = content ? bytesOf(JSON.stringify(content)) : 0;
        });
        return content;
      },
      (error: unknown) => {
        // A failed read is not kept: the next visitor reads again.
        this.#forget(shareId, entry);
        throw error;
      },
    );
    this.#forget(shareId);
    this.#entries.set(shareId, entry);
    this.#bytes += ENTRY_BYTES;
    this.#evict();
    return entry.content;
  }

  /**
   * The page of share `shareId` rendered from `content`, by `render` when it was not yet (or was
   * rendered from another content: the share's figures were read again since). Visitors arriving
   * while it renders share the one rendering; a rendering that is not the page (not a 200) is not kept.
   */
  page(shareId: number, content: SharedContent, render: () => Promise<RenderedPage>): Promise<RenderedPage> {
    const entry = this.#entries.get(shareId);
    if (entry?.page && entry.page.content === content) {
      this.#touch(shareId, entry);
      return entry.page.rendered;
    }
    const rendered = render();
    if (!entry) return rendered;
    const page = { content, rendered };
    this.#resize(shareId, entry, () => {
      entry.page = page;
      entry.pageBytes = 0;
    });
    const forget = () => {
      if (entry.page === page) this.#resize(shareId, entry, () => ((entry.page = undefined), (entry.pageBytes = 0)));
    };
    rendered.then((result) => {
      if (result.status !== 200) return forget();
      if (entry.page === page) this.#resize(shareId, entry, () => (entry.pageBytes = bytesOf(result.html)));
    }, forget);
    return rendered;
  }

  /** Forgets a share's page (it was revoked). */
  drop(shareId: number): void {
    this.#forget(shareId);
  }

  /** Forgets what is kept of a share, or only `entry` when given and still the one kept. */
  #forget(shareId: number, entry?: Entry): void {
    const kept = this.#entries.get(shareId);
    if (!kept || (entry && kept !== entry)) return;
    this.#entries.delete(shareId);
    this.#bytes -= ENTRY_BYTES + kept.contentBytes + kept.pageBytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The bytes kept: ENTRY_BYTES an entry, and its content's and page's. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Most recently used last: the Map's order is the eviction order. */
  #touch(shareId: number, entry: Entry): void {
    this.#entries.delete(shareId);
    this.#entries.set(shareId, entry);
  }

  /** Changes what an entry holds, counting its bytes when it is still kept; then keeps to the budget. */
  #resize(shareId: number, entry: Entry, change: () => void): void {
    const isKept = this.#entries.get(shareId) === entry;
    if (isKept) this.#bytes -= entry.contentBytes + entry.pageBytes;
    change();
    if (!isKept) return;
    this.#bytes += entry.contentBytes + entry.pageBytes;
    this.#evict();
  }

  #evict(): void {
    for (const [shareId] of this.#entries) {
      if (this.#bytes <= this.#budget) return;
      this.#forget(shareId);
    }
  }
}
