import "server-only";
import { getApp } from "@/lib/running-app";

export { RunEngine } from "./engine";
export { RunError } from "./errors";

/** Place of a queued run in its link's queue (0 running, 1 next, …); null when it is not waiting. */
export function queuePositionOf(run: { id: number; linkId: number; status: string }): number | null {
  return run.status === "queued" ? getApp().runs.queuePosition(run.linkId, run.id) : null;
}
