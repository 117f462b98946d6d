import type { RunEngine } from "@/lib/runs/engine";
import { parseRunRequest } from "@/lib/runs/request";

/**
 * Starts a run on a link through `engine`, its body read as POST /api/links/:id/runs reads it, and
 * waits for it to end; its id. `started` is called with the id first (to follow its events).
 */
export async function runToEnd(
  engine: RunEngine,
  linkId: number,
  body: Record<string, unknown>,
  started?: (runId: number) => void,
): Promise<number> {
  const request = parseRunRequest(body);
  const run = await engine.startRun({ linkId, options: request.options, clientSide: request.clientSide });
  started?.(run.id);
  await engine.waitForRun(run.id);
  return run.id;
}
