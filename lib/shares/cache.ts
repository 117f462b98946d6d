import type { SharedContent } from "./contract";

// What share pages show, kept in memory by token: a link posted on a forum is opened by many at
// once, and each open must not read the run's samples again. Whether the share still opens is
// asked of the database at every request (one lookup by the token's unique index), so a revoke
// or an expiry counts at once, on every instance; only what the page shows is kept here.

type Entry = { shareId: number; content: Promise<SharedContent | null>; until: number };

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

  /** Forgets a token's page (its share was revoked). */
  drop(token: string): void {
    this.#entries.delete(token);
  }

  get size(): number {
    return this.#entries.size;
  }
}
