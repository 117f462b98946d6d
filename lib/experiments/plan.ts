// An experiment request: `POST /api/experiments` takes `{ kind, name?, linkIds, options }` with
// the kind's own fields at the top level. parseExperimentRequest validates the body alone (the
// stored plan, defaults filled in); checkPlan checks it against the links as they are now.
// Pure: the route and the runner read the links and hand them in.
import { z } from "zod";
import { AppError, invalidInput, type FieldError } from "@/lib/errors";
import { parseRunRequest, type RunRequest } from "@/lib/runs/request";
import {
  EXPERIMENT_KINDS,
  MAX_PLAN_LINKS,
  type BaseRunOptions,
  type ExperimentKind,
  type ExperimentPlan,
  type PlanLink,
} from "./contract";
import { fieldErrorsOf } from "./kinds/figures";
import { kindOf, planKind } from "./kinds";

export { MAX_PLAN_LINKS };
export const MAX_EXPERIMENT_NAME_LENGTH = 100;

const COMMON_FIELDS = ["kind", "name", "linkIds", "options"] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isKind(value: unknown): value is ExperimentKind {
  return (EXPERIMENT_KINDS as readonly unknown[]).includes(value);
}

function parseName(value: unknown, errors: FieldError[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.trim().length > MAX_EXPERIMENT_NAME_LENGTH) {
    errors.push({ field: "name", message: `must be text of at most ${MAX_EXPERIMENT_NAME_LENGTH} characters` });
    return null;
  }
  return value.trim() || null;
}

/** The ids, or null when they are not a valid list (the errors say why). */
function parseLinkIds(value: unknown, maxLinks: number, errors: FieldError[]): number[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > maxLinks) {
    errors.push({ field: "linkIds", message: `must list 1 to ${maxLinks} link ids` });
    return null;
  }
  const ids: number[] = [];
  value.forEach((id: unknown, index) => {
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) {
      errors.push({ field: `linkIds[${index}]`, message: "must be a link id (a whole number from 1)" });
    } else if (ids.includes(id)) {
      errors.push({ field: `linkIds[${index}]`, message: `link ${id} is given twice` });
    } else {
      ids.push(id);
    }
  });
  return ids.length === value.length ? ids : null;
}

/** parseRunRequest's errors, named as fields of `options`. */
function optionErrors(error: unknown): FieldError[] {
  if (!(error instanceof AppError) || error.kind !== "invalid") throw error;
  return error.fields.map(({ field, message }) => ({
    field: field === "body" ? "options" : `options.${field}`,
    message,
  }));
}

/**
 * The run request every run of the plan starts from: the plan's options with what its kind
 * sets itself, validated as `POST /api/links/:id/runs` validates them. Throws a 400 naming
 * `options.<field>`.
 */
export function baseRequestOf(plan: ExperimentPlan): RunRequest {
  const base = baseOrErrors(plan);
  if (Array.isArray(base)) throw invalidInput(base);
  return base;
}

function baseOrErrors(plan: ExperimentPlan): RunRequest | FieldError[] {
  try {
    return parseRunRequest(planKind(plan).baseOptions());
  } catch (error) {
    return optionErrors(error);
  }
}

// Beyond iperf3's own time: reaching both hosts, starting the server, the summary exchange.
export const STEP_OVERHEAD_SECONDS = 3;

/** About how long one step takes (its runs run at once): iperf3's time, warm-up included, and the set-up around it; null for a run by byte count. */
export function stepSecondsOf(base: RunRequest): number | null {
  const { duration, omit = 0 } = base.options;
  return duration === undefined ? null : duration + omit + STEP_OVERHEAD_SECONDS;
}

type PlanCheck = { base: RunRequest; maxRuns: number; maxSteps: number };

/** The kind's checks and the run limit; links: those of the plan that exist (none while only the body is known). */
function checkAgainst(plan: ExperimentPlan, base: RunRequest, links: PlanLink[]): PlanCheck & { errors: FieldError[] } {
  const kind = planKind(plan);
  const errors = kind.check(base, links);
  const maxRuns = kind.maxRuns(links);
  if (maxRuns > kind.maxPlanRuns)
    errors.push({ field: "plan", message: `this plan takes ${maxRuns} runs; at most ${kind.maxPlanRuns}` });
  return { errors, base, maxRuns, maxSteps: kind.maxSteps(links) };
}

/**
 * The request that repeats a stored plan ("Run again", a schedule): a mesh by hosts leaves out the
 * links it found last time, so that it finds them again, links added since included.
 */
export function requestOfPlan(plan: unknown): unknown {
  if (!isObject(plan) || plan.kind !== "mesh" || !Array.isArray(plan.hostIds)) return plan;
  const request: Record<string, unknown> = { ...plan };
  delete request.linkIds;
  return request;
}

/** A field the body has that neither the request nor its kind knows. */
function unknownFieldMessage(kind: ExperimentKind, schema: z.ZodType): string {
  const own = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  return `is not a field of a ${kind} experiment; it takes ${[...COMMON_FIELDS, ...own].join(", ")}`;
}

/**
 * Validates a `POST /api/experiments` body into the plan stored with the experiment (defaults
 * filled in, options as given), collecting every problem into one 400. What depends on the
 * links (which exist, their port ranges and speeds) is checkPlan's.
 */
export function parseExperimentRequest(body: unknown): ExperimentPlan {
  if (!isObject(body)) throw invalidInput([{ field: "body", message: "must be a JSON object" }]);
  const { kind, name, linkIds, options = {}, ...fields } = body;
  const errors: FieldError[] = [];
  if (!isKind(kind)) errors.push({ field: "kind", message: `must be one of ${EXPERIMENT_KINDS.join(", ")}` });
  const parsedName = parseName(name, errors);
  // A mesh by hosts takes its links when it starts (resolveHostLinks): linkIds are left out then.
  const byHosts = kind === "mesh" && fields.hostIds !== undefined && fields.hostIds !== null;
  const hasLinkIds = linkIds !== undefined && linkIds !== null && !(Array.isArray(linkIds) && linkIds.length === 0);
  if (byHosts && hasLinkIds)
    errors.push({
      field: "hostIds",
      message: "or linkIds: give one of them, not both (hostIds: every link among those hosts)",
    });
  const parsedLinkIds = byHosts
    ? hasLinkIds
      ? null
      : []
    : parseLinkIds(linkIds, (isKind(kind) ? kindOf(kind).maxLinks : undefined) ?? MAX_PLAN_LINKS, errors);
  if (!isObject(options))
    errors.push({
      field: "options",
      message: "must be a JSON object of run options, as POST /api/links/:id/runs takes them",
    });
  if (!isKind(kind)) throw invalidInput(errors);

  const definition = kindOf(kind);
  const parsedFields = definition.fieldsSchema.safeParse(fields);
  if (!parsedFields.success) {
    for (const entry of fieldErrorsOf(parsedFields.error)) {
      errors.push(
        entry.message === "is not a known field here"
          ? { ...entry, message: unknownFieldMessage(kind, definition.fieldsSchema) }
          : entry,
      );
    }
  }
  if (!isObject(options)) throw invalidInput(errors);
  // Even with fields in error, the options get checked: one answer names every problem.
  const plan = {
    kind,
    name: parsedName ?? "",
    linkIds: parsedLinkIds ?? [],
    options: options as BaseRunOptions,
    ...(parsedFields.success ? parsedFields.data : fields),
  } as ExperimentPlan;
  const base = baseOrErrors(plan);
  if (Array.isArray(base)) errors.push(...base);
  else if (parsedFields.success && parsedLinkIds && !byHosts) errors.push(...checkAgainst(plan, base, []).errors);
  if (errors.length > 0) throw invalidInput(errors);
  return { ...plan, name: parsedName ?? planKind(plan).defaultName() };
}

/**
 * Checks a parsed plan against its links as they are now (the request, and again before
 * "Run again"): links that do not exist, the kind's checks, at most MAX_PLAN_RUNS runs.
 * Gives the base run request and how many runs and steps the plan takes at most.
 */
export function checkPlan(plan: ExperimentPlan, links: PlanLink[]): PlanCheck {
  const errors: FieldError[] = [];
  const found = plan.linkIds.flatMap((id, index) => {
    const link = links.find((candidate) => candidate.id === id);
    if (!link) errors.push({ field: `linkIds[${index}]`, message: `link ${id} does not exist` });
    return link ? [link] : [];
  });
  const base = baseOrErrors(plan);
  if (Array.isArray(base)) throw invalidInput([...errors, ...base]);
  const checked = checkAgainst(plan, base, found);
  errors.push(...checked.errors);
  if (errors.length > 0) throw invalidInput(errors);
  return { base, maxRuns: checked.maxRuns, maxSteps: checked.maxSteps };
}
