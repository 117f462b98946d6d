import "server-only";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";

export { RunEngine } from "./engine";
export { RunError } from "./errors";

// One engine per server process (it owns the link queues and port leases), kept on
// globalThis so that dev-mode reloads do not start a second one.
const globalForEngine = globalThis as unknown as { wirespeedRunEngine?: RunEngine };
export const runEngine = (globalForEngine.wirespeedRunEngine ??= new RunEngine(agentRunRemote));

/** Place of a queued run in its link's queue (0 running, 1 next, …); null when it is not waiting. */
export function queuePositionOf(run: { id: number; linkId: number; status: string }): number | null {
  return run.status === "queued" ? runEngine.queuePosition(run.linkId, run.id) : null;
}
