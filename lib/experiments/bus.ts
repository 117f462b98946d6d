import { EventBus } from "@/lib/runs/bus";
import type { ExperimentEventType } from "./contract";

// The live events of experiments (status, step, sample, row), one bus per server process,
// on globalThis so that dev-mode reloads share it with the runner.
export class ExperimentEventBus extends EventBus<ExperimentEventType> {}

const globalForBus = globalThis as unknown as { wirespeedExperimentBus?: ExperimentEventBus };
export const experimentEventBus = (globalForBus.wirespeedExperimentBus ??= new ExperimentEventBus());
