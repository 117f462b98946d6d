import "server-only";
import { runEngine } from "@/lib/runs";
import { watchRuns } from "./watcher";

export { evaluateRun, watchRuns } from "./watcher";

// One watcher on the one run engine, started from instrumentation.ts; kept on globalThis so
// that a dev-mode reload does not judge every run twice.
const globalForWatcher = globalThis as unknown as { wirespeedAlertWatcher?: () => void };

/** Judges each run that ends on the app's engine against the alert rules; returns the function that stops it. */
export function startAlertWatcher(): () => void {
  globalForWatcher.wirespeedAlertWatcher ??= watchRuns(runEngine);
  return stopAlertWatcher;
}

function stopAlertWatcher(): void {
  globalForWatcher.wirespeedAlertWatcher?.();
  globalForWatcher.wirespeedAlertWatcher = undefined;
}
