// The schedule contract: what a schedule is to the REST API, the pages and the scheduler.
// Pure: no I/O, safe in the browser (the form checks with the same schema). The cron
// expression and the time zone are checked by lib/schedules/timing.ts (croner, Intl); a
// link's run options by lib/runs/request.ts and a plan by lib/experiments/plan.ts.
import { z } from "zod";
import { CLIENT_SIDES, RUN_DIRECTIONS, type ClientSide, type RunDirection } from "@/lib/runs/contract";

export const MAX_SCHEDULE_NAME_LENGTH = 100;
/** A week: a longer period is what a cron expression is for. */
export const MAX_EVERY_MINUTES = 10_080;
export const MAX_SLIP_SECONDS = 3_600;
const MAX_ID = 2_147_483_647;

/** How many next starts a schedule's page and the form's preview show. */
export const PREVIEW_STARTS = 5;
/** How many of its latest runs GET /api/schedules/:id answers. */
export const LAST_RUNS = 20;

export const SCHEDULE_RUN_OUTCOMES = ["started", "skipped", "failed"] as const;
export type ScheduleRunOutcome = (typeof SCHEDULE_RUN_OUTCOMES)[number];
export type ScheduleKind = "test" | "experiment";

/** "is required: X" when missing, "must be X" otherwise (the value itself is never echoed). */
function allowed(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required: ${description}` : `must be ${description}`;
}

function wholeNumber(min: number, max: number, description: string) {
  const error = allowed(description);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

const NAME_DESCRIPTION = `text of 1 to ${MAX_SCHEDULE_NAME_LENGTH} characters, without control characters`;
const nameError = allowed(NAME_DESCRIPTION);
const NameSchema = z
  .string({ error: nameError })
  .trim()
  .min(1, { error: nameError })
  .max(MAX_SCHEDULE_NAME_LENGTH, { error: nameError })
  .regex(/^[^\p{Cc}]*$/u, { error: nameError });

const objectError = (what: string) => allowed(`a JSON object of ${what}`);

/**
 * A `POST /api/schedules` body (and a whole schedule after a PATCH is merged onto it). A null
 * `linkId`, `experimentPlan`, `cron` or `everyMinutes` counts as not given, so that a PATCH can
 * clear one side of a pair. Exactly one of linkId / experimentPlan and one of cron / everyMinutes.
 */
export const ScheduleInputSchema = z
  .strictObject({
    name: NameSchema,
    linkId: wholeNumber(1, MAX_ID, `a link id (a whole number from 1 to ${MAX_ID})`).nullish(),
    experimentPlan: z
      .record(z.string(), z.unknown(), {
        error: objectError("an experiment request, as POST /api/experiments takes it"),
      })
      .nullish(),
    options: z
      .record(z.string(), z.unknown(), { error: objectError("run options, as POST /api/links/:id/runs takes them") })
      .default({}),
    direction: z.enum(RUN_DIRECTIONS, { error: allowed('"a-to-b", "b-to-a" or "bidir"') }).default("a-to-b"),
    clientSide: z.enum(CLIENT_SIDES, { error: allowed('"a" or "b"') }).default("a"),
    cron: z
      .string({ error: allowed("a cron expression of 5 fields, or 6 with seconds") })
      .trim()
      .max(200, { error: allowed("a cron expression of at most 200 characters") })
      .nullish(),
    everyMinutes: wholeNumber(
      1,
      MAX_EVERY_MINUTES,
      `a whole number of minutes from 1 to ${MAX_EVERY_MINUTES}`,
    ).nullish(),
    timezone: z
      .string({ error: allowed("an IANA time zone such as Europe/Paris") })
      .trim()
      .min(1, { error: allowed("an IANA time zone such as Europe/Paris") })
      .max(100, { error: allowed("an IANA time zone such as Europe/Paris") })
      .default("UTC"),
    slipSeconds: wholeNumber(0, MAX_SLIP_SECONDS, `a whole number of seconds from 0 to ${MAX_SLIP_SECONDS}`).default(0),
    enabled: z.boolean({ error: allowed("true or false") }).default(true),
  })
  .superRefine((input, context) => {
    const given = (value: unknown) => value !== undefined && value !== null && value !== "";
    if (given(input.linkId) === given(input.experimentPlan)) {
      // Read as one sentence: "linkId or experimentPlan: give exactly one".
      context.addIssue({ code: "custom", path: ["linkId"], message: "or experimentPlan: give exactly one" });
    }
    if (given(input.cron) === given(input.everyMinutes)) {
      context.addIssue({ code: "custom", path: ["cron"], message: "or everyMinutes: give exactly one" });
    }
  })
  .transform((input) => ({
    ...input,
    linkId: input.linkId ?? null,
    experimentPlan: input.experimentPlan ?? null,
    cron: input.cron || null,
    everyMinutes: input.everyMinutes ?? null,
  }));

export type ScheduleInput = z.output<typeof ScheduleInputSchema>;

/** The timing half of a schedule: what timing.ts turns into start times. */
export type ScheduleTimingInput = {
  cron: string | null;
  everyMinutes: number | null;
  timezone: string;
  slipSeconds?: number;
};

/** One start of a schedule: a run or experiment it started, or a start it skipped or could not make. */
export type ScheduleRunJson = {
  id: number;
  /** when it was due, slip included (ISO) */
  dueAt: string;
  /** when the scheduler handled it (ISO) */
  at: string;
  outcome: ScheduleRunOutcome;
  /** why it was skipped or failed: "link busy: run 12 is running" */
  reason: string | null;
  /** the one start made after a restart for the starts missed while the app was down */
  catchUp: boolean;
  runId: number | null;
  experimentId: number | null;
  /** the run's or experiment's status now */
  status: string | null;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
};

export type ScheduleJson = {
  id: number;
  name: string;
  linkId: number | null;
  link: { id: number; name: string } | null;
  experimentPlan: Record<string, unknown> | null;
  kind: ScheduleKind;
  /** a link's test: the run options without direction flags ({} for an experiment) */
  options: Record<string, unknown>;
  direction: RunDirection;
  clientSide: ClientSide;
  cron: string | null;
  everyMinutes: number | null;
  timezone: string;
  slipSeconds: number;
  enabled: boolean;
  /** the next start, slip included; null while paused */
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastRun: ScheduleRunJson | null;
};

export type ScheduleDetailJson = ScheduleJson & {
  /** the next PREVIEW_STARTS start times without slip (ISO); none while paused */
  nextRuns: string[];
  /** newest first, at most LAST_RUNS */
  lastRuns: ScheduleRunJson[];
};

/** The answer of the form's preview: the next starts, or what is wrong with the timing. */
export type SchedulePreview =
  { ok: true; starts: string[] } | { ok: false; fields: { field: string; message: string }[] };

/** "every 15 minutes", "every minute", "cron 0 3 * * * (Europe/Paris), slip up to 60 s". */
export function describeTiming(schedule: ScheduleTimingInput): string {
  const timing =
    schedule.everyMinutes !== null
      ? schedule.everyMinutes === 1
        ? "every minute"
        : `every ${schedule.everyMinutes} minutes`
      : `cron ${schedule.cron ?? ""} (${schedule.timezone})`;
  return schedule.slipSeconds ? `${timing}, slip up to ${schedule.slipSeconds} s` : timing;
}

/** "started", "skipped: link busy: run 12 is running", "failed: Link 9 does not exist." */
export function describeScheduleRun(run: Pick<ScheduleRunJson, "outcome" | "reason" | "catchUp">): string {
  const outcome = run.reason ? `${run.outcome}: ${run.reason}` : run.outcome;
  return run.catchUp ? `${outcome} (catch-up after a restart)` : outcome;
}
