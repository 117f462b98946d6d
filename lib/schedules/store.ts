import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/auth/audit";
import { AppError, fieldErrorsFromZod, invalidInput, type FieldError } from "@/lib/errors";
import { checkPlan, parseExperimentRequest } from "@/lib/experiments/plan";
import type { ExperimentPlan } from "@/lib/experiments/contract";
import { loadPlanLinks, resolveHostLinks } from "@/lib/experiments/reads";
import { clientSideOf, RUN_DIRECTIONS, type RunDirection } from "@/lib/runs/contract";
import { parseRunRequest } from "@/lib/runs/request";
import { lineRatePercent } from "@/lib/runs/serialize";
import {
  describeTiming,
  LAST_RUNS,
  PREVIEW_STARTS,
  ScheduleInputSchema,
  type ScheduleDetailJson,
  type ScheduleInput,
  type ScheduleJson,
  type ScheduleRunJson,
  type ScheduleRunOutcome,
} from "./contract";
import { getApp } from "@/lib/running-app";
import { jsonGroupArray, jsonValue } from "@/lib/sql-dialect";
import { nextDueAt, nextStarts, parseTiming, type Timing } from "./timing";

// Schedules in the database: validation (the timing, and the target as a run request or an
// experiment request is checked), create, change, delete, and the JSON the API and pages share.
// Every change moves nextRunAt where it must and tells the scheduler to re-read.

const runSelect = {
  include: {
    run: { select: { status: true, receivedBitsPerSecond: true, link: { select: { speedMbps: true } } } },
    experiment: { select: { status: true } },
  },
} as const;

const scheduleInclude = { link: { select: { id: true, name: true } } } as const satisfies Prisma.ScheduleInclude;

type ScheduleRunRow = Prisma.ScheduleRunGetPayload<typeof runSelect>;
type ScheduleRow = Prisma.ScheduleGetPayload<{ include: typeof scheduleInclude }> & { runs: ScheduleRunRow[] };

/**
 * The schedules with their last `count` runs, newest first. Prisma's nested `take` reads every run
 * of every schedule and slices in memory (26,000 rows a schedule after three years of hourly
 * runs); here one statement picks each schedule's last ids through the (scheduleId, id) index and
 * a second reads those rows.
 */
async function withLastRuns<T extends { id: number }>(
  rows: T[],
  count: number,
): Promise<(T & { runs: ScheduleRunRow[] })[]> {
  if (rows.length === 0) return [];
  const lists = await db.$queryRaw<{ id: number | bigint; ids: unknown }[]>`
    SELECT s."id" AS "id",
      (SELECT ${jsonGroupArray(Prisma.sql`r."id"`)} FROM (SELECT "id" FROM "ScheduleRun" WHERE "scheduleId" = s."id" ORDER BY "id" DESC LIMIT ${count}) r) AS "ids"
    FROM "Schedule" s WHERE s."id" IN (${Prisma.join(rows.map((row) => row.id))})`;
  const idsOf = new Map(lists.map((list) => [Number(list.id), jsonValue<number[]>(list.ids).sort((a, b) => b - a)]));
  const wanted = [...idsOf.values()].flat();
  const runs =
    wanted.length === 0 ? [] : await db.scheduleRun.findMany({ where: { id: { in: wanted } }, ...runSelect });
  const runById = new Map(runs.map((run) => [run.id, run]));
  return rows.map((row) => ({ ...row, runs: (idsOf.get(row.id) ?? []).flatMap((id) => runById.get(id) ?? []) }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function notFound(id: number): AppError {
  return new AppError("not-found", `Schedule ${id} does not exist.`);
}

function scheduleRunJson(row: ScheduleRunRow): ScheduleRunJson {
  const received = row.run?.receivedBitsPerSecond ?? null;
  return {
    id: row.id,
    dueAt: row.dueAt.toISOString(),
    at: row.at.toISOString(),
    outcome: row.outcome as ScheduleRunOutcome,
    reason: row.reason,
    catchUp: row.catchUp,
    runId: row.runId,
    experimentId: row.experimentId,
    status: row.run?.status ?? row.experiment?.status ?? null,
    receivedBitsPerSecond: received,
    lineRatePercent: row.run ? lineRatePercent(received, row.run.link.speedMbps) : null,
  };
}

function directionOf(value: string): RunDirection {
  return (RUN_DIRECTIONS as readonly string[]).includes(value) ? (value as RunDirection) : "a-to-b";
}

function scheduleJson(row: ScheduleRow): ScheduleJson {
  return {
    id: row.id,
    ...bodyOf(row),
    link: row.link,
    kind: row.linkId === null ? "experiment" : "test",
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun: row.runs[0] ? scheduleRunJson(row.runs[0]) : null,
  };
}

/** The link ids a stored plan runs on; none when it is not one. */
function planLinkIds(plan: unknown): number[] {
  const linkIds = isObject(plan) ? plan.linkIds : undefined;
  return Array.isArray(linkIds) ? linkIds.filter((id): id is number => Number.isSafeInteger(id)) : [];
}

/** Whether a schedule runs on the link: its test's link, or one of its plan's. */
function runsOn(row: { linkId: number | null; experimentPlan: unknown }, linkId: number): boolean {
  return row.linkId === linkId || (row.linkId === null && planLinkIds(row.experimentPlan).includes(linkId));
}

/** Schedules in the order they were made; with `linkId`, those whose test or plan runs on that link. */
export async function listSchedules({ linkId }: { linkId?: number } = {}): Promise<ScheduleJson[]> {
  const rows = await db.schedule.findMany({
    where: linkId === undefined ? {} : { OR: [{ linkId }, { linkId: null }] },
    orderBy: { id: "asc" },
    include: scheduleInclude,
  });
  const wanted = rows.filter((row) => linkId === undefined || runsOn(row, linkId));
  return (await withLastRuns(wanted, 1)).map(scheduleJson);
}

/** The schedules of each link (for the link cards' last outcome); every id asked for is a key. */
export async function schedulesByLink(linkIds: number[]): Promise<Map<number, ScheduleJson[]>> {
  const byLink = new Map<number, ScheduleJson[]>(linkIds.map((id) => [id, []]));
  if (linkIds.length === 0) return byLink;
  const found = await db.schedule.findMany({
    where: { OR: [{ linkId: { in: linkIds } }, { linkId: null }] },
    orderBy: { id: "asc" },
    include: scheduleInclude,
  });
  const rows = await withLastRuns(
    found.filter((row) => linkIds.some((linkId) => runsOn(row, linkId))),
    1,
  );
  for (const row of rows) {
    const json = scheduleJson(row);
    for (const linkId of linkIds) if (runsOn(row, linkId)) byLink.get(linkId)!.push(json);
  }
  return byLink;
}

/** One schedule with its next PREVIEW_STARTS starts (none while paused) and its last LAST_RUNS runs; null when it does not exist. */
export async function getSchedule(id: number, now: Date = new Date()): Promise<ScheduleDetailJson | null> {
  const found = await db.schedule.findUnique({ where: { id }, include: scheduleInclude });
  if (!found) return null;
  const row = (await withLastRuns([found], LAST_RUNS))[0]!;
  let nextRuns: string[] = [];
  if (row.enabled) {
    try {
      nextRuns = nextStarts(parseTiming(row), now, PREVIEW_STARTS, row.createdAt).map((start) => start.toISOString());
    } catch {
      // A timing stored under other rules (a time zone this system no longer knows) has no next start here.
    }
  }
  return { ...scheduleJson(row), nextRuns, lastRuns: row.runs.map(scheduleRunJson) };
}

type Validated = {
  input: ScheduleInput;
  timing: Timing;
  /** A link's test: its options as validated, without the direction flags that `direction` and `clientSide` give. */
  options: Record<string, unknown>;
  experimentPlan: ExperimentPlan | null;
  /** For the audit log: "test on nas-10g" or "sweep on nas-10g, nas-1g". */
  target: string;
};

/** The field errors of a 400, each field under `prefix`; anything else is thrown on. */
function invalidFields(error: unknown, prefix = ""): FieldError[] {
  if (!(error instanceof AppError) || error.kind !== "invalid") throw error;
  if (!prefix) return error.fields;
  return error.fields.map(({ field, message }) => ({
    field: field === "body" ? prefix : `${prefix}.${field}`,
    message,
  }));
}

/** Validates a whole schedule; one 400 names every field at fault. */
async function validate(body: unknown): Promise<Validated> {
  const parsed = ScheduleInputSchema.safeParse(body);
  if (!parsed.success) throw invalidInput(fieldErrorsFromZod(parsed.error));
  const input = parsed.data;
  const errors: FieldError[] = [];
  let timing: Timing | null = null;
  try {
    timing = parseTiming(input);
  } catch (error) {
    errors.push(...invalidFields(error));
  }
  let options: Record<string, unknown> = {};
  let experimentPlan: ExperimentPlan | null = null;
  let target = "";
  if (input.linkId !== null) {
    const link = await db.link.findUnique({ where: { id: input.linkId }, select: { name: true } });
    if (!link) errors.push({ field: "linkId", message: `link ${input.linkId} does not exist` });
    for (const field of ["direction", "clientSide"]) {
      if (field in input.options)
        errors.push({ field: `options.${field}`, message: `is a field of the schedule: set ${field} beside options` });
    }
    try {
      // Validated as POST /api/links/:id/runs validates it; its field errors keep their names ("parallel").
      const request = parseRunRequest({ ...input.options, direction: input.direction, clientSide: input.clientSide });
      const rest: Record<string, unknown> = { ...request.options };
      delete rest.reverse;
      delete rest.bidir;
      options = rest;
    } catch (error) {
      errors.push(...invalidFields(error));
    }
    target = `test on ${link?.name ?? `link ${input.linkId}`}`;
  } else {
    try {
      // Stored as asked: a mesh by hosts finds its links at each start, those added since included.
      experimentPlan = parseExperimentRequest(input.experimentPlan);
      const resolved = await resolveHostLinks(experimentPlan);
      const links = await loadPlanLinks(resolved.linkIds);
      checkPlan(resolved, links);
      target = `${experimentPlan.kind} on ${links.map((link) => link.name).join(", ")}`;
    } catch (error) {
      errors.push(...invalidFields(error, "experimentPlan"));
    }
  }
  if (errors.length > 0 || !timing) throw invalidInput(errors);
  return { input, timing, options, experimentPlan, target };
}

/** What is stored of a validated schedule, as plain values. */
function storedOf({ input, timing, options, experimentPlan }: Validated) {
  const isTest = experimentPlan === null;
  return {
    name: input.name,
    linkId: input.linkId,
    experimentPlan: experimentPlan as Record<string, unknown> | null,
    // An experiment's plan carries its own options and placement.
    options: isTest ? options : {},
    direction: isTest ? input.direction : "a-to-b",
    clientSide: isTest ? input.clientSide : "a",
    cron: timing.kind === "cron" ? timing.expression : null,
    everyMinutes: timing.kind === "every" ? timing.minutes : null,
    // As Intl spells it: "europe/paris" is kept as "Europe/Paris".
    timezone: timing.timezone,
    slipSeconds: input.slipSeconds,
    enabled: input.enabled,
  };
}

type Stored = ReturnType<typeof storedOf>;

function dataOf(stored: Stored) {
  return {
    ...stored,
    experimentPlan: stored.experimentPlan === null ? Prisma.DbNull : (stored.experimentPlan as Prisma.InputJsonValue),
    options: stored.options as Prisma.InputJsonValue,
  };
}

/** Validates a `POST /api/schedules` body and records the schedule; its first start is the next after now, slip included. */
export async function createSchedule(body: unknown): Promise<ScheduleDetailJson> {
  const validated = await validate(body);
  const now = new Date();
  const { input, timing } = validated;
  const row = await db.schedule.create({
    data: {
      ...dataOf(storedOf(validated)),
      // Every N minutes counts from here: createdAt is the grid's anchor.
      createdAt: now,
      nextRunAt: input.enabled ? nextDueAt(timing, now, now, input.slipSeconds) : null,
    },
  });
  await recordAudit(
    "schedule.create",
    "schedule",
    row.id,
    `"${input.name}": ${validated.target}, ${describeTiming({ ...input, timezone: timing.timezone })}${input.enabled ? "" : ", paused"}`,
  );
  getApp().scheduler.poke();
  return (await getSchedule(row.id, now))!;
}

/** The stored schedule as a request body, for a PATCH to be merged onto. */
function bodyOf(row: {
  name: string;
  linkId: number | null;
  experimentPlan: unknown;
  options: unknown;
  direction: string;
  clientSide: string;
  cron: string | null;
  everyMinutes: number | null;
  timezone: string;
  slipSeconds: number;
  enabled: boolean;
}): Stored {
  return {
    name: row.name,
    linkId: row.linkId,
    experimentPlan: isObject(row.experimentPlan) ? row.experimentPlan : null,
    options: isObject(row.options) ? row.options : {},
    direction: directionOf(row.direction),
    clientSide: clientSideOf(row.clientSide),
    cron: row.cron,
    everyMinutes: row.everyMinutes,
    timezone: row.timezone,
    slipSeconds: row.slipSeconds,
    enabled: row.enabled,
  };
}

const PAIRS = [
  ["linkId", "experimentPlan"],
  ["cron", "everyMinutes"],
] as const;

const TIMING_FIELDS = ["cron", "everyMinutes", "timezone", "slipSeconds"] as const;

/** JSON with object keys in order: the same options read back from the database compare equal. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}

/**
 * Changes any subset of a schedule's fields; the whole is validated again. Giving one side of
 * a pair (`everyMinutes`, say) clears the other (`cron`) unless the body names it too. A new
 * timing or slip, or a resume, sets the next start afresh; a pause clears it.
 */
export async function updateSchedule(id: number, body: unknown): Promise<ScheduleDetailJson> {
  if (!isObject(body)) throw invalidInput([{ field: "body", message: "must be a JSON object" }]);
  const row = await db.schedule.findUnique({ where: { id } });
  if (!row) throw notFound(id);
  const before = bodyOf(row);
  const merged: Record<string, unknown> = { ...before };
  for (const [one, other] of PAIRS) {
    if (body[one] !== undefined && body[one] !== null && !(other in body)) merged[other] = null;
    if (body[other] !== undefined && body[other] !== null && !(one in body)) merged[one] = null;
  }
  Object.assign(merged, body);
  const validated = await validate(merged);
  const after = storedOf(validated);
  const now = new Date();
  const changed = (Object.keys(before) as (keyof Stored)[]).filter(
    (key) => stableJson(before[key]) !== stableJson(after[key]),
  );
  const retimed =
    TIMING_FIELDS.some((field) => changed.includes(field)) ||
    (after.enabled && (!row.enabled || row.nextRunAt === null));
  const nextRunAt = !after.enabled
    ? null
    : retimed
      ? nextDueAt(validated.timing, now, row.createdAt, after.slipSeconds)
      : row.nextRunAt;
  await db.schedule.update({ where: { id }, data: { ...dataOf(after), nextRunAt } });
  await recordAudit(
    "schedule.update",
    "schedule",
    id,
    `"${after.name}": ${changed.length > 0 ? `changed ${changed.join(", ")}` : "no change"}${after.enabled ? "" : ", paused"}`,
  );
  getApp().scheduler.poke();
  return (await getSchedule(id, now))!;
}

/** Deletes a schedule and its history of starts; the runs it started stay. */
export async function deleteSchedule(id: number): Promise<void> {
  const row = await db.schedule.findUnique({ where: { id }, select: { name: true } });
  if (!row) throw notFound(id);
  await db.schedule.delete({ where: { id } });
  await recordAudit("schedule.delete", "schedule", id, `"${row.name}"`);
  getApp().scheduler.poke();
}
