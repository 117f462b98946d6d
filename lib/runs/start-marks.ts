// The moments of a run's start (its steps, the server's pid line and listening, the client's gate),
// stamped with performance.now() for whoever listens: the latency bench prints where the time before
// the first sample goes. Nothing listens in the app, and a mark then costs one check.

/** A moment of a run's start: a step of RunExecution ended, or a process under it said something. */
export type StartMark = "resolved" | "prepared" | "server pid" | "client ready" | "listening" | "running";

export type StartMarkListener = (runId: number, mark: StartMark, at: number) => void;

const listeners = new Set<StartMarkListener>();

/** Calls `listener` at each mark of every run's start; returns the function that removes it. */
export function onStartMark(listener: StartMarkListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function markStart(runId: number, mark: StartMark): void {
  if (listeners.size === 0) return;
  const at = performance.now();
  for (const listener of listeners) listener(runId, mark, at);
}
