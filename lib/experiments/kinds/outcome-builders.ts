// Run and step outcomes as the runner hands them to the kinds, for the kinds' unit tests:
// every figure not given is "not measured".
import { expect } from "vitest";
import { AppError, type FieldError } from "@/lib/errors";
import type { PlanLink, RunOutcome, StepOutcome, StepSpec } from "../contract";

let nextRunId = 1;

export function runOutcome(figures: Partial<RunOutcome> = {}): RunOutcome {
  return {
    runId: nextRunId++,
    linkId: 1,
    channel: null,
    port: null,
    status: "succeeded",
    streams: 1,
    sentBitsPerSecond: null,
    receivedBitsPerSecond: null,
    reverseReceivedBitsPerSecond: null,
    retransmits: null,
    jitterMs: null,
    lostPercent: null,
    lostPackets: null,
    packets: null,
    clientCpuPercent: null,
    serverCpuPercent: null,
    startedAtMs: null,
    pathVerdict: null,
    intervals: [],
    ...figures,
  };
}

/** A step as it ended, from the spec the kind gave and what each of its runs measured. */
export function stepOutcome(index: number, spec: StepSpec, runs: Partial<RunOutcome>[]): StepOutcome {
  return {
    index,
    label: spec.label,
    tags: spec.tags,
    status: "succeeded",
    runs: runs.map((figures, position) =>
      runOutcome({
        linkId: spec.runs[position]?.linkId ?? 1,
        channel: spec.runs[position]?.channel ?? null,
        ...figures,
      }),
    ),
  };
}

/** A link of the plan; its hosts, unless given, are "a of link N" (id 2N) and "b of link N" (id 2N+1). */
export function planLink(
  id: number,
  speedMbps: number,
  name = `link ${id}`,
  hosts: PlanLink["hosts"] = { a: { id: 2 * id, name: `a of ${name}` }, b: { id: 2 * id + 1, name: `b of ${name}` } },
): PlanLink {
  return { id, name, speedMbps, portRanges: { a: { min: 5201, max: 5299 }, b: { min: 5201, max: 5299 } }, hosts };
}

/** The field errors a call is refused with (a 400). */
export function refusal(call: () => unknown): FieldError[] {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).fields;
  }
  throw new Error("expected a 400, got none");
}
