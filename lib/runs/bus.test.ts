import { describe, expect, it } from "vitest";
import { RunEventBus, type RunEvent } from "./bus";

function collect(bus: RunEventBus, runId: number, after: number) {
  const seen: RunEvent[] = [];
  const unsubscribe = bus.subscribe(runId, after, (event) => seen.push(event));
  return { seen, unsubscribe };
}

describe("RunEventBus", () => {
  it("numbers events by the samples published so far", () => {
    const bus = new RunEventBus();
    bus.begin(1);
    expect(bus.publish(1, "status", { status: "running" }).id).toBe(0);
    expect(bus.publish(1, "sample", { seq: 0 }).id).toBe(1);
    expect(bus.publish(1, "sample", { seq: 1 }).id).toBe(2);
    expect(bus.publish(1, "summary", {}).id).toBe(2);
  });

  it("replays what a late viewer missed, then follows live", () => {
    const bus = new RunEventBus();
    bus.begin(7);
    bus.publish(7, "status", { status: "running" });
    bus.publish(7, "sample", { seq: 0 });
    bus.publish(7, "sample", { seq: 1 });
    const { seen } = collect(bus, 7, 1);
    // The status (current state) and the one sample after Last-Event-ID 1.
    expect(seen.map((e) => [e.type, e.id])).toEqual([
      ["status", 0],
      ["sample", 2],
    ]);
    bus.publish(7, "sample", { seq: 2 });
    expect(seen.at(-1)).toMatchObject({ type: "sample", id: 3, data: { seq: 2 } });
  });

  it("fans one run out to many viewers and forgets it when it ends", () => {
    const bus = new RunEventBus();
    bus.begin(3);
    const a = collect(bus, 3, 0);
    const b = collect(bus, 3, 0);
    expect(bus.listenerCount(3)).toBe(2);
    bus.publish(3, "sample", { seq: 0 });
    expect(a.seen).toHaveLength(1);
    expect(b.seen).toHaveLength(1);
    a.unsubscribe?.();
    expect(bus.listenerCount(3)).toBe(1);
    bus.end(3);
    expect(bus.isActive(3)).toBe(false);
    expect(bus.subscribe(3, 0, () => {})).toBeNull();
    expect(() => bus.publish(3, "sample", {})).toThrow(/not active/);
  });

  it("keeps serving other viewers when one of them throws", () => {
    const bus = new RunEventBus();
    bus.begin(4);
    bus.subscribe(4, 0, () => {
      throw new Error("socket closed");
    });
    const ok = collect(bus, 4, 0);
    bus.publish(4, "sample", { seq: 0 });
    expect(ok.seen).toHaveLength(1);
  });
});
