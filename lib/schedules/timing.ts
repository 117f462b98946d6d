// When a schedule starts: a cron expression in a time zone (croner parses and steps it, DST
// included), or every N minutes from an anchor. Pure: no database, no clock of its own (the
// caller passes "now"), so the form's preview, the store and the scheduler agree.
import { Cron } from "croner";
import { AppError, invalidInput, type FieldError } from "@/lib/errors";
import { MAX_EVERY_MINUTES, PREVIEW_STARTS, type SchedulePreview, type ScheduleTimingInput } from "./contract";

export type Timing =
  | { kind: "cron"; expression: string; timezone: string; cron: Cron }
  | { kind: "every"; minutes: number; timezone: string };

const CRON_FORMAT = "use 5 fields (minute hour day month weekday), or 6 with seconds first";
const TIMEZONE_MESSAGE = "unknown time zone; use an IANA name such as Europe/Paris";

/** The IANA name as Intl spells it ("europe/paris" → "Europe/Paris"), or null for an unknown zone. */
export function canonicalTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** croner's reason without the pattern it quotes ("invalid value for minute: 60"). */
function cronReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^CronPattern:\s*/, "")
    .replace(/\s*\('.*'\)/s, "")
    .replace(/\.$/, "")
    .replace(/^./, (first) => first.toLowerCase());
}

function parseCron(expression: string, timezone: string, errors: FieldError[]): Cron | null {
  // croner reads a string with a colon as a date to run once: a cron expression never has one.
  if (expression.includes(":")) {
    errors.push({ field: "cron", message: `is not a cron expression (a date is not a schedule): ${CRON_FORMAT}` });
    return null;
  }
  let cron: Cron;
  try {
    // Paused and without a function: it only computes dates, it never arms a timer.
    cron = new Cron(expression, { timezone, paused: true });
  } catch (error) {
    errors.push({ field: "cron", message: `is not a valid cron expression (${cronReason(error)}): ${CRON_FORMAT}` });
    return null;
  }
  // From the epoch, not the clock: a pattern with no date (the 30th of February) has none from any time.
  if (cron.nextRun(new Date(0)) === null) {
    errors.push({
      field: "cron",
      message: "never matches a date (such as the 30th of February): choose days that exist",
    });
    return null;
  }
  return cron;
}

/**
 * A schedule's timing, checked: exactly one of `cron` / `everyMinutes`, a cron expression croner
 * accepts, a known time zone. Throws a 400 naming `cron`, `everyMinutes` or `timezone`.
 */
export function parseTiming({ cron, everyMinutes, timezone }: ScheduleTimingInput): Timing {
  const errors: FieldError[] = [];
  const zone = canonicalTimeZone(timezone);
  if (zone === null) errors.push({ field: "timezone", message: TIMEZONE_MESSAGE });
  const expression = cron?.trim() ?? "";
  const hasEvery = everyMinutes !== null;
  const hasCron = expression !== "";
  if (hasCron === hasEvery) {
    errors.push({ field: "cron", message: "or everyMinutes: give exactly one" });
    throw invalidInput(errors);
  }
  if (hasEvery && !(Number.isInteger(everyMinutes) && everyMinutes >= 1 && everyMinutes <= MAX_EVERY_MINUTES)) {
    errors.push({ field: "everyMinutes", message: `must be a whole number of minutes from 1 to ${MAX_EVERY_MINUTES}` });
  }
  // A zone croner would refuse is reported once, as the time zone's error, not as the cron's.
  const parsed = hasCron && zone !== null ? parseCron(expression, zone, errors) : null;
  if (errors.length > 0) throw invalidInput(errors);
  if (hasEvery) return { kind: "every", minutes: everyMinutes, timezone: zone! };
  return { kind: "cron", expression, timezone: zone!, cron: parsed! };
}

/**
 * The next `count` starts strictly after `after`, without slip. Every N minutes counts from
 * `anchor` (when the timing was set: anchor + k × N), so a restart keeps the same grid; without
 * an anchor it counts from `after`.
 */
export function nextStarts(timing: Timing, after: Date, count: number, anchor: Date = after): Date[] {
  if (count <= 0) return [];
  if (timing.kind === "cron") return timing.cron.nextRuns(count, after);
  const period = timing.minutes * 60_000;
  const first = Math.floor((after.getTime() - anchor.getTime()) / period) + 1;
  return Array.from({ length: count }, (_, index) => new Date(anchor.getTime() + (first + index) * period));
}

/**
 * The next due time: the next start after `after` plus a random 0..slipSeconds s (`random` in
 * [0, 1)), or null when the timing has no further start. The slip is part of the stored due
 * time, so a restart keeps it.
 */
export function nextDueAt(
  timing: Timing,
  after: Date,
  anchor: Date,
  slipSeconds: number,
  random: () => number = Math.random,
): Date | null {
  const [start] = nextStarts(timing, after, 1, anchor);
  if (!start) return null;
  return new Date(start.getTime() + Math.floor(random() * (slipSeconds * 1000 + 1)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The form's preview before saving: the next PREVIEW_STARTS starts (ISO, without slip) of the
 * timing in `input` (`{ cron?, everyMinutes?, timezone? }`, other fields ignored), or the field
 * errors. Every N minutes counts from `now`, when the timing would be set.
 */
export function previewStarts(input: unknown, now: Date): SchedulePreview {
  const body = isObject(input) ? input : {};
  const errors: FieldError[] = [];
  const cron = body.cron ?? null;
  const everyMinutes = body.everyMinutes === "" ? null : (body.everyMinutes ?? null);
  const timezone =
    body.timezone === undefined || body.timezone === null || body.timezone === "" ? "UTC" : body.timezone;
  if (cron !== null && typeof cron !== "string")
    errors.push({ field: "cron", message: `must be a cron expression: ${CRON_FORMAT}` });
  if (everyMinutes !== null && typeof everyMinutes !== "number")
    errors.push({ field: "everyMinutes", message: `must be a whole number of minutes from 1 to ${MAX_EVERY_MINUTES}` });
  if (typeof timezone !== "string") errors.push({ field: "timezone", message: TIMEZONE_MESSAGE });
  if (errors.length > 0) return { ok: false, fields: errors };
  try {
    const timing = parseTiming({
      cron: cron as string | null,
      everyMinutes: everyMinutes as number | null,
      timezone: timezone as string,
    });
    return { ok: true, starts: nextStarts(timing, now, PREVIEW_STARTS).map((start) => start.toISOString()) };
  } catch (error) {
    if (error instanceof AppError && error.kind === "invalid") return { ok: false, fields: error.fields };
    throw error;
  }
}
