"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useSyncExternalStore } from "react";
import { asSent, useActionForm, type FieldError } from "@/components/forms/use-action-form";
import { ChoiceGroup } from "@/components/experiments/form/ChoiceGroup";
import { linkLabel, linksOf, type FormLink } from "@/components/experiments/form/fields";
import { RunOptionFields } from "@/components/experiments/form/RunOptionFields";
import { Section } from "@/components/forms/Section";
import { textBinder } from "@/components/forms/field-binding";
import {
  Button,
  CheckboxField,
  GridCheckbox,
  Notice,
  SelectField,
  Spinner,
  TextAreaField,
  TextField,
} from "@/components/ui/ui";
import { LATENCY_OPTION_LABEL } from "@/components/diagnosis/latency-option";
import { previewScheduleAction } from "@/lib/schedules/actions/preview-schedule";
import { saveScheduleAction } from "@/lib/schedules/actions/save-schedule";
import { EXPERIMENT_PRESETS, presetById, presetFitsLinks, presetRequestBody } from "@/lib/experiments/presets";
import {
  MAX_EVERY_MINUTES,
  MAX_SCHEDULE_NAME_LENGTH,
  MAX_SLIP_SECONDS,
  PREVIEW_STARTS,
  type SchedulePreview,
} from "@/lib/schedules/contract";
import {
  fieldLabelled,
  SCHEDULE_FORM_DEFAULTS,
  scheduleFieldOf,
  scheduleRequestBody,
  timingBody,
  type ScheduleFormFields,
} from "./fields";
import { formatStartIn, hasSecondsField } from "./format";

// Every form key a field of this form shows a message for; the rest go in the notice on top.
const PLACED_KEYS = new Set([
  "name",
  "linkId",
  "experimentPlan",
  "cron",
  "everyMinutes",
  "timezone",
  "slipSeconds",
  "enabled",
  "test.protocol",
  "test.direction",
  "test.clientSide",
  "test.duration",
  "test.parallel",
  "test.omit",
  "test.bitrateMbps",
]);

/** How long the preview waits after the last key before it asks the server. */
const PREVIEW_DELAY_MS = 350;

// The browser's time zone, read once on the client (the server's render has none).
let browserZone: string | null = null;
function readBrowserZone(): string | null {
  browserZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
  return browserZone;
}
const noSubscription = () => () => {};

// The zones the browser knows, for the time zone field's suggestions.
let knownZones: readonly string[] | null = null;
const NO_ZONES: readonly string[] = [];
function readKnownZones(): readonly string[] {
  knownZones ??= typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : NO_ZONES;
  return knownZones;
}

type PreviewState = { key: string; preview: SchedulePreview | null; message: string | null };

/**
 * The next starts of the timing being typed, asked of the server (the same croner and time
 * zones as the scheduler) once typing pauses; the field errors of a timing it refuses.
 */
function useTimingPreview(fields: ScheduleFormFields): { state: PreviewState; isStale: boolean } {
  const key = JSON.stringify(timingBody(fields));
  const [state, setState] = useState<PreviewState>({ key: "", preview: null, message: null });
  useEffect(() => {
    let isCurrent = true;
    const timer = setTimeout(() => {
      void previewScheduleAction(JSON.parse(key)).then(
        (result) => {
          if (isCurrent)
            setState({ key, preview: result.ok ? result.value : null, message: result.ok ? null : result.message });
        },
        () => {
          if (isCurrent)
            setState({ key, preview: null, message: "The server did not answer: check that Wirespeed is running." });
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [key]);
  return { state, isStale: state.key !== key };
}

function TimingPreview({
  state,
  isStale,
  fields,
}: {
  state: PreviewState;
  isStale: boolean;
  fields: ScheduleFormFields;
}) {
  const timezone = fields.timezone.trim() || "UTC";
  const withSeconds = fields.timingMode === "cron" && hasSecondsField(fields.cron);
  const starts = state.preview?.ok ? state.preview.starts : null;
  return (
    <div
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-950"
      aria-live="polite"
      data-testid="schedule-preview"
      data-stale={isStale || undefined}
    >
      <p className="flex items-center gap-2 font-medium">
        Next {PREVIEW_STARTS} starts
        {isStale ? <Spinner /> : null}
      </p>
      {state.message ? (
        <p className="mt-1 text-red-700 dark:text-red-300">{state.message}</p>
      ) : starts ? (
        <ol className={`mt-1 space-y-0.5 tabular-nums ${isStale ? "opacity-60" : ""}`}>
          {starts.map((start) => (
            <li key={start} data-testid="preview-start">
              <time dateTime={start}>{formatStartIn(start, timezone, withSeconds)}</time>
            </li>
          ))}
          <li className="text-xs text-slate-600 dark:text-slate-400">
            In {timezone}
            {Number(fields.slipSeconds) > 0 ? `, each up to ${fields.slipSeconds} s later (slip)` : ""}.
          </li>
        </ol>
      ) : state.preview && !state.preview.ok ? (
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          No starts until the timing is valid: see the fields marked.
        </p>
      ) : (
        <p className="mt-1 text-slate-600 dark:text-slate-400">Working them out…</p>
      )}
    </div>
  );
}

/**
 * The schedule form, new or edit: what to repeat (a link's test, with the new-test form's
 * options, or an experiment request from a preset or pasted as JSON), when (a cron expression
 * in a time zone, or every N minutes, with a random slip) and whether it is on. The next
 * starts show as the timing is typed, before anything is saved; the server's field errors
 * show beside their fields.
 */
export function ScheduleForm({
  links,
  initial,
  scheduleId,
  onSaved,
}: {
  links: FormLink[];
  initial?: ScheduleFormFields;
  scheduleId?: number;
  onSaved?: () => void;
}) {
  const router = useRouter();
  const [fields, setFields] = useState<ScheduleFormFields>(initial ?? SCHEDULE_FORM_DEFAULTS);
  const [unplaced, setUnplaced] = useState<FieldError[]>([]);
  const [presetId, setPresetId] = useState<string>("");
  const [planLinkIds, setPlanLinkIds] = useState<number[]>([]);
  const {
    isPending,
    message,
    fieldErrors: errors,
    setMessage,
    fail,
    submit: run,
  } = useActionForm(scheduleFieldOf(fields.target));
  const preview = useTimingPreview(fields);
  const myZone = useSyncExternalStore(noSubscription, readBrowserZone, () => null);
  const zones = useSyncExternalStore(noSubscription, readKnownZones, () => NO_ZONES);
  const isNew = scheduleId === undefined;

  const change = (next: Partial<ScheduleFormFields>) => setFields((previous) => ({ ...previous, ...next }));
  const field = textBinder(fields, change, errors);
  const link = links.find((entry) => String(entry.id) === fields.linkId) ?? null;
  const ends = link ? [link.a, link.b] : [];
  const endNames = link ? { a: link.a.hostName, b: link.b.hostName } : { a: "A", b: "B" };
  // The timing's messages: the last save's, else the live preview's.
  const previewErrors = preview.state.preview && !preview.state.preview.ok ? preview.state.preview.fields : [];
  const timingError = (field: string) =>
    errors[field] ?? (preview.isStale ? undefined : previewErrors.find((entry) => entry.field === field)?.message);
  const testErrors = Object.fromEntries(
    Object.entries(errors).flatMap(([key, value]) =>
      key.startsWith("test.") ? [[`base.${key.slice(5)}`, value]] : [],
    ),
  );

  const preset = presetById(presetId);
  const planLinks = linksOf(planLinkIds, links);
  const presetReason = !preset
    ? "choose a preset"
    : !presetFitsLinks(preset, planLinks.length)
      ? preset.links === 1
        ? "choose one link"
        : "choose two links or more"
      : null;

  const submit = () => {
    const built = scheduleRequestBody(fields);
    if (!built.ok) {
      // The form's own check names the form's key: no placing.
      fail("Check the fields marked below.", [{ field: built.field, message: built.message }], asSent);
      setUnplaced([]);
      return;
    }
    run(() => saveScheduleAction({ scheduleId, schedule: built.body }), {
      onSuccess: (value) => {
        setUnplaced([]);
        onSaved?.();
        if (isNew) router.push(`/schedules/${value.id}`);
        else router.refresh();
      },
      onFailure: (result, byField) => {
        setUnplaced(
          Object.entries(byField).flatMap(([field, text]) =>
            PLACED_KEYS.has(field) ? [] : [{ field: field.replace(/^test\./, ""), message: text }],
          ),
        );
        if (result.errors.length) setMessage("Check the fields marked below.");
      },
    });
  };

  return (
    <form
      aria-label={isNew ? "New schedule" : "Edit schedule"}
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Section
        title="What to repeat"
        description="A link's test, or an experiment. Each start is an ordinary run (or experiment) in the link's history."
      >
        <TextField
          label="Name"
          className="max-w-md"
          maxLength={MAX_SCHEDULE_NAME_LENGTH}
          placeholder="nightly nas-10g"
          {...field("name")}
        />
        <ChoiceGroup
          legend="Target"
          choices={[
            { value: "test", label: "A link's test" },
            { value: "experiment", label: "An experiment" },
          ]}
          selected={[fields.target]}
          onChange={([target]) => change({ target: target! })}
          testId="schedule-target"
        />
        {fields.target === "test" ? (
          <>
            <SelectField
              label="Link"
              className="max-w-md"
              {...field("linkId")}
              error={errors.linkId ? fieldLabelled("linkId", errors.linkId) : undefined}
            >
              <option value="">Choose a link</option>
              {links.map((entry) => (
                <option key={entry.id} value={String(entry.id)}>
                  {linkLabel(entry)}
                </option>
              ))}
            </SelectField>
            <RunOptionFields
              fields={fields.test}
              onChange={(test) => change({ test })}
              hidden={new Set()}
              ends={ends}
              endNames={endNames}
              speedMbps={link?.speedMbps ?? null}
              errors={testErrors}
            />
            <CheckboxField
              label={LATENCY_OPTION_LABEL}
              hint="Each start pings from the client's host to the server, idle and then under the test's traffic."
              checked={fields.latency}
              onChange={(latency) => change({ latency })}
            />
          </>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Fill in from a preset"
                name="preset"
                value={presetId}
                onChange={(event) => setPresetId(event.target.value)}
                hint={preset?.description}
              >
                <option value="">Choose a preset</option>
                {EXPERIMENT_PRESETS.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.title}
                  </option>
                ))}
              </SelectField>
              <ChoiceGroup
                legend="On the links"
                multiple
                choices={links.map((entry) => ({ value: String(entry.id), label: linkLabel(entry) }))}
                selected={planLinkIds.map(String)}
                onChange={(ids) => setPlanLinkIds(ids.map(Number))}
                testId="plan-links"
              />
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button
                type="button"
                disabled={presetReason !== null}
                onClick={() => {
                  if (!preset) return;
                  change({ experimentPlan: JSON.stringify(presetRequestBody(preset, planLinks), null, 2) });
                }}
              >
                Fill in the request
              </Button>
              {presetReason ? (
                <span className="text-xs text-slate-600 dark:text-slate-400">To fill it in, {presetReason}.</span>
              ) : null}
            </div>
            <TextAreaField
              label="Experiment request (JSON)"
              isMonospace
              rows={10}
              spellCheck={false}
              {...field("experimentPlan")}
              hint="As POST /api/experiments takes it: kind, linkIds, options and the kind's fields. Fill it in from a preset above, or paste one."
              error={errors.experimentPlan ? fieldLabelled("experimentPlan", errors.experimentPlan) : undefined}
            />
          </>
        )}
      </Section>

      <Section
        title="When"
        description="Starts that find the link busy are skipped and recorded, never queued behind it."
      >
        <ChoiceGroup
          legend="Timing"
          choices={[
            { value: "every", label: "Every N minutes" },
            { value: "cron", label: "On a cron expression" },
          ]}
          selected={[fields.timingMode]}
          onChange={([timingMode]) => change({ timingMode: timingMode! })}
          testId="timing-mode"
        />
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="grid content-start gap-4 sm:grid-cols-2">
            {fields.timingMode === "every" ? (
              <TextField
                label="Every (minutes)"
                inputMode="numeric"
                {...field("everyMinutes")}
                hint={`1 to ${MAX_EVERY_MINUTES.toLocaleString("en")} (a week)`}
                error={timingError("everyMinutes")}
              />
            ) : (
              <TextField
                label="Cron expression"
                className="font-mono"
                spellCheck={false}
                autoComplete="off"
                {...field("cron")}
                hint="5 fields (minute hour day month weekday), or 6 with seconds first: 0 3 * * * is 03:00 every day"
                error={timingError("cron") ? fieldLabelled("cron", timingError("cron")!) : undefined}
              />
            )}
            <div>
              <TextField
                label="Time zone"
                list="schedule-time-zones"
                spellCheck={false}
                autoComplete="off"
                {...field("timezone")}
                hint={
                  fields.timingMode === "cron"
                    ? "IANA name, such as Europe/Paris: the cron's hours are in it"
                    : "IANA name: the preview shows times in it"
                }
                error={timingError("timezone")}
              />
              <datalist id="schedule-time-zones">
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              {myZone && myZone !== fields.timezone ? (
                <button
                  type="button"
                  className="mt-1 text-xs font-medium text-sky-800 underline dark:text-sky-300"
                  onClick={() => change({ timezone: myZone })}
                >
                  Use mine: {myZone}
                </button>
              ) : null}
            </div>
            <TextField
              label="Slip (seconds)"
              inputMode="numeric"
              hint={
                `Each start at a random delay of 0 to this many seconds (at most ${MAX_SLIP_SECONDS.toLocaleString("en")}), ` +
                "so schedules that share a time do not all start at once"
              }
              {...field("slipSeconds")}
            />
            <GridCheckbox
              label="Enabled"
              hint="Paused, it keeps its history and starts nothing."
              name="enabled"
              checked={fields.enabled}
              onChange={(enabled) => change({ enabled })}
            />
          </div>
          <TimingPreview state={preview.state} isStale={preview.isStale} fields={fields} />
        </div>
      </Section>

      <Section title="Save">
        {message ? (
          <Notice tone="error" title={message}>
            {unplaced.length ? (
              <ul className="list-disc pl-5">
                {unplaced.map((error) => (
                  <li key={`${error.field} ${error.message}`}>
                    {error.field}: {error.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Notice>
        ) : null}
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Saving…">
          {isNew ? "Create schedule" : "Save changes"}
        </Button>
      </Section>
    </form>
  );
}
