import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { describeScheduleRun, describeTiming, ScheduleInputSchema } from "./contract";
import { nextDueAt, nextStarts, parseTiming, previewStarts } from "./timing";

// A schedule's timing: croner's cron expressions in a time zone (DST included), every N
// minutes from an anchor, the slip, the form's preview and the 400s that name the field.

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());
const cron = (expression: string, timezone = "UTC") => parseTiming({ cron: expression, everyMinutes: null, timezone });

function fieldsOf(work: () => unknown): { field: string; message: string }[] {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError && error.kind === "invalid") return error.fields;
    throw error;
  }
  throw new Error("expected a 400");
}

describe("cron timing", () => {
  it("steps a 5-field expression, each start strictly after the last", () => {
    const timing = cron("0 3 * * *");
    expect(iso(nextStarts(timing, new Date("2026-01-01T12:00:00Z"), 3))).toEqual([
      "2026-01-02T03:00:00.000Z",
      "2026-01-03T03:00:00.000Z",
      "2026-01-04T03:00:00.000Z",
    ]);
    // A start exactly at `after` is not "next": the scheduler asks from the due time it just handled.
    expect(iso(nextStarts(timing, new Date("2026-01-02T03:00:00Z"), 1))).toEqual(["2026-01-03T03:00:00.000Z"]);
  });

  it("reads 6 fields with the seconds first", () => {
    expect(iso(nextStarts(cron("*/20 * * * * *"), new Date("2026-01-01T12:00:05Z"), 3))).toEqual([
      "2026-01-01T12:00:20.000Z",
      "2026-01-01T12:00:40.000Z",
      "2026-01-01T12:01:00.000Z",
    ]);
  });

  it("starts at the wall-clock time of its zone, winter and summer", () => {
    const timing = cron("0 3 * * *", "Europe/Paris");
    expect(iso(nextStarts(timing, new Date("2026-01-10T00:00:00Z"), 1))).toEqual(["2026-01-10T02:00:00.000Z"]);
    expect(iso(nextStarts(timing, new Date("2026-07-10T00:00:00Z"), 1))).toEqual(["2026-07-10T01:00:00.000Z"]);
    expect(iso(nextStarts(cron("0 3 * * *", "America/New_York"), new Date("2026-01-10T00:00:00Z"), 1))).toEqual([
      "2026-01-10T08:00:00.000Z",
    ]);
  });

  it("keeps once a day across Paris's DST changes: 23 h apart in March, 25 h in October", () => {
    const daily = cron("0 3 * * *", "Europe/Paris");
    const spring = nextStarts(daily, new Date("2026-03-28T00:00:00Z"), 3);
    expect(iso(spring)).toEqual(["2026-03-28T02:00:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T01:00:00.000Z"]);
    expect(spring[1]!.getTime() - spring[0]!.getTime()).toBe(23 * 3_600_000);
    const autumn = nextStarts(daily, new Date("2026-10-24T00:00:00Z"), 3);
    expect(autumn[1]!.getTime() - autumn[0]!.getTime()).toBe(25 * 3_600_000);
    // 02:30 does not exist on 29 March (02:00 → 03:00) and happens twice on 25 October: one start each day all the same.
    const skipped = nextStarts(cron("30 2 * * *", "Europe/Paris"), new Date("2026-03-28T00:00:00Z"), 3);
    expect(skipped.filter((start) => start.toISOString().startsWith("2026-03-29"))).toHaveLength(1);
    const twice = nextStarts(cron("30 2 * * *", "Europe/Paris"), new Date("2026-10-24T12:00:00Z"), 2);
    expect(iso(twice)).toEqual(["2026-10-25T01:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("spells the zone as IANA does", () => {
    expect(cron("0 3 * * *", "europe/paris").timezone).toBe("Europe/Paris");
  });
});

describe("every N minutes", () => {
  it("counts from its anchor, so the grid survives a restart", () => {
    const timing = parseTiming({ cron: null, everyMinutes: 15, timezone: "UTC" });
    const anchor = new Date("2026-01-01T10:00:00Z");
    expect(iso(nextStarts(timing, new Date("2026-01-01T10:31:10Z"), 3, anchor))).toEqual([
      "2026-01-01T10:45:00.000Z",
      "2026-01-01T11:00:00.000Z",
      "2026-01-01T11:15:00.000Z",
    ]);
    expect(iso(nextStarts(timing, new Date("2026-01-01T10:45:00Z"), 1, anchor))).toEqual(["2026-01-01T11:00:00.000Z"]);
    // Without an anchor (the form's preview): from now on.
    expect(iso(nextStarts(timing, new Date("2026-01-01T10:31:10Z"), 2))).toEqual([
      "2026-01-01T10:46:10.000Z",
      "2026-01-01T11:01:10.000Z",
    ]);
  });

  it("slips each due time by 0..slipSeconds", () => {
    const timing = parseTiming({ cron: null, everyMinutes: 10, timezone: "UTC" });
    const now = new Date("2026-01-01T10:00:00Z");
    expect(nextDueAt(timing, now, now, 60, () => 0)!.toISOString()).toBe("2026-01-01T10:10:00.000Z");
    expect(nextDueAt(timing, now, now, 60, () => 0.5)!.toISOString()).toBe("2026-01-01T10:10:30.000Z");
    expect(nextDueAt(timing, now, now, 60, () => 0.999_999_9)!.toISOString()).toBe("2026-01-01T10:11:00.000Z");
    expect(nextDueAt(timing, now, now, 0, () => 0.9)!.toISOString()).toBe("2026-01-01T10:10:00.000Z");
  });
});

describe("a timing that is wrong", () => {
  it("names cron with croner's reason and the fields allowed", () => {
    for (const expression of ["61 * * * *", "bad", "* * *", "* * * * * * *", "*/0 * * * *"]) {
      const fields = fieldsOf(() => cron(expression));
      expect(fields, expression).toEqual([
        {
          field: "cron",
          message: expect.stringMatching(
            /^is not a valid cron expression \(.+\): use 5 fields .*, or 6 with seconds first$/,
          ),
        },
      ]);
    }
    expect(fieldsOf(() => cron("61 * * * *"))[0]!.message).toContain("invalid value for minute: 61");
    // croner would take a date for a one-off start: not a schedule.
    expect(fieldsOf(() => cron("2026-01-01T00:00:00"))).toEqual([
      { field: "cron", message: expect.stringMatching(/^is not a cron expression/) },
    ]);
    expect(fieldsOf(() => cron("0 0 30 2 *"))).toEqual([
      { field: "cron", message: expect.stringMatching(/^never matches a date/) },
    ]);
  });

  it("names the time zone when it is unknown, and only the time zone", () => {
    for (const timezone of ["Mars/Olympus", "+01:00", "CEST-ish"]) {
      expect(fieldsOf(() => cron("0 3 * * *", timezone))).toEqual([
        { field: "timezone", message: "unknown time zone; use an IANA name such as Europe/Paris" },
      ]);
    }
  });

  it("wants exactly one of cron and everyMinutes, and everyMinutes within a week", () => {
    const oneOf = [{ field: "cron", message: "or everyMinutes: give exactly one" }];
    expect(fieldsOf(() => parseTiming({ cron: "0 3 * * *", everyMinutes: 15, timezone: "UTC" }))).toEqual(oneOf);
    expect(fieldsOf(() => parseTiming({ cron: null, everyMinutes: null, timezone: "UTC" }))).toEqual(oneOf);
    expect(fieldsOf(() => parseTiming({ cron: "  ", everyMinutes: null, timezone: "UTC" }))).toEqual(oneOf);
    for (const everyMinutes of [0, 10_081, 1.5]) {
      expect(fieldsOf(() => parseTiming({ cron: null, everyMinutes, timezone: "UTC" }))).toEqual([
        { field: "everyMinutes", message: "must be a whole number of minutes from 1 to 10080" },
      ]);
    }
  });
});

describe("the form's preview", () => {
  const now = new Date("2026-03-27T12:00:00Z");

  it("gives the next 5 starts of a cron expression in its zone", () => {
    expect(previewStarts({ name: "nightly", cron: "0 3 * * *", timezone: "Europe/Paris" }, now)).toEqual({
      ok: true,
      starts: [
        "2026-03-28T02:00:00.000Z",
        "2026-03-29T01:00:00.000Z",
        "2026-03-30T01:00:00.000Z",
        "2026-03-31T01:00:00.000Z",
        "2026-04-01T01:00:00.000Z",
      ],
    });
  });

  it("counts every N minutes from now, in UTC when no zone is given", () => {
    const preview = previewStarts({ everyMinutes: 30, cron: "" }, now);
    expect(preview).toEqual({
      ok: true,
      starts: [
        "2026-03-27T12:30:00.000Z",
        "2026-03-27T13:00:00.000Z",
        "2026-03-27T13:30:00.000Z",
        "2026-03-27T14:00:00.000Z",
        "2026-03-27T14:30:00.000Z",
      ],
    });
  });

  it("answers the field errors instead of throwing", () => {
    expect(previewStarts({ cron: "0 25 * * *", timezone: "Europe/Paris" }, now)).toEqual({
      ok: false,
      fields: [{ field: "cron", message: expect.stringContaining("invalid value for hour") }],
    });
    expect(previewStarts({ cron: "0 3 * * *", timezone: "Nowhere/Land" }, now)).toEqual({
      ok: false,
      fields: [{ field: "timezone", message: expect.stringContaining("unknown time zone") }],
    });
    expect(previewStarts({}, now)).toEqual({
      ok: false,
      fields: [{ field: "cron", message: "or everyMinutes: give exactly one" }],
    });
    expect(previewStarts({ everyMinutes: "15" }, now)).toEqual({
      ok: false,
      fields: [{ field: "everyMinutes", message: expect.stringContaining("whole number") }],
    });
  });
});

describe("the contract", () => {
  it("describes a timing in words", () => {
    expect(describeTiming({ cron: null, everyMinutes: 15, timezone: "UTC", slipSeconds: 0 })).toBe("every 15 minutes");
    expect(describeTiming({ cron: null, everyMinutes: 1, timezone: "UTC" })).toBe("every minute");
    expect(describeTiming({ cron: "0 3 * * *", everyMinutes: null, timezone: "Europe/Paris", slipSeconds: 60 })).toBe(
      "cron 0 3 * * * (Europe/Paris), slip up to 60 s",
    );
    expect(describeScheduleRun({ outcome: "skipped", reason: "link busy: run 12 is running", catchUp: false })).toBe(
      "skipped: link busy: run 12 is running",
    );
    expect(describeScheduleRun({ outcome: "started", reason: null, catchUp: true })).toBe(
      "started (catch-up after a restart)",
    );
  });

  it("fills the defaults and wants one target and one timing", () => {
    expect(ScheduleInputSchema.parse({ name: " nightly ", linkId: 3, everyMinutes: 15 })).toEqual({
      name: "nightly",
      linkId: 3,
      experimentPlan: null,
      options: {},
      direction: "a-to-b",
      clientSide: "a",
      cron: null,
      everyMinutes: 15,
      timezone: "UTC",
      slipSeconds: 0,
      enabled: true,
    });
    const refused = ScheduleInputSchema.safeParse({
      name: "x",
      linkId: 3,
      experimentPlan: { kind: "sweep" },
      slipSeconds: 3601,
    });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["slipSeconds", "must be a whole number of seconds from 0 to 3600"],
      ["linkId", "or experimentPlan: give exactly one"],
      ["cron", "or everyMinutes: give exactly one"],
    ]);
  });
});
