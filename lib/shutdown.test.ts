import { EventEmitter } from "node:events";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { seedLocalLinks } from "@/testing/local-links";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, fixtureLines, tick } from "@/testing/fake-run-remote";
import { RunEngine } from "@/lib/runs/engine";
import { RunEventBus } from "@/lib/runs/bus";
import { ShuttingDownError } from "@/lib/runs/errors";
import { parseRunRequest } from "@/lib/runs/request";
import { installShutdownHandlers, shutDown } from "./shutdown";
import { ExperimentRunner } from "@/lib/experiments/runner";
import { ExperimentEventBus } from "@/lib/experiments/bus";
import { Scheduler } from "@/lib/schedules/scheduler";
import { createSchedule } from "@/lib/schedules/store";
import { errorResponse } from "@/lib/api/errors";
import { actionFailureOf } from "@/lib/action";

// Wirespeed stopping (SIGTERM, Ctrl-C) on a real SQLite file, with the scripted stand-in for the
// hosts (FakeRunRemote plays recorded iperf3 output): what becomes of runs under way and queued,
// of experiments and schedules, of requests that come during the stop; and the signal handling
// itself, on an emitter standing in for the process. The real signal, real iperf3 over real SSH:
// shutdown.lab.test.ts.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 60_000 };
// A client stopped by SIGINT (iperf3 3.12): two intervals, then on the signal a partial one and a partial summary.
const INTERRUPTED = fixtureLines("interrupted-tcp.client.stdout.txt").filter((line) => line !== "");
const BEFORE_STOP = INTERRUPTED.slice(0, 5);
const ON_STOP = INTERRUPTED.slice(5);
const [INTERRUPT_LINE] = fixtureLines("interrupted-tcp.client.stderr.txt");

let linkIds: number[] = [];

/** An engine, an experiment runner and a scheduler on the stand-in hosts, whose clients run until stopped. */
function setUp() {
  const remote = new FakeRunRemote();
  const bus = new RunEventBus();
  const engine = new RunEngine(remote, bus, LIMITS);
  const experiments = new ExperimentRunner(engine, new ExperimentEventBus(), bus);
  const scheduler = new Scheduler({ engine, experiments, random: () => 0 });
  remote.client = (process) => {
    setTimeout(() => process.emit(...BEFORE_STOP), 5);
    // As iperf3 does on SIGINT: the partial interval and summary, the interrupt line, exit 1; its one-off server ends with it.
    process.onStop = () => {
      process.emit(...ON_STOP);
      process.emitError(INTERRUPT_LINE!);
      process.exit(1);
      for (const server of remote.processes) if (server.role === "server" && server.isRunning) server.exit(0);
    };
  };
  const statuses = new Map<number, string[]>();
  const samples = new Map<number, number>();
  const start = async (linkId = linkIds[0]!) => {
    const run = await engine.startRun({ linkId, ...parseRunRequest({ duration: 60 }) });
    statuses.set(run.id, []);
    samples.set(run.id, 0);
    bus.subscribe(run.id, 0, (event) => {
      if (event.type === "status") statuses.get(run.id)!.push((event.data as { status: string }).status);
      if (event.type === "sample") samples.set(run.id, samples.get(run.id)! + 1);
    });
    return run.id;
  };
  const parts = { engine, experiments, scheduler, closeConnections: async () => {}, disconnect: async () => {} };
  return { remote, bus, engine, experiments, scheduler, parts, start, statuses, samples };
}

const stored = (runId: number) =>
  db.run.findUniqueOrThrow({ where: { id: runId }, include: { samples: { orderBy: { seq: "asc" } } } });

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await condition()); await tick())
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

beforeEach(async () => {
  await database.reset();
  linkIds = await seedLocalLinks(db, 2);
});

afterAll(() => database.close());

describe("the runs", () => {
  it("stops a run under way on both ends and stores it as interrupted, with every sample and the partial summary", async () => {
    const { remote, engine, start, statuses, samples } = setUp();
    const runId = await start();
    await until(() => samples.get(runId) === 2, "two samples");
    await engine.shutdown("SIGTERM");
    const run = await stored(runId);
    expect(run).toMatchObject({
      status: "interrupted",
      errorKind: "interrupted",
      errorMessage: "Wirespeed was stopped (SIGTERM) while this run was in progress.",
      errorHint:
        "The samples and the partial summary received before the stop are kept; run it again to get a full result.",
    });
    // The two intervals before the stop and the partial one the client printed as it stopped.
    expect(run.samples.map((sample) => [sample.start, sample.end, sample.bitsPerSecond])).toEqual([
      [0, 1, 16.5e9],
      [1, 2, 15.9e9],
      [2, 2.5, 15.6e9],
    ]);
    // The sender's partial summary is kept; its receiver line of 0 bytes measured nothing.
    expect(run.sentBitsPerSecond).toBe(16.0e9);
    expect(run.receivedBitsPerSecond).toBeNull();
    expect(run.clientOutput).toContain("interrupt - the client has terminated");
    expect(run.endedAt).not.toBeNull();
    expect(statuses.get(runId)).toEqual(["queued", "preparing", "running", "interrupted"]);
    expect(remote.processes.map((process) => [process.role, process.isRunning])).toEqual([
      ["server", false],
      ["client", false],
    ]);
  });

  it("ends a run still waiting for its link as interrupted, without starting it", async () => {
    const { remote, engine, start, statuses, samples } = setUp();
    const first = await start();
    const second = await start();
    expect(engine.queuePosition(linkIds[0]!, second)).toBe(1);
    await until(() => samples.get(first) === 2, "the first run's samples");
    await engine.shutdown("SIGINT");
    expect(await stored(second)).toMatchObject({
      status: "interrupted",
      errorKind: "interrupted",
      errorMessage: "Wirespeed was stopped (SIGINT) before this run started.",
      errorHint: "Run it again.",
    });
    expect(statuses.get(second)).toEqual(["queued", "interrupted"]);
    expect((await stored(first)).status).toBe("interrupted");
    // The first run's end handed the link on: nothing started in the second's place.
    expect(remote.started("client")).toHaveLength(1);
    expect(engine.activeRunIds).toEqual([]);
  });

  it("a run being recorded when the stop comes is not left queued: the stop waits for it and ends it unstarted", async () => {
    const { remote, engine } = setUp();
    const starting = engine.startRun({ linkId: linkIds[1]!, ...parseRunRequest({ duration: 60 }) });
    await engine.shutdown("SIGTERM");
    // Stored and ended by the time the stop resolves (the database closes right after).
    expect(await db.run.findMany({ select: { status: true, errorMessage: true } })).toEqual([
      { status: "interrupted", errorMessage: "Wirespeed was stopped (SIGTERM) before this run started." },
    ]);
    expect((await starting).status).toBe("queued");
    expect(remote.processes).toHaveLength(0);
    expect(engine.activeRunIds).toEqual([]);
  });

  it("refuses every new run from the moment the stop begins, with 503 Wirespeed is shutting down, recording nothing", async () => {
    const { engine, experiments, start } = setUp();
    const before = await start(linkIds[1]);
    const stopping = engine.shutdown("SIGTERM");
    const refusal = engine.startRun({ linkId: linkIds[0]!, ...parseRunRequest({ duration: 3 }) });
    await expect(refusal).rejects.toBeInstanceOf(ShuttingDownError);
    await expect(engine.rerun(before)).rejects.toBeInstanceOf(ShuttingDownError);
    await expect(
      engine.startRunsTogether(linkIds.map((linkId) => ({ linkId, ...parseRunRequest({ duration: 3 }) }))),
    ).rejects.toBeInstanceOf(ShuttingDownError);
    await expect(
      experiments.start({
        kind: "sweep",
        linkIds: [linkIds[0]],
        options: { duration: 3 },
        factor: "parallel",
        values: [1, 2],
      }),
    ).rejects.toBeInstanceOf(ShuttingDownError);
    await stopping;
    expect(await db.run.count()).toBe(1);
    expect(await db.experiment.count()).toBe(0);

    const error = await refusal.catch((caught: unknown) => caught);
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Wirespeed is shutting down: it starts no new run now. Try again once it is back.",
    );
    // The pages' server actions say the same.
    expect(actionFailureOf(error, "start-run")).toEqual({
      ok: false,
      message: "Wirespeed is shutting down: it starts no new run now. Try again once it is back.",
      errors: [],
    });
  });

  it("still ends a run cancelled by a person as cancelled", async () => {
    const { engine, start, samples } = setUp();
    const runId = await start();
    await until(() => samples.get(runId) === 2, "two samples");
    expect(await engine.cancelRun(runId)).toBe("cancelled");
    expect(await stored(runId)).toMatchObject({ status: "cancelled", errorKind: null });
  });
});

describe("experiments and schedules", () => {
  it("an experiment under way starts no further step and ends interrupted, keeping the steps that finished", async () => {
    const { remote, experiments, parts } = setUp();
    const play = remote.client;
    // The first step's run ends by itself; the second's runs until the stop.
    remote.client = (process, port) => {
      if (remote.started("client").length > 1) return play(process, port);
      setTimeout(() => {
        process.emit(...fixtureLines("tcp-1.client.stdout.txt"));
        process.exit(0);
        for (const server of remote.processes) if (server.role === "server" && server.isRunning) server.exit(0);
      }, 5);
    };
    const experiment = await experiments.start({
      kind: "sweep",
      linkIds: [linkIds[0]],
      options: { duration: 60 },
      factor: "parallel",
      values: [1, 2, 4],
    });
    await until(
      () => remote.started("client").length === 2 && remote.started("client")[1]!.isRunning,
      "the second step's client",
    );
    await shutDown(parts, "SIGTERM");
    const after = await db.experiment.findUniqueOrThrow({
      where: { id: experiment.id },
      include: { steps: { orderBy: { index: "asc" }, include: { runs: true } } },
    });
    expect(after.status).toBe("interrupted");
    expect(after.errorMessage).toBe(
      "Wirespeed was stopped (SIGTERM) while this experiment was in progress. The steps that finished are kept; run it again for the rest.",
    );
    expect(after.steps.map((step) => [step.status, step.runs.map((run) => run.status)])).toEqual([
      ["succeeded", ["succeeded"]],
      ["interrupted", ["interrupted"]],
    ]);
    expect(remote.started("client")).toHaveLength(2);
    expect(experiments.activeExperimentIds).toEqual([]);
  });

  it("an experiment waiting for its links ends interrupted before it started", async () => {
    const { remote, experiments, parts, start, samples } = setUp();
    const runId = await start();
    const experiment = await experiments.start({
      kind: "sweep",
      linkIds: [linkIds[0]],
      options: { duration: 3 },
      factor: "parallel",
      values: [1, 2],
    });
    await until(() => samples.get(runId) === 2, "the run's samples");
    await shutDown(parts, "SIGINT");
    expect(await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).toMatchObject({
      status: "interrupted",
      errorMessage: "Wirespeed was stopped (SIGINT) before this experiment started. Run it again.",
    });
    expect(remote.started("client")).toHaveLength(1);
  });

  it("the scheduler claims no due start once stopped: the next start of the app makes it up", async () => {
    const { scheduler } = setUp();
    const schedule = await createSchedule({
      name: "hourly",
      linkId: linkIds[0],
      options: { duration: 3 },
      everyMinutes: 60,
    });
    const dueAt = new Date(Date.now() - 1000);
    await db.schedule.update({ where: { id: schedule.id }, data: { nextRunAt: dueAt } });
    await scheduler.stop();
    await scheduler.tick();
    expect(await db.scheduleRun.count()).toBe(0);
    expect((await db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).nextRunAt).toEqual(dueAt);
  });

  it("a start claimed as the engine began to stop is recorded as skipped, with the reason", async () => {
    const { engine, scheduler } = setUp();
    const schedule = await createSchedule({
      name: "hourly",
      linkId: linkIds[0],
      options: { duration: 3 },
      everyMinutes: 60,
    });
    await db.schedule.update({ where: { id: schedule.id }, data: { nextRunAt: new Date(Date.now() - 1000) } });
    await engine.shutdown("SIGTERM");
    await scheduler.tick();
    expect(await db.scheduleRun.findMany({ select: { outcome: true, reason: true, runId: true } })).toEqual([
      { outcome: "skipped", reason: "Wirespeed was shutting down", runId: null },
    ]);
    expect(await db.run.count()).toBe(0);
  });
});

describe("shutDown", () => {
  it("stops taking work everywhere in one turn, then leaves the instances, closes the SSH connections, then the database", async () => {
    const calls: string[] = [];
    let releaseScheduler = () => {};
    const parts = {
      scheduler: {
        stop: () => (calls.push("scheduler.stop"), new Promise<void>((resolve) => (releaseScheduler = resolve))),
      },
      experiments: {
        shutdown: async (reason: string) => void calls.push(`experiments.shutdown ${reason}`),
        activeExperimentIds: [],
      },
      engine: { shutdown: async (reason: string) => void calls.push(`engine.shutdown ${reason}`), activeRunIds: [] },
      closeConnections: async () => void calls.push("closeConnections"),
      disconnect: async () => void calls.push("disconnect"),
      // After the runs are stored: another instance must not take over a run this one is still storing.
      leave: async () => void calls.push("leave"),
    };
    const stages: string[] = [];
    const done = shutDown(parts, "SIGTERM", (stage) => stages.push(stage));
    // Nothing awaited yet, and every part has been told.
    expect(calls).toEqual(["scheduler.stop", "experiments.shutdown SIGTERM", "engine.shutdown SIGTERM"]);
    await tick();
    expect(calls).toHaveLength(3);
    releaseScheduler();
    await done;
    expect(calls.slice(3)).toEqual(["leave", "closeConnections", "disconnect"]);
    expect(stages).toEqual([
      "stopping the runs, experiments and schedules",
      "leaving the instances on this database",
      "closing the SSH connections",
      "closing the database",
    ]);
  });
});

describe("installShutdownHandlers", () => {
  /** Parts whose engine stops when `finish()` is called; the emitter stands in for the process. */
  function handlers(options: { deadlineMs?: number; now?: () => number } = {}) {
    const target = new EventEmitter();
    const exits: number[] = [];
    const lines: string[] = [];
    let finish = () => {};
    const engineStopped = new Promise<void>((resolve) => (finish = resolve));
    const parts = {
      scheduler: { stop: async () => {} },
      experiments: { shutdown: async () => {}, activeExperimentIds: [4] },
      engine: { shutdown: () => engineStopped, activeRunIds: [12, 13] },
      closeConnections: async () => {},
      disconnect: async () => {},
    };
    const uninstall = installShutdownHandlers(parts, {
      target,
      exit: (code) => void exits.push(code),
      log: (line) => void lines.push(line),
      ...options,
    });
    return { target, exits, lines, finish, uninstall };
  }

  it("on the first signal stops everything, then exits 0", async () => {
    const { target, exits, lines, finish, uninstall } = handlers();
    target.emit("SIGTERM", "SIGTERM");
    expect(lines[0]).toBe(
      "[wirespeed] SIGTERM: stopping. No new runs; 2 runs under way stopped and stored as interrupted. Exit within 9 s; SIGTERM again exits at once.",
    );
    await tick();
    expect(exits).toEqual([]);
    finish();
    await until(() => exits.length > 0, "the exit");
    expect(exits).toEqual([0]);
    expect(lines.at(-1)).toBe("[wirespeed] stopped");
    uninstall();
    expect(target.listenerCount("SIGTERM") + target.listenerCount("SIGINT")).toBe(0);
  });

  it("takes the copies of one Ctrl-C as one press, and a second press as: exit now", async () => {
    let now = 1_000;
    const { target, exits, lines, uninstall } = handlers({ now: () => now });
    target.emit("SIGINT", "SIGINT");
    // npm and scripts/start.mjs forward the terminal's SIGINT: it comes again within milliseconds.
    now += 20;
    target.emit("SIGINT", "SIGINT");
    target.emit("SIGINT", "SIGINT");
    await tick();
    expect(exits).toEqual([]);
    now += 2_000;
    target.emit("SIGINT", "SIGINT");
    expect(exits).toEqual([130]);
    expect(lines.at(-1)).toBe(
      "[wirespeed] SIGINT again: exiting now; runs 12, 13 and experiment 4 not stored to the end (the next start marks them interrupted and stops their iperf3)",
    );
    uninstall();
  });

  it("exits 1 at the deadline whatever hangs, saying what was cut short", async () => {
    const { target, exits, lines, uninstall } = handlers({ deadlineMs: 50 });
    target.emit("SIGTERM", "SIGTERM");
    await until(() => exits.length > 0, "the deadline");
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe(
      "[wirespeed] not stopped within 0.05 s, exiting anyway: cut short while stopping the runs, experiments and schedules; runs 12, 13 and experiment 4 not stored to the end (the next start marks them interrupted and stops their iperf3)",
    );
    uninstall();
  });
});
