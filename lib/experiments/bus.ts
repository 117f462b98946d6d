import { EventBus } from "@/lib/runs/bus";
import type { ExperimentEventType } from "./contract";

// The live events of experiments (status, step, sample, row); the app's one is
// `getApp().experimentBus` (lib/app.ts).
export class ExperimentEventBus extends EventBus<ExperimentEventType> {}
