import { describe, expect, it } from "vitest";
import { LinkQueue } from "./link-queue";

describe("LinkQueue", () => {
  it("runs one test per link and starts the next in order when it ends", () => {
    const queue = new LinkQueue();
    const started: number[] = [];
    queue.enqueue(1, 10, () => started.push(10));
    queue.enqueue(1, 11, () => started.push(11));
    queue.enqueue(1, 12, () => started.push(12));
    queue.enqueue(2, 20, () => started.push(20));
    expect(started).toEqual([10, 20]);
    expect(queue.position(1, 12)).toBe(2);
    queue.done(1, 10);
    expect(started).toEqual([10, 20, 11]);
    expect(queue.position(1, 11)).toBe(0);
    expect(queue.position(1, 12)).toBe(1);
  });

  it("drops a run cancelled while queued without starting it", () => {
    const queue = new LinkQueue();
    const started: number[] = [];
    queue.enqueue(1, 10, () => started.push(10));
    queue.enqueue(1, 11, () => started.push(11));
    queue.enqueue(1, 12, () => started.push(12));
    queue.done(1, 11);
    queue.done(1, 10);
    expect(started).toEqual([10, 12]);
    queue.done(1, 12);
    expect(queue.position(1, 12)).toBeNull();
    queue.enqueue(1, 13, () => started.push(13));
    expect(started).toEqual([10, 12, 13]);
  });
});
