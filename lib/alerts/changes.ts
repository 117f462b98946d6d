// When an alert fires or resolves (lib/alerts/watcher.ts), for what shows it outside Wirespeed
// (Home Assistant's binary sensor, lib/mqtt): one per app (app.alertChanges). Pure: no I/O.

export type AlertChange = { linkId: number; alertId: number; status: "firing" | "resolved" };
export type AlertChangeListener = (change: AlertChange) => void;

export class AlertChanges {
  private readonly listeners = new Set<AlertChangeListener>();

  /** Calls `listener` at each change from now on; returns the function that stops it. */
  on(listener: AlertChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; one that throws is logged and does not stop the others. */
  emit(change: AlertChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error(`[wirespeed] after alert ${change.alertId}:`, error instanceof Error ? error.message : error);
      }
    }
  }
}
