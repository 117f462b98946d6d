import "server-only";
import { experimentRunner } from "@/lib/experiments";
import { runEngine } from "@/lib/runs";
import { Scheduler } from "./scheduler";

export { Scheduler } from "./scheduler";

// One scheduler per server process, beside the run engine and the experiment runner it starts
// through; on globalThis so that dev-mode reloads do not arm a second timer.
const globalForScheduler = globalThis as unknown as { wirespeedScheduler?: Scheduler };
export const scheduler = (globalForScheduler.wirespeedScheduler ??= new Scheduler({
  engine: runEngine,
  experiments: experimentRunner,
}));

/**
 * For instrumentation.ts, after runEngine.recoverInterruptedRuns() and
 * experimentRunner.recoverInterrupted(): makes the catch-up starts and arms the timer.
 */
export async function startScheduler(): Promise<void> {
  await scheduler.start();
}
