import "server-only";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";

export { RunEngine } from "./engine";
export { RunError } from "./errors";

// One engine per server process (it owns the link queues and port leases), kept on
// globalThis so that dev-mode reloads do not start a second one.
const globalForEngine = globalThis as unknown as { wirespeedRunEngine?: RunEngine };
export const runEngine = (globalForEngine.wirespeedRunEngine ??= new RunEngine(agentRunRemote));
