import "server-only";
import { runEngine } from "@/lib/runs";
import { ExperimentRunner } from "./runner";

export { ExperimentRunner } from "./runner";

// One runner per server process, beside the one run engine whose links it holds; on
// globalThis so that dev-mode reloads do not start a second one.
const globalForRunner = globalThis as unknown as { wirespeedExperimentRunner?: ExperimentRunner };
export const experimentRunner = (globalForRunner.wirespeedExperimentRunner ??= new ExperimentRunner(runEngine));
