import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLocalLinks } from "@/testing/local-links";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { AppError } from "@/lib/errors";

// Schedules in a real SQLite file: validation that names each field, the first due time with
// its slip, pause and resume, PATCH merging, the JSON with the last starts, and the lists by link.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.
const { createSchedule, deleteSchedule, getSchedule, listSchedules, schedulesByLink, updateSchedule } =
  await import("./store");

let linkIds: number[] = [];

async function fieldsOf(work: Promise<unknown>): Promise<{ field: string; message: string }[]> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError) || error.kind !== "invalid") throw new Error(`expected a 400, got ${String(error)}`);
  return error.fields;
}

const sweep = (linkId: number) => ({
  kind: "sweep",
  linkIds: [linkId],
  options: { duration: 5 },
  factor: "parallel",
  values: [1, 2],
});

beforeAll(async () => {
  linkIds = await seedLocalLinks(db, 2, { speedMbps: 1_000 });
});

afterAll(() => database.close());

describe("creating a schedule", () => {
  it("records a link's test with its options as a run request has them, and its first start after now", async () => {
    const before = Date.now();
    const schedule = await createSchedule({
      name: "every quarter",
      linkId: linkIds[0],
      options: { parallel: 4, duration: 5 },
      direction: "b-to-a",
      everyMinutes: 15,
    });
    const after = Date.now();
    expect(schedule).toMatchObject({
      name: "every quarter",
      kind: "test",
      link: { id: linkIds[0], name: "link0" },
      direction: "b-to-a",
      clientSide: "a",
      everyMinutes: 15,
      cron: null,
      timezone: "UTC",
      slipSeconds: 0,
      enabled: true,
      lastRun: null,
      lastRuns: [],
    });
    // Defaults filled as the engine would, and the direction kept beside the options rather than as -R.
    expect(schedule.options).toMatchObject({ parallel: 4, duration: 5, protocol: "tcp" });
    expect(schedule.options).not.toHaveProperty("reverse");
    const nextRunAt = Date.parse(schedule.nextRunAt!);
    expect(nextRunAt).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(nextRunAt).toBeLessThanOrEqual(after + 15 * 60_000);
    expect(schedule.nextRuns).toHaveLength(5);
    expect(Date.parse(schedule.nextRuns[1]!) - Date.parse(schedule.nextRuns[0]!)).toBe(15 * 60_000);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "schedule.create", targetId: schedule.id } });
    expect(audit.detail).toBe('"every quarter": test on link0, every 15 minutes');
  });

  it("slips the first start by up to slipSeconds past the cron's next start", async () => {
    const dues: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const schedule = await createSchedule({
        name: `nightly ${index}`,
        linkId: linkIds[1],
        cron: "0 3 * * *",
        timezone: "europe/paris",
        slipSeconds: 600,
      });
      expect(schedule.timezone).toBe("Europe/Paris");
      const start = Date.parse(schedule.nextRuns[0]!);
      const due = Date.parse(schedule.nextRunAt!);
      expect(due - start).toBeGreaterThanOrEqual(0);
      expect(due - start).toBeLessThanOrEqual(600_000);
      dues.push(due - start);
    }
    // Random: five schedules of one time do not all start at once.
    expect(new Set(dues).size).toBeGreaterThan(1);
  });

  it("records an experiment plan as it will be started, on its links", async () => {
    const schedule = await createSchedule({
      name: "weekly sweep",
      experimentPlan: sweep(linkIds[1]!),
      cron: "0 4 * * 0",
    });
    expect(schedule).toMatchObject({
      kind: "experiment",
      linkId: null,
      link: null,
      options: {},
      experimentPlan: { kind: "sweep", linkIds: [linkIds[1]], values: [1, 2], repeats: expect.any(Number) },
    });
  });

  it("records a mesh of hosts as asked, and refuses hosts that one link joins, naming hostIds", async () => {
    const hosts = await db.host.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } });
    const schedule = await createSchedule({
      name: "the lab nightly",
      experimentPlan: { kind: "mesh", hostIds: hosts.map((host) => host.id) },
      cron: "0 3 * * *",
    });
    expect(schedule.experimentPlan).toMatchObject({
      kind: "mesh",
      name: "The whole lab",
      linkIds: [],
      hostIds: hosts.map((host) => host.id),
    });
    expect(
      await fieldsOf(
        createSchedule({
          name: "one pair",
          experimentPlan: { kind: "mesh", hostIds: [hosts[0]!.id, hosts[1]!.id] },
          cron: "0 3 * * *",
        }),
      ),
    ).toEqual([
      {
        field: "experimentPlan.hostIds",
        message: `the hosts ${hosts[0]!.name} and ${hosts[1]!.name} are joined by one link; a mesh needs at least 2`,
      },
    ]);
  });

  it("refuses a bad schedule with one 400 naming every field, and records nothing", async () => {
    const count = await db.schedule.count();
    const cases: Array<[Record<string, unknown>, Array<{ field: string; message?: unknown }>]> = [
      [{ name: "x", everyMinutes: 5 }, [{ field: "linkId", message: "or experimentPlan: give exactly one" }]],
      [{ name: "x", linkId: linkIds[0], experimentPlan: sweep(linkIds[0]!), everyMinutes: 5 }, [{ field: "linkId" }]],
      [{ name: "x", linkId: linkIds[0] }, [{ field: "cron", message: "or everyMinutes: give exactly one" }]],
      [{ name: "x", linkId: 9999, everyMinutes: 5 }, [{ field: "linkId", message: "link 9999 does not exist" }]],
      [{ name: "x", linkId: linkIds[0], everyMinutes: 5, options: { parallel: 0 } }, [{ field: "parallel" }]],
      [{ name: "x", linkId: linkIds[0], everyMinutes: 5, options: { reverse: true } }, [{ field: "reverse" }]],
      [
        { name: "x", linkId: linkIds[0], everyMinutes: 5, options: { direction: "bidir" } },
        [{ field: "options.direction" }],
      ],
      // The timing and the target are both checked: one answer names both.
      [
        { name: "x", linkId: 9999, cron: "0 24 * * *", timezone: "Mars/Olympus" },
        [
          { field: "timezone", message: "unknown time zone; use an IANA name such as Europe/Paris" },
          { field: "linkId" },
        ],
      ],
      [
        { name: "x", linkId: linkIds[0], cron: "0 24 * * *" },
        [{ field: "cron", message: expect.stringContaining("5 fields") }],
      ],
      [
        { name: "x", experimentPlan: { ...sweep(linkIds[0]!), values: [] }, everyMinutes: 60 },
        [{ field: "experimentPlan.values" }],
      ],
      [
        { name: "x", experimentPlan: sweep(9999), everyMinutes: 60 },
        [{ field: "experimentPlan.linkIds[0]", message: "link 9999 does not exist" }],
      ],
      [
        { name: "x", experimentPlan: { kind: "mesh", linkIds: [linkIds[0]] }, everyMinutes: 60 },
        [{ field: "experimentPlan.linkIds", message: expect.stringContaining("a mesh measures 2 to 64 links") }],
      ],
      [
        { name: "x", experimentPlan: { kind: "mesh", hostIds: [9998, 9999] }, everyMinutes: 60 },
        [
          { field: "experimentPlan.hostIds[0]", message: "host 9998 does not exist" },
          { field: "experimentPlan.hostIds[1]" },
        ],
      ],
      [{ name: "", linkId: linkIds[0], everyMinutes: 0 }, [{ field: "name" }, { field: "everyMinutes" }]],
      [
        { name: "x", linkId: linkIds[0], everyMinutes: 5, slipSeconds: -1, bogus: 1 },
        [{ field: "slipSeconds" }, { field: "bogus", message: "is not a known field here" }],
      ],
    ];
    for (const [body, fields] of cases) {
      expect(await fieldsOf(createSchedule(body)), JSON.stringify(body)).toEqual(
        fields.map((field) => expect.objectContaining(field)),
      );
    }
    expect(await fieldsOf(createSchedule([]))).toEqual([{ field: "body", message: "must be a JSON object" }]);
    expect(await db.schedule.count()).toBe(count);
  });
});

describe("changing a schedule", () => {
  it("pauses (no next start), resumes (a next start afresh) and keeps the due time when only the name changes", async () => {
    const created = await createSchedule({
      name: "to pause",
      linkId: linkIds[0],
      cron: "*/5 * * * *",
      slipSeconds: 30,
    });
    const paused = await updateSchedule(created.id, { enabled: false });
    expect(paused).toMatchObject({ enabled: false, nextRunAt: null, nextRuns: [] });
    expect((await db.schedule.findUniqueOrThrow({ where: { id: created.id } })).nextRunAt).toBeNull();
    const renamed = await updateSchedule(created.id, { name: "renamed while paused" });
    expect(renamed).toMatchObject({ name: "renamed while paused", enabled: false, nextRunAt: null });
    const resumed = await updateSchedule(created.id, { enabled: true });
    expect(resumed.nextRunAt).not.toBeNull();
    const slip = Date.parse(resumed.nextRunAt!) - Date.parse(resumed.nextRuns[0]!);
    expect(slip).toBeGreaterThanOrEqual(0);
    expect(slip).toBeLessThanOrEqual(30_000);
    const renamedAgain = await updateSchedule(created.id, { name: "resumed" });
    expect(renamedAgain.nextRunAt).toBe(resumed.nextRunAt);
    const audit = await db.auditEvent.findMany({
      where: { action: "schedule.update", targetId: created.id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((event) => event.detail)).toEqual([
      '"to pause": changed enabled, paused',
      '"renamed while paused": changed name, paused',
      '"renamed while paused": changed enabled',
      '"resumed": changed name',
    ]);
  });

  it("switches cron to every N minutes with one field, and a test to an experiment", async () => {
    const created = await createSchedule({
      name: "switch",
      linkId: linkIds[0],
      cron: "0 3 * * *",
      options: { parallel: 2 },
    });
    const every = await updateSchedule(created.id, { everyMinutes: 30 });
    expect(every).toMatchObject({ cron: null, everyMinutes: 30 });
    // A new timing sets the due time afresh: within the next 30 minutes (counted from when it was made).
    expect(Date.parse(every.nextRunAt!)).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    const experiment = await updateSchedule(created.id, { experimentPlan: sweep(linkIds[0]!) });
    expect(experiment).toMatchObject({
      kind: "experiment",
      linkId: null,
      options: {},
      experimentPlan: { kind: "sweep" },
    });
    const back = await updateSchedule(created.id, { linkId: linkIds[1], options: { parallel: 3 } });
    expect(back).toMatchObject({ kind: "test", linkId: linkIds[1], experimentPlan: null, options: { parallel: 3 } });
  });

  it("validates the whole after the merge, and changes nothing when it fails", async () => {
    const created = await createSchedule({ name: "strict", linkId: linkIds[0], everyMinutes: 10 });
    expect(await fieldsOf(updateSchedule(created.id, { cron: "0 3 * * *", everyMinutes: 10 }))).toEqual([
      { field: "cron", message: "or everyMinutes: give exactly one" },
    ]);
    expect(await fieldsOf(updateSchedule(created.id, { timezone: "Atlantis/Capital" }))).toEqual([
      { field: "timezone", message: expect.stringContaining("unknown time zone") },
    ]);
    expect(await fieldsOf(updateSchedule(created.id, { options: { parallel: 1000 } }))).toEqual([
      expect.objectContaining({ field: "parallel" }),
    ]);
    expect(await fieldsOf(updateSchedule(created.id, "nope"))).toEqual([
      { field: "body", message: "must be a JSON object" },
    ]);
    expect(await getSchedule(created.id)).toMatchObject({
      everyMinutes: 10,
      timezone: "UTC",
      options: { parallel: 1 },
    });
    await expect(updateSchedule(424242, { name: "x" })).rejects.toMatchObject({
      kind: "not-found",
      message: "Schedule 424242 does not exist.",
    });
  });
});

describe("reading schedules", () => {
  it("lists a link's schedules, those of experiment plans that use it included, with each one's last start", async () => {
    await db.schedule.deleteMany();
    const test = await createSchedule({ name: "test on 0", linkId: linkIds[0], everyMinutes: 60 });
    const plan = await createSchedule({ name: "plan on 1", experimentPlan: sweep(linkIds[1]!), everyMinutes: 60 });
    const run = await db.run.create({
      data: { linkId: linkIds[0]!, status: "succeeded", options: { protocol: "tcp" }, receivedBitsPerSecond: 940e6 },
    });
    await db.scheduleRun.create({
      data: {
        scheduleId: test.id,
        dueAt: new Date("2026-01-01T10:00:00Z"),
        at: new Date("2026-01-01T10:00:01Z"),
        outcome: "skipped",
        reason: "link busy: run 1 is running",
      },
    });
    await db.scheduleRun.create({
      data: {
        scheduleId: test.id,
        dueAt: new Date("2026-01-01T11:00:00Z"),
        at: new Date("2026-01-01T11:00:01Z"),
        outcome: "started",
        runId: run.id,
      },
    });

    expect((await listSchedules()).map((schedule) => schedule.name)).toEqual(["test on 0", "plan on 1"]);
    expect((await listSchedules({ linkId: linkIds[0] })).map((schedule) => schedule.name)).toEqual(["test on 0"]);
    expect((await listSchedules({ linkId: linkIds[1] })).map((schedule) => schedule.name)).toEqual(["plan on 1"]);
    const [listed] = await listSchedules({ linkId: linkIds[0] });
    expect(listed!.lastRun).toEqual({
      id: expect.any(Number),
      dueAt: "2026-01-01T11:00:00.000Z",
      at: "2026-01-01T11:00:01.000Z",
      outcome: "started",
      reason: null,
      catchUp: false,
      runId: run.id,
      experimentId: null,
      status: "succeeded",
      receivedBitsPerSecond: 940e6,
      lineRatePercent: 94,
    });
    const byLink = await schedulesByLink([linkIds[0]!, linkIds[1]!, 9999]);
    expect([...byLink.entries()].map(([id, schedules]) => [id, schedules.map((schedule) => schedule.id)])).toEqual([
      [linkIds[0], [test.id]],
      [linkIds[1], [plan.id]],
      [9999, []],
    ]);
    const detail = await getSchedule(test.id);
    expect(detail!.lastRuns.map((entry) => [entry.outcome, entry.reason])).toEqual([
      ["started", null],
      ["skipped", "link busy: run 1 is running"],
    ]);
  });

  it("deletes a schedule and its history, keeping the runs it started", async () => {
    const [schedule] = await listSchedules({ linkId: linkIds[0] });
    const runIds = (await db.scheduleRun.findMany({ where: { scheduleId: schedule!.id } }))
      .map((entry) => entry.runId)
      .filter((id) => id !== null);
    await deleteSchedule(schedule!.id);
    expect(await getSchedule(schedule!.id)).toBeNull();
    expect(await db.scheduleRun.count({ where: { scheduleId: schedule!.id } })).toBe(0);
    expect(await db.run.count({ where: { id: { in: runIds } } })).toBe(runIds.length);
    await expect(deleteSchedule(schedule!.id)).rejects.toMatchObject({ kind: "not-found" });
    expect(await db.auditEvent.count({ where: { action: "schedule.delete", targetId: schedule!.id } })).toBe(1);
  });
});
