// Every kind of experiment by name, and the kind of a plan with its functions bound to it.
import type { RunRequest } from "@/lib/runs/request";
import type { FieldError } from "@/lib/errors";
import {
  MAX_PLAN_LINKS,
  MAX_PLAN_RUNS,
  type BaseRunOptions,
  type ExperimentKind,
  type ExperimentPlan,
  type ExperimentResult,
  type PlanLink,
  type ResultTable,
  type StepOutcome,
  type StepSpec,
} from "../contract";
import { channelsKind } from "./channels";
import { concurrentKind } from "./concurrent";
import { interferenceKind } from "./interference";
import type { KindDefinition } from "./kind";
import { matrixKind } from "./matrix";
import { meshKind } from "./mesh";
import { sweepKind } from "./sweep";
import { udpCeilingKind } from "./udp-ceiling";
import { versusKind } from "./versus";

export type { KindDefinition, KindFields } from "./kind";

export const KIND_DEFINITIONS: { [K in ExperimentKind]: KindDefinition<K> } = {
  sweep: sweepKind,
  matrix: matrixKind,
  concurrent: concurrentKind,
  channels: channelsKind,
  "udp-ceiling": udpCeilingKind,
  mesh: meshKind,
  interference: interferenceKind,
  versus: versusKind,
};

export function kindOf<K extends ExperimentKind>(kind: K): KindDefinition<K> {
  return KIND_DEFINITIONS[kind];
}

/** A plan's kind with the plan bound: for code that holds an ExperimentPlan of any kind. */
export type PlanKind = {
  kind: ExperimentKind;
  title: string;
  /** at most this many links and runs */
  maxLinks: number;
  maxPlanRuns: number;
  defaultName(): string;
  baseOptions(): BaseRunOptions;
  check(base: RunRequest, links: PlanLink[]): FieldError[];
  maxRuns(links: PlanLink[]): number;
  maxSteps(links: PlanLink[]): number;
  steps(base: RunRequest, links: PlanLink[]): StepSpec[] | null;
  nextStep(base: RunRequest, links: PlanLink[], done: StepOutcome[]): StepSpec | null;
  result(links: PlanLink[], done: StepOutcome[]): ExperimentResult;
  answer(links: PlanLink[], result: ExperimentResult): string | null;
  table(links: PlanLink[], result: ExperimentResult): ResultTable;
};

export function planKind(plan: ExperimentPlan): PlanKind {
  // TypeScript cannot tie a plan of the union to its own kind's definition: the kind field does.
  const definition = KIND_DEFINITIONS[plan.kind] as unknown as KindDefinition<ExperimentKind>;
  const bound = plan as never;
  return {
    kind: plan.kind,
    title: definition.title,
    maxLinks: definition.maxLinks ?? MAX_PLAN_LINKS,
    maxPlanRuns: definition.maxPlanRuns ?? MAX_PLAN_RUNS,
    defaultName: () => definition.defaultName(bound),
    baseOptions: () => definition.baseOptions(bound),
    check: (base, links) => definition.check(bound, base, links),
    maxRuns: (links) => definition.maxRuns(bound, links),
    maxSteps: (links) => definition.maxSteps(bound, links),
    steps: (base, links) => definition.steps(bound, base, links),
    nextStep: (base, links, done) => definition.nextStep(bound, base, links, done),
    result: (links, done) => definition.result(bound, links, done),
    answer: (links, result) => definition.answer(bound, links, result as never),
    table: (links, result) => definition.table(bound, links, result as never),
  };
}
