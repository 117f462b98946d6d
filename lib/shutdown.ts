import "server-only";
import { constants } from "node:os";
import type { ExperimentRunner } from "@/lib/experiments/runner";
import type { Scheduler } from "@/lib/schedules/scheduler";
import type { RunEngine } from "@/lib/runs/engine";
import type { App } from "@/lib/app";

// Stopping Wirespeed cleanly: `docker stop` sends SIGTERM, Ctrl-C SIGINT. From that moment no
// run, experiment or scheduled start begins (503 "Wirespeed is shutting down"); the runs under
// way are stopped on both hosts, the client first so that it prints its partial summary, and
// stored as interrupted with every sample received; then the SSH connections and the database
// are closed and the process exits 0. Whatever hangs, it exits by the deadline, saying what was
// cut short; a crash or a kill -9 is left to the next start (RunEngine.recoverInterruptedRuns).

/** Exit by then whatever hangs: 10 s from the signal, less the time exiting itself takes. */
export const SHUTDOWN_DEADLINE_MS = 9_000;
/**
 * Ctrl-C reaches the server several times at once: from the terminal, and forwarded by npm and by
 * scripts/start.mjs. Signals this close to the first are that same press.
 */
const REPEAT_WINDOW_MS = 500;

/** What a stop stops, in this order; tests pass their own. */
export type ShutdownParts = {
  engine: Pick<RunEngine, "shutdown" | "activeRunIds">;
  experiments: Pick<ExperimentRunner, "shutdown" | "activeExperimentIds">;
  scheduler: Pick<Scheduler, "stop">;
  /** ends the SSH connections the runs used */
  closeConnections: () => Promise<void>;
  /** closes the database, once every write is done */
  disconnect: () => Promise<void>;
  /** stops background work between two of its steps (digests and sample retention, lib/runs/retention.ts) */
  stopBackground?: () => void;
  /** says offline to Home Assistant and closes the MQTT connection (lib/mqtt/publisher.ts), once the runs are stored */
  stopPublishing?: () => Promise<void>;
  /** marks this instance's heartbeat gone once the runs are stored (lib/instances/registry.ts): a restart under its name starts at once */
  leave?: () => Promise<void>;
};

/**
 * The stop itself. The scheduler, the experiments and the engine each stop taking new work in
 * the same turn of the event loop, before any of them waits: so no step or scheduled start slips
 * in between. `onStage` hears each stage as it begins, for the deadline's message.
 */
export async function shutDown(
  parts: ShutdownParts,
  reason: string,
  onStage: (stage: string) => void = () => {},
): Promise<void> {
  onStage("stopping the runs, experiments and schedules");
  parts.stopBackground?.();
  await Promise.all([parts.scheduler.stop(), parts.experiments.shutdown(reason), parts.engine.shutdown(reason)]);
  if (parts.leave) {
    onStage("leaving the instances on this database");
    await parts.leave();
  }
  if (parts.stopPublishing) {
    onStage("telling Home Assistant that Wirespeed goes offline");
    await parts.stopPublishing();
  }
  onStage("closing the SSH connections");
  await parts.closeConnections();
  onStage("closing the database");
  await parts.disconnect();
}

export type ShutdownOptions = {
  deadlineMs?: number;
  repeatWindowMs?: number;
  signals?: NodeJS.Signals[];
  /** where the signals come from: the process, or a test's emitter */
  target?: Pick<NodeJS.EventEmitter, "on" | "off">;
  exit?: (code: number) => void;
  log?: (line: string) => void;
  now?: () => number;
};

function whatIsLeft(parts: ShutdownParts): string {
  const runs = parts.engine.activeRunIds;
  const experiments = parts.experiments.activeExperimentIds;
  const named = [
    runs.length > 0 ? `run${runs.length === 1 ? "" : "s"} ${runs.join(", ")}` : "",
    experiments.length > 0 ? `experiment${experiments.length === 1 ? "" : "s"} ${experiments.join(", ")}` : "",
  ].filter(Boolean);
  if (named.length === 0) return "no run or experiment was left";
  return `${named.join(" and ")} not stored to the end (the next start marks them interrupted and stops their iperf3)`;
}

/**
 * On the first SIGTERM or SIGINT: `shutDown`, then exit 0 (1 when it failed). Past the deadline:
 * exit 1, logging the stage and the runs cut short. A second signal (after the repeat window)
 * exits at once with 128 + its number, as an unhandled signal would. Returns the uninstaller.
 */
export function installShutdownHandlers(parts: ShutdownParts, options: ShutdownOptions = {}): () => void {
  const {
    deadlineMs = SHUTDOWN_DEADLINE_MS,
    repeatWindowMs = REPEAT_WINDOW_MS,
    signals = ["SIGTERM", "SIGINT"],
    target = process,
    exit = (code) => process.exit(code),
    log = (line) => console.log(line),
    now = Date.now,
  } = options;
  let firstAt: number | null = null;
  let stage = "starting to stop";
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstAt !== null) {
      if (now() - firstAt < repeatWindowMs) return;
      log(`[wirespeed] ${signal} again: exiting now; ${whatIsLeft(parts)}`);
      exit(128 + (constants.signals[signal] ?? 0));
      return;
    }
    firstAt = now();
    const runs = parts.engine.activeRunIds.length;
    log(
      `[wirespeed] ${signal}: stopping. No new runs; ${runs} run${runs === 1 ? "" : "s"} under way stopped and stored as interrupted. ` +
        `Exit within ${Math.ceil(deadlineMs / 1000)} s; ${signal} again exits at once.`,
    );
    const deadline = setTimeout(() => {
      log(
        `[wirespeed] not stopped within ${deadlineMs / 1000} s, exiting anyway: cut short while ${stage}; ${whatIsLeft(parts)}`,
      );
      exit(1);
    }, deadlineMs);
    void shutDown(parts, signal, (next) => (stage = next)).then(
      () => {
        clearTimeout(deadline);
        log("[wirespeed] stopped");
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log(
          `[wirespeed] stopping failed while ${stage}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}; ${whatIsLeft(parts)}`,
        );
        exit(1);
      },
    );
  };
  for (const signal of signals) target.on(signal, onSignal);
  return () => {
    for (const signal of signals) target.off(signal, onSignal);
  };
}

/**
 * For instrumentation.ts once the server has started (and for the lab test's app process): the
 * app's engine, experiment runner, scheduler and database, and the SSH pool, stopped on SIGTERM
 * and SIGINT. Next.js must leave the signals alone (NEXT_MANUAL_SIG_HANDLE, set by npm start and
 * the image): its own handler exits at once.
 */
export async function installServerShutdown(
  app: Pick<App, "runs" | "experiments" | "scheduler" | "db" | "shutdownInstalled" | "homeAssistant">,
  { stopBackground, leave }: { stopBackground?: () => void; leave?: () => Promise<void> } = {},
): Promise<void> {
  // Once per app: dev-mode reloads run this again.
  if (app.shutdownInstalled) return;
  app.shutdownInstalled = true;
  const { closeAll } = await import("@/lib/ssh");
  if (process.env.NEXT_RUNTIME && !process.env.NEXT_MANUAL_SIG_HANDLE) {
    console.warn(
      "[wirespeed] NEXT_MANUAL_SIG_HANDLE is not set: Next.js may exit on SIGTERM before the runs are stopped and stored. " +
        "Start with `npm start` or the image, which set it.",
    );
  }
  installShutdownHandlers({
    engine: app.runs,
    experiments: app.experiments,
    scheduler: app.scheduler,
    closeConnections: closeAll,
    disconnect: () => app.db.$disconnect(),
    stopBackground,
    leave,
    stopPublishing: () => app.homeAssistant.stop(),
  });
}
