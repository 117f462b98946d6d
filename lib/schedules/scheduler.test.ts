import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { seedLocalLinks } from "@/testing/local-links";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, tick } from "@/testing/fake-run-remote";
import { RunEngine } from "@/lib/runs/engine";
import { RunEventBus } from "@/lib/runs/bus";
import { ExperimentEventBus } from "@/lib/experiments/bus";
import { ExperimentRunner } from "@/lib/experiments/runner";
import { Scheduler } from "./scheduler";
import { createSchedule } from "./store";

// The scheduler on a real SQLite file with a real run engine and experiment runner; the hosts
// are the scripted stand-in (FakeRunRemote plays recorded iperf3 output), the clock is the
// test's. What starts, what is skipped and why, the one catch-up after a restart, the claim.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
const MINUTE = 60_000;
let linkIds: number[] = [];

/** A settable clock. */
class Clock {
  constructor(private time: number) {}
  now = () => new Date(this.time);
  set(time: number) {
    this.time = time;
  }
}

/** An engine and a runner on the stand-in hosts, and schedulers that share them. */
function setUp(clock: Clock) {
  const remote = new FakeRunRemote();
  const runBus = new RunEventBus();
  const engine = new RunEngine(remote, runBus, LIMITS);
  const experiments = new ExperimentRunner(engine, new ExperimentEventBus(), runBus);
  const schedulerOf = () => new Scheduler({ engine, experiments, now: clock.now, random: () => 0 });
  return { remote, engine, experiments, scheduler: schedulerOf(), schedulerOf };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await condition()); await tick())
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

/** A schedule every N minutes on a link, created now: its grid starts at its createdAt. */
async function everyMinutes(minutes: number, extra: Record<string, unknown> = {}) {
  const schedule = await createSchedule({
    name: `every ${minutes}`,
    linkId: linkIds[0],
    options: { duration: 3 },
    everyMinutes: minutes,
    ...extra,
  });
  return { id: schedule.id, anchor: Date.parse(schedule.createdAt) };
}

const startsOf = (scheduleId: number) => db.scheduleRun.findMany({ where: { scheduleId }, orderBy: { id: "asc" } });

beforeEach(async () => {
  await database.reset();
  linkIds = await seedLocalLinks(db, 2);
});

afterAll(() => database.close());

describe("a due schedule", () => {
  it("starts one run of its test, records the start and moves its next start on", async () => {
    const { id, anchor } = await everyMinutes(5, { direction: "b-to-a", options: { duration: 3, parallel: 2 } });
    const clock = new Clock(anchor + 5 * MINUTE + 500);
    const { engine, scheduler } = setUp(clock);
    await scheduler.tick();
    const [start] = await startsOf(id);
    expect(start).toMatchObject({
      outcome: "started",
      reason: null,
      catchUp: false,
      dueAt: new Date(anchor + 5 * MINUTE),
      experimentId: null,
    });
    const run = await db.run.findUniqueOrThrow({ where: { id: start!.runId! } });
    // The schedule's test, with -R from "b-to-a" run by side a's client.
    expect(run).toMatchObject({ linkId: linkIds[0], clientSide: "a", signature: "tcp b-to-a P2" });
    expect(run.options).toMatchObject({ duration: 3, parallel: 2, reverse: true });
    expect(scheduler.lagSeconds).toBe(0.5);
    expect((await db.schedule.findUniqueOrThrow({ where: { id } })).nextRunAt).toEqual(new Date(anchor + 10 * MINUTE));
    // Not due again until then.
    await scheduler.tick();
    expect(await startsOf(id)).toHaveLength(1);
    await engine.waitForRun(run.id);
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("succeeded");
  });

  it("leaves a paused schedule and one not yet due alone", async () => {
    const paused = await everyMinutes(1, { enabled: false });
    const later = await everyMinutes(10);
    const { scheduler } = setUp(new Clock(later.anchor + 5 * MINUTE));
    await scheduler.tick();
    expect(await db.scheduleRun.count()).toBe(0);
    expect(await db.run.count()).toBe(0);
    expect((await db.schedule.findUniqueOrThrow({ where: { id: paused.id } })).nextRunAt).toBeNull();
  });
});

describe("a link that is busy", () => {
  it("skips the start with the reason and queues no second run while its previous run goes on", async () => {
    const { id, anchor } = await everyMinutes(1);
    const clock = new Clock(anchor + MINUTE);
    const { remote, engine, scheduler } = setUp(clock);
    // The client runs until stopped: the first run is still going a minute later.
    remote.client = () => {};
    await scheduler.tick();
    const first = (await startsOf(id))[0]!;
    await until(
      async () => (await db.run.findUniqueOrThrow({ where: { id: first.runId! } })).status === "running",
      "the first run",
    );
    clock.set(anchor + 2 * MINUTE);
    await scheduler.tick();
    const second = (await startsOf(id))[1]!;
    expect(second).toMatchObject({
      outcome: "skipped",
      reason: `link busy: run ${first.runId} is running`,
      runId: null,
      dueAt: new Date(anchor + 2 * MINUTE),
    });
    expect(await db.run.count({ where: { linkId: linkIds[0] } })).toBe(1);
    expect(engine.queuePosition(linkIds[0]!, first.runId!)).toBe(0);
    await engine.cancelRun(first.runId!);
  });

  it("skips while an experiment holds the link", async () => {
    const { id, anchor } = await everyMinutes(1);
    const { remote, experiments, scheduler } = setUp(new Clock(anchor + MINUTE));
    remote.client = () => {};
    const experiment = await experiments.start({
      kind: "sweep",
      linkIds: [linkIds[0]],
      options: { duration: 3 },
      factor: "parallel",
      values: [1],
    });
    await scheduler.tick();
    expect((await startsOf(id))[0]).toMatchObject({
      outcome: "skipped",
      reason: expect.stringMatching(new RegExp(`^link busy: experiment ${experiment.id} is (queued|running)$`)),
    });
    expect(await db.run.count({ where: { experimentId: null } })).toBe(0);
    await experiments.cancel(experiment.id);
  });

  it("skips a mesh of hosts while an experiment holds one of the links among them", async () => {
    const hosts = await db.host.findMany({ orderBy: { id: "asc" }, select: { id: true } });
    const created = await createSchedule({
      name: "the lab",
      experimentPlan: { kind: "mesh", hostIds: hosts.map((host) => host.id), options: { duration: 3 } },
      everyMinutes: 60,
    });
    const { remote, experiments, scheduler } = setUp(new Clock(Date.parse(created.createdAt) + 60 * MINUTE));
    remote.client = () => {};
    const experiment = await experiments.start({
      kind: "sweep",
      linkIds: [linkIds[1]],
      options: { duration: 3 },
      factor: "parallel",
      values: [1],
    });
    await scheduler.tick();
    expect((await startsOf(created.id))[0]).toMatchObject({
      outcome: "skipped",
      reason: expect.stringMatching(new RegExp(`^link busy: experiment ${experiment.id} is (queued|running)$`)),
    });
    await experiments.cancel(experiment.id);
  });
});

describe("an experiment schedule", () => {
  it("starts the experiment of its plan", async () => {
    const created = await createSchedule({
      name: "sweep hourly",
      experimentPlan: {
        kind: "sweep",
        linkIds: [linkIds[1]],
        options: { duration: 3 },
        factor: "parallel",
        values: [1, 2],
      },
      everyMinutes: 60,
    });
    const { experiments, scheduler } = setUp(new Clock(Date.parse(created.createdAt) + 60 * MINUTE));
    await scheduler.tick();
    const [start] = await startsOf(created.id);
    expect(start).toMatchObject({ outcome: "started", runId: null, experimentId: expect.any(Number) });
    await experiments.waitFor(start!.experimentId!);
    const experiment = await db.experiment.findUniqueOrThrow({
      where: { id: start!.experimentId! },
      include: { runs: true },
    });
    expect(experiment).toMatchObject({ kind: "sweep", status: "succeeded" });
    expect(experiment.runs.map((run) => run.linkId)).toEqual([linkIds[1], linkIds[1]]);
  });

  it("runs a mesh of hosts every night, finding the links added since", async () => {
    const hosts = await db.host.findMany({ orderBy: { id: "asc" }, select: { id: true } });
    const created = await createSchedule({
      name: "the lab nightly",
      experimentPlan: { kind: "mesh", hostIds: hosts.map((host) => host.id), options: { duration: 3 } },
      cron: "0 3 * * *",
    });
    // Stored as asked: the links are found at each start.
    expect(created.experimentPlan).toMatchObject({ kind: "mesh", linkIds: [] });
    const nextRunAt = async () => (await db.schedule.findUniqueOrThrow({ where: { id: created.id } })).nextRunAt!;
    const clock = new Clock((await nextRunAt()).getTime() + 500);
    const nightly = async () => {
      const { experiments, scheduler } = setUp(clock);
      await scheduler.tick();
      const start = (await startsOf(created.id)).at(-1)!;
      expect(start).toMatchObject({ outcome: "started", experimentId: expect.any(Number) });
      await experiments.waitFor(start.experimentId!);
      return db.experiment.findUniqueOrThrow({
        where: { id: start.experimentId! },
        include: { runs: true, links: { orderBy: { position: "asc" } } },
      });
    };
    const first = await nightly();
    expect(first).toMatchObject({ kind: "mesh", status: "succeeded" });
    expect(first.links.map((link) => link.linkId)).toEqual(linkIds);
    expect(first.runs).toHaveLength(4);

    // A link between b0 and a1, added during the day, is in the next night's mesh.
    const [, b0, a1] = hosts;
    const nics = await Promise.all(
      [b0!, a1!].map((host, index) =>
        db.nic.create({ data: { hostId: host.id, name: "eth2", addresses: [`198.18.9.${index + 1}/24`] } }),
      ),
    );
    const added = await db.link.create({
      data: { name: "bridge", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 },
    });
    clock.set((await nextRunAt()).getTime() + 500);
    const second = await nightly();
    expect(second.links.map((link) => link.linkId)).toEqual([...linkIds, added.id]);
    expect(second.runs).toHaveLength(6);
  });

  it("records a start that cannot be made as failed, with the reason", async () => {
    const created = await createSchedule({
      name: "on a link that goes",
      experimentPlan: {
        kind: "sweep",
        linkIds: [linkIds[1]],
        options: { duration: 3 },
        factor: "parallel",
        values: [1],
      },
      everyMinutes: 60,
    });
    await db.link.delete({ where: { id: linkIds[1] } });
    const { scheduler } = setUp(new Clock(Date.parse(created.createdAt) + 60 * MINUTE));
    await scheduler.tick();
    expect((await startsOf(created.id))[0]).toMatchObject({
      outcome: "failed",
      reason: `linkIds[0] link ${linkIds[1]} does not exist`,
      experimentId: null,
    });
    expect(await db.experiment.count()).toBe(0);
    // It stays on its timing: the next start is the one after.
    expect((await db.schedule.findUniqueOrThrow({ where: { id: created.id } })).nextRunAt).toEqual(
      new Date(Date.parse(created.createdAt) + 120 * MINUTE),
    );
  });
});

describe("restarts and races", () => {
  it("after a restart that missed starts, makes exactly one catch-up run, then goes on from now", async () => {
    const { id, anchor } = await everyMinutes(1);
    const clock = new Clock(anchor + MINUTE);
    const before = setUp(clock);
    await before.scheduler.start();
    await before.scheduler.stop();
    const firstRun = (await startsOf(id))[0]!;
    expect(firstRun).toMatchObject({ outcome: "started", catchUp: false });
    await before.engine.waitForRun(firstRun.runId!);

    // The app was down for nine and a half minutes: nine starts missed.
    clock.set(anchor + 10 * MINUTE + 30_000);
    const after = setUp(clock);
    await after.scheduler.start();
    await after.scheduler.stop();
    const starts = await startsOf(id);
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({ outcome: "started", catchUp: true, dueAt: new Date(anchor + 2 * MINUTE) });
    expect(await db.run.count({ where: { linkId: linkIds[0] } })).toBe(2);
    expect((await db.schedule.findUniqueOrThrow({ where: { id } })).nextRunAt).toEqual(new Date(anchor + 11 * MINUTE));
    // A catch-up is not lag: the metric speaks of the timer, not of the downtime.
    expect(after.scheduler.lagSeconds).toBe(0);
    await after.engine.waitForRun(starts[1]!.runId!);
  });

  it("starts a due schedule once when two schedulers race on one database", async () => {
    const schedules = [await everyMinutes(1), await everyMinutes(1, { linkId: linkIds[1] })];
    const clock = new Clock(Math.max(...schedules.map((schedule) => schedule.anchor)) + MINUTE);
    const { engine, schedulerOf } = setUp(clock);
    const [one, two] = [schedulerOf(), schedulerOf()];
    for (let round = 1; round <= 3; round += 1) {
      await Promise.all([one.tick(), two.tick(), one.tick(), two.tick()]);
      for (const schedule of schedules) expect(await startsOf(schedule.id)).toHaveLength(round);
      const runs = await db.run.findMany({ where: { status: { in: ["queued", "preparing", "running"] } } });
      await Promise.all(runs.map((run) => engine.waitForRun(run.id)));
      clock.set(clock.now().getTime() + MINUTE);
    }
    expect(await db.run.count()).toBe(6);
    expect(await db.scheduleRun.count({ where: { outcome: { not: "started" } } })).toBe(0);
  });
});

describe("the timer", () => {
  it("wakes for the earliest due schedule, and a poke re-reads one changed meanwhile", async () => {
    const { id } = await everyMinutes(60);
    const { engine, experiments } = setUp(new Clock(0));
    // The real clock: the timer's wait is real.
    const real = new Scheduler({ engine, experiments, random: () => 0 });
    await real.start();
    try {
      // Armed for an hour away (or its one-minute re-read); the edit is seen at the poke.
      await db.schedule.update({ where: { id }, data: { nextRunAt: new Date(Date.now() + 200) } });
      real.poke();
      await until(async () => (await startsOf(id)).length === 1, "the start the timer makes");
      const [start] = await startsOf(id);
      expect(start).toMatchObject({ outcome: "started", catchUp: false });
      await engine.waitForRun(start!.runId!);
    } finally {
      await real.stop();
    }
  });
});
