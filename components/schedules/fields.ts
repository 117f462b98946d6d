// What the schedule form asks for, without React: its fields as typed, the body they make
// for lib/schedules (the REST API's `{ name, linkId | experimentPlan, options, direction,
// clientSide, cron | everyMinutes, timezone, slipSeconds, enabled }`), a stored schedule
// read back into fields, and the server's field errors placed by the fields they name.
import type { ScheduleJson } from "@/lib/schedules/contract";
import { NEW_TEST_DEFAULTS, newTestRequestBody, type NewTestFields } from "@/lib/runs/test-request";
import { latencyOptionOf, withLatencyOption } from "@/components/diagnosis/latency-option";
import type { FieldPlacement } from "@/components/forms/use-action-form";

export type ScheduleTarget = "test" | "experiment";
export type TimingMode = "cron" | "every";

/** Text as typed, so that what the server refuses comes back with its limits. */
export type ScheduleFormFields = {
  name: string;
  target: ScheduleTarget;
  /** the link of a link's test, as the select's value ("" for none yet) */
  linkId: string;
  /** a link's test: the new-test form's fields (direction and client side included) */
  test: NewTestFields;
  /** a link's test: each start pings under load (the run option `latency`) */
  latency: boolean;
  /** an experiment: the request as JSON text, as POST /api/experiments takes it */
  experimentPlan: string;
  timingMode: TimingMode;
  cron: string;
  everyMinutes: string;
  timezone: string;
  slipSeconds: string;
  enabled: boolean;
};

export const SCHEDULE_FORM_DEFAULTS: ScheduleFormFields = {
  name: "",
  target: "test",
  linkId: "",
  test: NEW_TEST_DEFAULTS,
  latency: false,
  experimentPlan: "",
  timingMode: "every",
  cron: "0 * * * *",
  everyMinutes: "60",
  timezone: "UTC",
  slipSeconds: "0",
  enabled: true,
};

function numberOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const value = Number(trimmed);
  // A non-number goes to the server as text, which answers with the field's limits.
  return Number.isFinite(value) ? value : trimmed;
}

/** The plan's JSON text as an object, or the message for the field. */
export function parsePlanText(
  text: string,
): { ok: true; plan: Record<string, unknown> } | { ok: false; message: string } {
  if (!text.trim())
    return { ok: false, message: "is required: the experiment request as JSON (choose a preset to fill it in)" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "is not valid JSON: paste the request as POST /api/experiments takes it" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "must be a JSON object, as POST /api/experiments takes it" };
  return { ok: true, plan: value as Record<string, unknown> };
}

/** The timing half of the body: what the preview needs, and what the schedule stores. */
export function timingBody(fields: Pick<ScheduleFormFields, "timingMode" | "cron" | "everyMinutes" | "timezone">): {
  cron: string | null;
  everyMinutes: number | string | null;
  timezone: string;
} {
  const timezone = fields.timezone.trim() || "UTC";
  if (fields.timingMode === "cron") return { cron: fields.cron.trim(), everyMinutes: null, timezone };
  return { cron: null, everyMinutes: numberOrText(fields.everyMinutes) ?? null, timezone };
}

/**
 * The request body of the form, or the message for the plan's field when its JSON does not
 * parse (the form shows it there without asking the server). A link's test sends its run
 * options without direction and client side, which go beside them.
 */
export function scheduleRequestBody(
  fields: ScheduleFormFields,
): { ok: true; body: Record<string, unknown> } | { ok: false; field: string; message: string } {
  const common = {
    name: fields.name,
    ...timingBody(fields),
    slipSeconds: numberOrText(fields.slipSeconds) ?? 0,
    enabled: fields.enabled,
  };
  if (fields.target === "experiment") {
    const parsed = parsePlanText(fields.experimentPlan);
    if (!parsed.ok) return { ok: false, field: "experimentPlan", message: parsed.message };
    return { ok: true, body: { ...common, linkId: null, experimentPlan: parsed.plan } };
  }
  const { direction, clientSide, ...options } = newTestRequestBody(fields.test);
  const linkId = numberOrText(fields.linkId);
  return {
    ok: true,
    body: {
      ...common,
      linkId: linkId ?? null,
      experimentPlan: null,
      options: withLatencyOption(options, fields.latency),
      direction,
      clientSide,
    },
  };
}

function sizeText(value: unknown): string {
  return typeof value === "number" ? String(value) : "";
}

/** A stored link test's options back as the new-test form's fields (what it does not show is kept). */
export function testFieldsOf(
  options: Record<string, unknown>,
  direction: NewTestFields["direction"],
  clientSide: NewTestFields["clientSide"],
): NewTestFields {
  const text = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");
  const bitrate = typeof options.bitrate === "number" ? String(options.bitrate / 1e6) : "";
  return {
    ...NEW_TEST_DEFAULTS,
    protocol: options.protocol === "udp" ? "udp" : "tcp",
    lengthMode: typeof options.bytes === "number" ? "bytes" : "time",
    duration: options.duration === undefined ? NEW_TEST_DEFAULTS.duration : text(options.duration),
    bytes: sizeText(options.bytes),
    parallel: options.parallel === undefined ? NEW_TEST_DEFAULTS.parallel : text(options.parallel),
    direction,
    clientSide,
    bitrateMbps: bitrate,
    omit: text(options.omit),
    interval: options.interval === undefined ? NEW_TEST_DEFAULTS.interval : text(options.interval),
    window: sizeText(options.window),
    length: sizeText(options.length),
    mss: text(options.mss),
    congestion: typeof options.congestion === "string" ? options.congestion : "",
    zerocopy: options.zerocopy === true,
    tos: text(options.tos),
    port: text(options.port),
  };
}

/** A stored schedule as the form's fields, for its edit form. */
export function formFieldsOf(schedule: ScheduleJson): ScheduleFormFields {
  return {
    name: schedule.name,
    target: schedule.kind,
    linkId: schedule.linkId === null ? "" : String(schedule.linkId),
    test: testFieldsOf(schedule.options, schedule.direction, schedule.clientSide),
    latency: latencyOptionOf(schedule.options),
    experimentPlan: schedule.experimentPlan ? JSON.stringify(schedule.experimentPlan, null, 2) : "",
    timingMode: schedule.everyMinutes !== null ? "every" : "cron",
    cron: schedule.cron ?? SCHEDULE_FORM_DEFAULTS.cron,
    everyMinutes: schedule.everyMinutes !== null ? String(schedule.everyMinutes) : SCHEDULE_FORM_DEFAULTS.everyMinutes,
    timezone: schedule.timezone,
    slipSeconds: String(schedule.slipSeconds),
    enabled: schedule.enabled,
  };
}

// The schedule's own fields; on a link's test every other field is one of its run options.
const SCHEDULE_FIELDS = new Set([
  "name",
  "linkId",
  "experimentPlan",
  "options",
  "cron",
  "everyMinutes",
  "timezone",
  "slipSeconds",
  "enabled",
]);
// The server's `bitrate` is the form's `bitrateMbps`.
const TEST_FIELD_OF: Record<string, string> = { bitrate: "bitrateMbps" };

/**
 * Where a server field error shows on the form. On a link's test, `options.parallel` (or `parallel`,
 * `direction`) is `test.parallel`; on an experiment, whatever is not the schedule's own field is the
 * plan's and goes by its field, with its path.
 */
export function scheduleFieldOf(target: ScheduleTarget): FieldPlacement {
  return ({ field, message }) => {
    const inner = field.startsWith("experimentPlan.")
      ? field.slice("experimentPlan.".length)
      : field.startsWith("options.")
        ? field.slice("options.".length)
        : null;
    if (inner === null && SCHEDULE_FIELDS.has(field)) return { field, message };
    if (target === "experiment") return { field: "experimentPlan", message: `${inner ?? field}: ${message}` };
    const option = inner ?? field;
    return { field: `test.${TEST_FIELD_OF[option] ?? option}`, message };
  };
}

/** The link field's message: "linkId or experimentPlan: give exactly one" reads as a sentence there. */
export function fieldLabelled(field: string, message: string): string {
  return message.startsWith("or ") ? `${field} ${message}` : message;
}
