// In-process pub/sub of run events. Many viewers of one run share the one SSH
// stream that feeds it; a viewer that connects mid-run replays what it missed
// from the run's history here, kept until the run ends (the database holds it
// from then on, because the engine flushes samples before the final status).

export type RunEventType = "status" | "sample" | "summary" | "error";

/**
 * `id` is the number of samples published before and including this event, so a
 * client resuming with Last-Event-ID = n needs exactly the samples with seq >= n.
 */
export type BusEvent<Type extends string> = { id: number; type: Type; data: unknown };
export type RunEvent = BusEvent<RunEventType>;

type ActiveRun<Type extends string> = {
  events: BusEvent<Type>[];
  sampleCount: number;
  listeners: Set<(event: BusEvent<Type>) => void>;
};

/** Events of things that run for a while (a run, an experiment), by id; "sample" events are counted. */
/** What a tap sees: every event this process publishes, and every end (lib/instances/relay.ts sends them to the other instances). */
export type BusTap<Type extends string> = (runId: number, event: BusEvent<Type> | null) => void;

export class EventBus<Type extends string> {
  private readonly runs = new Map<number, ActiveRun<Type>>();
  private readonly taps = new Set<BusTap<Type>>();

  /** Sees every event published here and every end (null); returns the function that stops it. */
  tap(tap: BusTap<Type>): () => void {
    this.taps.add(tap);
    return () => this.taps.delete(tap);
  }

  /**
   * An event another instance published (lib/instances/relay.ts), with the id it gave it: kept and
   * passed to this process's viewers as if published here, so that ids and Last-Event-ID agree
   * across instances. Taps do not see it (it came from one). A relayed `null` ends the run.
   */
  relay(runId: number, event: BusEvent<Type> | null): void {
    if (event === null) {
      this.runs.delete(runId);
      return;
    }
    this.begin(runId);
    const run = this.runs.get(runId)!;
    if (event.type === "sample") run.sampleCount = Math.max(run.sampleCount, event.id);
    this.deliver(run, event);
  }

  private deliver(run: ActiveRun<Type>, event: BusEvent<Type>): void {
    run.events.push(event);
    for (const listener of run.listeners) {
      try {
        listener(event);
      } catch {
        // A viewer that fails (closed socket) must not stop the run or other viewers.
      }
    }
  }

  private tell(runId: number, event: BusEvent<Type> | null): void {
    for (const tap of this.taps) {
      try {
        tap(runId, event);
      } catch {
        // A tap that fails (the relay's connection is down) must not stop the run.
      }
    }
  }

  /** Starts keeping history for a run; publishing to a run not begun is an error. */
  begin(runId: number): void {
    if (!this.runs.has(runId)) this.runs.set(runId, { events: [], sampleCount: 0, listeners: new Set() });
  }

  isActive(runId: number): boolean {
    return this.runs.has(runId);
  }

  publish(runId: number, type: Type, data: unknown): BusEvent<Type> {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`run ${runId} is not active on the event bus`);
    if (type === "sample") run.sampleCount += 1;
    const event: BusEvent<Type> = { id: run.sampleCount, type, data };
    this.deliver(run, event);
    this.tell(runId, event);
    return event;
  }

  /**
   * Replays the events a viewer has not seen (samples after `afterSampleCount`, and
   * every status/summary/error so that it knows the current state), then follows live.
   * Returns null when the run is not active: the caller reads the database instead.
   */
  subscribe(runId: number, afterSampleCount: number, listener: (event: BusEvent<Type>) => void): (() => void) | null {
    const run = this.runs.get(runId);
    if (!run) return null;
    for (const event of run.events) {
      if (event.type !== "sample" || event.id > afterSampleCount) listener(event);
    }
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }

  /** Ends a run's live stream: listeners get nothing more and the history is dropped. */
  end(runId: number): void {
    this.runs.delete(runId);
    this.tell(runId, null);
  }

  listenerCount(runId: number): number {
    return this.runs.get(runId)?.listeners.size ?? 0;
  }
}

/** The live events of runs; the app's one is `getApp().runBus` (lib/app.ts). */
export class RunEventBus extends EventBus<RunEventType> {}
