// What each kind of experiment provides (one file per kind beside this one): which steps
// it takes, what its result is, and the answer in a sentence. Pure: the runner
// (lib/experiments/runner.ts) does the I/O, the pages and exports read the table.
import type { z } from "zod";
import type { FieldError } from "@/lib/errors";
import type { RunRequest } from "@/lib/runs/request";
import type {
  BaseRunOptions,
  ExperimentKind,
  PlanLink,
  PlanOf,
  ResultOf,
  ResultTable,
  StepOutcome,
  StepSpec,
} from "../contract";

/** The fields a kind adds to the request, beside kind, name, linkIds and options. */
export type KindFields<K extends ExperimentKind> = Omit<PlanOf<K>, "kind" | "name" | "linkIds" | "options">;

export type KindDefinition<K extends ExperimentKind> = {
  kind: K;
  /** e.g. "Sweep": for lists and headings */
  title: string;
  /** the name of an experiment the user did not name, e.g. "Stream sweep" */
  defaultName(plan: PlanOf<K>): string;
  /** the kind's own fields with their defaults; messages name the field and what is allowed */
  fieldsSchema: z.ZodType<KindFields<K>>;
  /** at most this many links (MAX_PLAN_LINKS when absent) */
  maxLinks?: number;
  /** at most this many runs (MAX_PLAN_RUNS when absent): a mesh of 64 links both ways takes 128 */
  maxPlanRuns?: number;
  /**
   * The options every run of the plan starts from, for parseRunRequest to validate: the
   * request's options with what the kind sets itself (a sweep's factor, a matrix's protocol,
   * a UDP ceiling's protocol and bitrate). Reads the plan's fields defensively: the request
   * parser calls it even when they failed their schema, to report the options' errors too.
   */
  baseOptions(plan: PlanOf<K>): BaseRunOptions;
  /** what the plan cannot do with these links (too few links, ports that do not fit, UDP without bitrate …) */
  check(plan: PlanOf<K>, base: RunRequest, links: PlanLink[]): FieldError[];
  /** runs the plan takes at most: no plan may exceed MAX_PLAN_RUNS */
  maxRuns(plan: PlanOf<K>, links: PlanLink[]): number;
  /** steps the plan takes at most: "step i of n" */
  maxSteps(plan: PlanOf<K>, links: PlanLink[]): number;
  /** every step, when the kind knows them in advance (so pending steps can be shown); null for a search */
  steps(plan: PlanOf<K>, base: RunRequest, links: PlanLink[]): StepSpec[] | null;
  /** the step after those done, or null when the plan is complete */
  nextStep(plan: PlanOf<K>, base: RunRequest, links: PlanLink[], done: StepOutcome[]): StepSpec | null;
  /** the result from the steps done so far (a partial result while it runs, or after a cancel) */
  result(plan: PlanOf<K>, links: PlanLink[], done: StepOutcome[]): ResultOf<K>;
  /** the answer in one sentence, or null while nothing is measured */
  answer(plan: PlanOf<K>, links: PlanLink[], result: ResultOf<K>): string | null;
  /** the result as a table: the page, CSV export and compare all read this */
  table(plan: PlanOf<K>, links: PlanLink[], result: ResultOf<K>): ResultTable;
};

/** For kinds whose steps are known in advance: the next one is the first not done. */
export function nextOfSteps(steps: StepSpec[], done: StepOutcome[]): StepSpec | null {
  return steps[done.length] ?? null;
}
