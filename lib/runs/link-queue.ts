// One run per link at a time: a second run on a busy link waits its turn, in
// the order it was asked for. Runs on other links go ahead at once.

type Waiter = { runId: number; start: () => void };

export class LinkQueue {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Waiter[]>();

  /** Calls `start` now if the link is free, else when the runs before it are done. */
  enqueue(linkId: number, runId: number, start: () => void): void {
    if (!this.running.has(linkId)) {
      this.running.set(linkId, runId);
      start();
      return;
    }
    const queue = this.waiting.get(linkId) ?? [];
    queue.push({ runId, start });
    this.waiting.set(linkId, queue);
  }

  /** The run is over (or was cancelled while queued): the next one on its link starts. */
  done(linkId: number, runId: number): void {
    const queue = this.waiting.get(linkId) ?? [];
    const queuedAt = queue.findIndex((waiter) => waiter.runId === runId);
    if (queuedAt >= 0) {
      queue.splice(queuedAt, 1);
      return;
    }
    if (this.running.get(linkId) !== runId) return;
    const next = queue.shift();
    if (queue.length === 0) this.waiting.delete(linkId);
    if (!next) {
      this.running.delete(linkId);
      return;
    }
    this.running.set(linkId, next.runId);
    next.start();
  }

  /** 0 when running, 1 for the first waiter, …; null when unknown. */
  position(linkId: number, runId: number): number | null {
    if (this.running.get(linkId) === runId) return 0;
    const at = (this.waiting.get(linkId) ?? []).findIndex((waiter) => waiter.runId === runId);
    return at >= 0 ? at + 1 : null;
  }
}
