import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { insertLocalLink } from "@/testing/local-links";
import { AppError } from "@/lib/errors";
import { createSchedule, getSchedule, updateSchedule } from "@/lib/schedules/store";
import { presetById, presetRequestBody, STREAM_SWEEP_PRESET_ID } from "@/lib/experiments/presets";
import { fieldErrorsByKey } from "@/components/forms/use-action-form";

// The schedule form's fields against the real store on a real SQLite file: what the form sends
// is what lib/schedules accepts, a stored schedule read back into the form saves unchanged, and
// each message the store answers lands on the field the form shows it by.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.
const { formFieldsOf, parsePlanText, SCHEDULE_FORM_DEFAULTS, scheduleFieldOf, scheduleRequestBody, timingBody } =
  await import("./fields");
const scheduleFormErrorsOf = (errors: { field: string; message: string }[], target: "test" | "experiment") =>
  fieldErrorsByKey(errors, scheduleFieldOf(target));
type Fields = import("./fields").ScheduleFormFields;

let linkId = 0;

beforeAll(async () => {
  linkId = await insertLocalLink(db, { hosts: ["a", "b"], subnet: 0, name: "nas-1g", speedMbps: 1_000 });
});

afterAll(() => database.close());

function bodyOf(fields: Fields): Record<string, unknown> {
  const built = scheduleRequestBody(fields);
  if (!built.ok) throw new Error(`the form refused its own fields: ${built.field} ${built.message}`);
  return built.body;
}

async function refusal(work: Promise<unknown>): Promise<{ field: string; message: string }[]> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError) || error.kind !== "invalid") throw new Error(`expected a 400, got ${String(error)}`);
  return error.fields;
}

describe("a link's test", () => {
  it("is stored with the options typed, the direction and client side beside them, and reads back into the same fields", async () => {
    const fields: Fields = {
      ...SCHEDULE_FORM_DEFAULTS,
      name: "udp nightly",
      linkId: String(linkId),
      test: {
        ...SCHEDULE_FORM_DEFAULTS.test,
        protocol: "udp",
        parallel: "4",
        duration: "5",
        bitrateMbps: "500",
        direction: "b-to-a",
        clientSide: "b",
      },
      timingMode: "cron",
      cron: "30 2 * * *",
      timezone: "Europe/Paris",
      slipSeconds: "90",
    };
    const created = await createSchedule(bodyOf(fields));
    expect(created).toMatchObject({
      kind: "test",
      linkId,
      direction: "b-to-a",
      clientSide: "b",
      cron: "30 2 * * *",
      everyMinutes: null,
      timezone: "Europe/Paris",
      slipSeconds: 90,
      enabled: true,
    });
    expect(created.options).toMatchObject({ protocol: "udp", parallel: 4, duration: 5, bitrate: 500_000_000 });

    const again = formFieldsOf(created);
    expect(again).toMatchObject({
      name: "udp nightly",
      target: "test",
      linkId: String(linkId),
      timingMode: "cron",
      cron: "30 2 * * *",
      timezone: "Europe/Paris",
      slipSeconds: "90",
      enabled: true,
    });
    expect(again.test).toMatchObject({
      protocol: "udp",
      parallel: "4",
      duration: "5",
      bitrateMbps: "500",
      direction: "b-to-a",
      clientSide: "b",
    });
    // Saved as read back, nothing changes: the edit form does not drift the schedule.
    const saved = await updateSchedule(created.id, bodyOf(again));
    expect(saved.options).toEqual(created.options);
    expect(saved.nextRunAt).toBe(created.nextRunAt);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "schedule.update", targetId: created.id } });
    expect(audit.detail).toBe('"udp nightly": no change');
  });

  it("keeps latency under load asked, through the store and back into the form", async () => {
    const created = await createSchedule(
      bodyOf({ ...SCHEDULE_FORM_DEFAULTS, name: "bloat check", linkId: String(linkId), latency: true }),
    );
    expect(created.options).toMatchObject({ latency: true });
    const again = formFieldsOf(created);
    expect(again.latency).toBe(true);
    const saved = await updateSchedule(created.id, bodyOf(again));
    expect(saved.options).toEqual(created.options);
    const unchecked = await updateSchedule(created.id, bodyOf({ ...again, latency: false }));
    expect(unchecked.options).not.toHaveProperty("latency");
    expect(formFieldsOf(unchecked).latency).toBe(false);
  });

  it("switches from a cron to every N minutes, the other side cleared", async () => {
    const created = await createSchedule(
      bodyOf({
        ...SCHEDULE_FORM_DEFAULTS,
        name: "hourly",
        linkId: String(linkId),
        timingMode: "cron",
        cron: "0 * * * *",
      }),
    );
    const changed = await updateSchedule(
      created.id,
      bodyOf({ ...formFieldsOf(created), timingMode: "every", everyMinutes: "15" }),
    );
    expect(changed).toMatchObject({ cron: null, everyMinutes: 15 });
    expect(formFieldsOf(changed)).toMatchObject({ timingMode: "every", everyMinutes: "15" });
  });

  it("places each of the store's messages by the field that shows it", async () => {
    const fields: Fields = {
      ...SCHEDULE_FORM_DEFAULTS,
      name: "",
      linkId: String(linkId),
      test: { ...SCHEDULE_FORM_DEFAULTS.test, parallel: "0", duration: "soon" },
      timingMode: "cron",
      cron: "61 * * * *",
      timezone: "Mars/Olympus",
      slipSeconds: "-1",
    };
    const errors = await refusal(createSchedule(bodyOf(fields)));
    const byField = scheduleFormErrorsOf(errors, "test");
    expect(Object.keys(byField).sort()).toEqual(["name", "slipSeconds"].sort());
    // The schema refuses name and slip first; with those right, the timing and options are checked.
    const second = scheduleFormErrorsOf(
      await refusal(createSchedule(bodyOf({ ...fields, name: "bad", slipSeconds: "0" }))),
      "test",
    );
    expect(Object.keys(second).sort()).toEqual(["test.duration", "test.parallel", "timezone"].sort());
    expect(second["test.parallel"]).toMatch(/1/);
    const third = scheduleFormErrorsOf(
      await refusal(
        createSchedule(
          bodyOf({ ...fields, name: "bad", slipSeconds: "0", timezone: "UTC", test: SCHEDULE_FORM_DEFAULTS.test }),
        ),
      ),
      "test",
    );
    expect(Object.keys(third)).toEqual(["cron"]);
  });

  it("names the link when none is chosen", async () => {
    const byField = scheduleFormErrorsOf(
      await refusal(createSchedule(bodyOf({ ...SCHEDULE_FORM_DEFAULTS, name: "no link" }))),
      "test",
    );
    expect(Object.keys(byField)).toEqual(["linkId"]);
  });
});

describe("an experiment", () => {
  it("stores a preset's request filled into the JSON field, and reads it back as the same JSON", async () => {
    const preset = presetById(STREAM_SWEEP_PRESET_ID)!;
    const plan = JSON.stringify(presetRequestBody(preset, [{ id: linkId, speedMbps: 1_000 }]), null, 2);
    const created = await createSchedule(
      bodyOf({
        ...SCHEDULE_FORM_DEFAULTS,
        name: "weekly sweep",
        target: "experiment",
        experimentPlan: plan,
        everyMinutes: "10080",
      }),
    );
    expect(created).toMatchObject({
      kind: "experiment",
      linkId: null,
      experimentPlan: { kind: "sweep", linkIds: [linkId] },
    });
    const again = formFieldsOf(created);
    expect(again.target).toBe("experiment");
    expect(JSON.parse(again.experimentPlan)).toEqual(created.experimentPlan);
    const stored = await getSchedule(created.id);
    expect((await updateSchedule(created.id, bodyOf(again))).experimentPlan).toEqual(stored!.experimentPlan);
  });

  it("puts the plan's own field errors on the JSON field, with their path", async () => {
    const plan = JSON.stringify({ kind: "sweep", linkIds: [linkId], factor: "parallel", values: [] });
    const byField = scheduleFormErrorsOf(
      await refusal(
        createSchedule(
          bodyOf({ ...SCHEDULE_FORM_DEFAULTS, name: "empty sweep", target: "experiment", experimentPlan: plan }),
        ),
      ),
      "experiment",
    );
    expect(Object.keys(byField)).toEqual(["experimentPlan"]);
    expect(byField.experimentPlan).toMatch(/^values: /);
  });

  it("refuses JSON that does not parse before asking the server", () => {
    expect(
      scheduleRequestBody({ ...SCHEDULE_FORM_DEFAULTS, target: "experiment", experimentPlan: "{ kind: sweep" }),
    ).toEqual({ ok: false, field: "experimentPlan", message: expect.stringMatching(/^is not valid JSON/) });
    expect(parsePlanText("[1, 2]")).toEqual({ ok: false, message: expect.stringMatching(/^must be a JSON object/) });
    expect(parsePlanText("  ")).toEqual({ ok: false, message: expect.stringMatching(/^is required/) });
  });
});

describe("the timing the preview asks about", () => {
  it("is the cron or the minutes, never both, in UTC when no zone is typed", () => {
    expect(timingBody({ timingMode: "cron", cron: " 0 3 * * * ", everyMinutes: "15", timezone: "" })).toEqual({
      cron: "0 3 * * *",
      everyMinutes: null,
      timezone: "UTC",
    });
    expect(
      timingBody({ timingMode: "every", cron: "0 3 * * *", everyMinutes: "15", timezone: "Europe/Paris" }),
    ).toEqual({ cron: null, everyMinutes: 15, timezone: "Europe/Paris" });
    // Text that is no number goes as typed, for the server to name what is allowed.
    expect(timingBody({ timingMode: "every", cron: "", everyMinutes: "often", timezone: "UTC" }).everyMinutes).toBe(
      "often",
    );
  });
});
