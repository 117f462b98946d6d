import "server-only";
import { getExperiment } from "@/lib/experiments/reads";
import { openEventStream } from "@/lib/runs/events";
import type { BusEvent } from "@/lib/runs/bus";
import { getApp } from "@/lib/running-app";
import type { ExperimentEventBus } from "./bus";
import { isActiveExperimentStatus, type ExperimentEventType } from "./contract";

// Server-sent events of one experiment. While it runs, from the bus (the history of this
// experiment replayed first); once it has ended, its steps, rows and final status from the
// database (samples of ended runs are on each run's own stream).

async function replayFromDatabase(
  experimentId: number,
  send: (event: BusEvent<ExperimentEventType>) => void,
): Promise<void> {
  const experiment = await getExperiment(experimentId);
  if (!experiment) return;
  for (const step of experiment.steps) send({ id: 0, type: "step", data: step });
  for (const row of experiment.table?.rows ?? []) send({ id: 0, type: "row", data: row });
  send({ id: 0, type: "status", data: { status: experiment.status } });
}

export function openExperimentEventStream(
  experimentId: number,
  after: number,
  signal: AbortSignal,
  bus: ExperimentEventBus = getApp().experimentBus,
): ReadableStream<Uint8Array> {
  return openEventStream({
    bus,
    id: experimentId,
    after,
    signal,
    replay: (send) => replayFromDatabase(experimentId, send),
    isFinal: (status) => !isActiveExperimentStatus(status),
  });
}
