// The `latency` run option in the forms that build run options (new test, experiment, schedule):
// its words, and its place in a request body. Not an iperf3 flag: the engine pings beside iperf3.
import { LATENCY_IDLE_SECONDS, LATENCY_INTERVAL_SECONDS } from "@/lib/diagnosis/contract";

export const LATENCY_OPTION_LABEL = `Measure latency under load (ping every ${LATENCY_INTERVAL_SECONDS} s, ${LATENCY_IDLE_SECONDS} s idle first)`;

/** Run options with `latency: true` when asked; left out otherwise, as a run that never asked stores it. */
export function withLatencyOption(options: Record<string, unknown>, isLatency: boolean): Record<string, unknown> {
  return Object.fromEntries([
    ...Object.entries(options).filter(([key]) => key !== "latency"),
    ...(isLatency ? [["latency", true] as const] : []),
  ]);
}

/** Whether stored or requested run options ask for latency under load. */
export function latencyOptionOf(options: Record<string, unknown> | null | undefined): boolean {
  return options?.latency === true;
}
