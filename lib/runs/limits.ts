import type { IperfOptions } from "@/lib/iperf";

/** How long the engine waits for each host; tests shorten them. */
export type ExecutionLimits = {
  serverStartMs: number;
  /** after the client exits, the one-off server prints its summary and exits too */
  serverExitGraceMs: number;
  /** beyond duration + omit: connection set-up, the summary exchange, a slow host */
  runMarginMs: number;
  /** how long a -J server, which says nothing until its test ends, must stay up before it counts as listening */
  serverSettleMs?: number;
};
export const DEFAULT_LIMITS: ExecutionLimits = { serverStartMs: 10_000, serverExitGraceMs: 5_000, runMarginMs: 30_000 };
// A run by byte count has no duration: it may take this long before it is stopped.
const BYTES_RUN_LIMIT_MS = 60 * 60 * 1000;

/** How long a test may last before it is stopped: its duration and omit, and a margin for the rest. */
export function timeLimitMs(options: IperfOptions, marginMs = DEFAULT_LIMITS.runMarginMs): number {
  if (options.bytes !== undefined) return BYTES_RUN_LIMIT_MS;
  return ((options.duration ?? 10) + (options.omit ?? 0)) * 1000 + marginMs;
}
