import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLocalLinks } from "@/testing/local-links";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, fixtureLines, tick } from "@/testing/fake-run-remote";
import type { BusEvent } from "@/lib/runs/bus";
import type { ExperimentEventType, MeshResult } from "./contract";
import { AppError } from "@/lib/errors";
import { RunEngine } from "@/lib/runs/engine";
import { RunEventBus } from "@/lib/runs/bus";
import { ExperimentEventBus } from "./bus";
import { ExperimentRunner } from "./runner";

// The experiment runner on a real SQLite file, with the scripted stand-in for the hosts
// (FakeRunRemote plays recorded iperf3 output). Real iperf3 over SSH: experiments.lab.test.ts.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
let linkIds: number[] = [];

function setUp() {
  const remote = new FakeRunRemote();
  const runBus = new RunEventBus();
  const bus = new ExperimentEventBus();
  const engine = new RunEngine(remote, runBus, LIMITS);
  const runner = new ExperimentRunner(engine, bus, runBus);
  const events: BusEvent<ExperimentEventType>[] = [];
  const start = async (body: Record<string, unknown>) => {
    const experiment = await runner.start(body);
    bus.subscribe(experiment.id, 0, (event) => events.push(event));
    return experiment;
  };
  return { remote, engine, runner, events, start };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await condition()); await tick())
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

const sweep = (values: number[], extra: Record<string, unknown> = {}) => ({
  kind: "sweep",
  linkIds: [linkIds[0]],
  options: { duration: 3 },
  factor: "parallel",
  values,
  ...extra,
});

beforeAll(async () => {
  linkIds = await seedLocalLinks(db, 2);
});

afterAll(() => database.close());

describe("an experiment, step by step", () => {
  it("runs a sweep's steps in order as ordinary runs of its link, storing the result after each step", async () => {
    const { runner, events, start } = setUp();
    const experiment = await start(sweep([1, 2, 4]));
    expect(experiment.steps.map((step) => [step.label, step.status])).toEqual([
      ["1 stream", "running"],
      ["2 streams", "pending"],
      ["4 streams", "pending"],
    ]);
    await runner.waitFor(experiment.id);
    const stored = await db.experiment.findUniqueOrThrow({
      where: { id: experiment.id },
      include: { steps: { orderBy: { index: "asc" }, include: { runs: true } } },
    });
    expect(stored.status).toBe("succeeded");
    expect(stored.steps.map((step) => step.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // Each step's run is an ordinary run of the link with the step's value, tied to the experiment.
    const runs = stored.steps.map((step) => step.runs[0]!);
    expect(runs.map((run) => (run.options as { parallel: number }).parallel)).toEqual([1, 2, 4]);
    expect(
      runs.every(
        (run) => run.linkId === linkIds[0] && run.experimentId === experiment.id && run.status === "succeeded",
      ),
    ).toBe(true);
    // The recorded output (tcp-1) gives 14.2 Gbit/s each time: every value reaches the best, so the knee is the first.
    const result = stored.result as {
      rows: { value: number; receivedBitsPerSecond: number }[];
      knee: { value: number };
    };
    expect(result.rows.map((row) => [row.value, row.receivedBitsPerSecond])).toEqual([
      [1, 14.2e9],
      [2, 14.2e9],
      [4, 14.2e9],
    ]);
    expect(result.knee.value).toBe(1);
    expect(stored.answer).toMatch(/1 stream/);
    // Viewers saw the steps, every run's samples tagged with the run, and each row as it filled in.
    const samples = events
      .filter((event) => event.type === "sample")
      .map((event) => event.data as { runId: number; bitsPerSecond: number });
    expect(new Set(samples.map((sample) => sample.runId))).toEqual(new Set(runs.map((run) => run.id)));
    expect(samples.filter((sample) => sample.runId === runs[0]!.id).map((sample) => sample.bitsPerSecond)).toEqual([
      12.2e9, 15.2e9, 15.3e9,
    ]);
    expect(events.filter((event) => event.type === "row")).toHaveLength(3);
    expect(
      events.filter((event) => event.type === "status").map((event) => (event.data as { status: string }).status),
    ).toEqual(["queued", "running", "succeeded"]);
  });

  it("holds its link: a run asked for meanwhile waits until the last step has ended", async () => {
    const { engine, runner, start } = setUp();
    const experiment = await start(sweep([1, 2, 3]));
    await until(async () => (await db.run.count({ where: { experimentId: experiment.id } })) >= 1, "the first step");
    const other = await engine.startRun({
      linkId: linkIds[0]!,
      options: (await db.run.findFirstOrThrow({ where: { experimentId: experiment.id } })).options as never,
      clientSide: "a",
    });
    expect(engine.queuePosition(linkIds[0]!, other.id)).toBe(1);
    await runner.waitFor(experiment.id);
    await engine.waitForRun(other.id);
    const lastStepRun = await db.run.findFirstOrThrow({
      where: { experimentId: experiment.id },
      orderBy: { id: "desc" },
    });
    const otherRun = await db.run.findUniqueOrThrow({ where: { id: other.id } });
    expect(otherRun.status).toBe("succeeded");
    expect(otherRun.startedAt!.getTime()).toBeGreaterThanOrEqual(lastStepRun.endedAt!.getTime());
  });

  it("starts a concurrent experiment once all its links are free, every client at once", async () => {
    const { remote, engine, runner, start } = setUp();
    // A run already going on the second link keeps it busy for a while.
    let releaseBusyRun = () => {};
    remote.client = (process) => {
      releaseBusyRun = () => {
        process.emit(...fixtureLines("tcp-1.client.stdout.txt"));
        process.exit(0);
      };
    };
    const busy = await engine.startRun({
      linkId: linkIds[1]!,
      options: (await import("@/lib/runs/request")).parseRunRequest({ duration: 3 }).options,
      clientSide: "a",
    });
    await until(
      async () => (await db.run.findUniqueOrThrow({ where: { id: busy.id } })).status === "running",
      "the busy run",
    );
    remote.client = new FakeRunRemote().client.bind(remote);
    const experiment = await start({ kind: "concurrent", linkIds, options: { duration: 3 } });
    await tick();
    expect((await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).status).toBe("queued");
    expect(await db.run.count({ where: { experimentId: experiment.id } })).toBe(0);
    releaseBusyRun();
    await runner.waitFor(experiment.id);
    const runs = await db.run.findMany({ where: { experimentId: experiment.id } });
    expect(runs.map((run) => run.linkId).sort()).toEqual([...linkIds].sort());
    const clientStarts = remote
      .started("client")
      .slice(-2)
      .map((process) => process.startedAt);
    expect(Math.abs(clientStarts[0]! - clientStarts[1]!)).toBeLessThan(50);
    const stored = await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } });
    expect(stored.status).toBe("succeeded");
    expect((stored.result as { aggregateBitsPerSecond: number }).aggregateBitsPerSecond).toBeGreaterThan(0);
  });
});

describe("an experiment that does not go to plan", () => {
  it("on cancel, stops the current step with its samples kept and drops the rest; the link is free again; one audit row", async () => {
    const { remote, engine, runner, start } = setUp();
    // Clients send two intervals, then run until stopped (a long test).
    remote.client = (process) => {
      setTimeout(() => process.emit(...fixtureLines("tcp-1.client.stdout.txt").slice(0, 5)), 5);
    };
    const experiment = await start(sweep([1, 2, 3]));
    await until(
      async () => (await db.sample.count({ where: { run: { experimentId: experiment.id } } })) >= 2,
      "two samples stored",
    );
    const cancelled = await runner.cancel(experiment.id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.steps.map((step) => step.status)).toEqual(["cancelled"]);
    const run = await db.run.findFirstOrThrow({
      where: { experimentId: experiment.id },
      include: { _count: { select: { samples: true } } },
    });
    expect(run.status).toBe("cancelled");
    expect(run._count.samples).toBe(2);
    expect(remote.started("client").filter((process) => process.isRunning)).toHaveLength(0);
    // One action, one audit row: the experiment's; the cancel of its step's run writes none.
    const audit = await db.auditEvent.findMany({
      where: {
        OR: [
          { action: "experiment.cancel", targetId: experiment.id },
          { action: "run.cancel", targetId: run.id },
        ],
      },
    });
    expect(audit.map((row) => row.action)).toEqual(["experiment.cancel"]);
    // The hold is released: a new run starts at once.
    remote.client = new FakeRunRemote().client.bind(remote);
    const next = await engine.startRun({ linkId: linkIds[0]!, options: run.options as never, clientSide: "a" });
    expect(engine.queuePosition(linkIds[0]!, next.id)).toBe(0);
    await engine.waitForRun(next.id);
  });

  it("on cancel while it waits for its links, ends with no step", async () => {
    const { remote, engine, runner, start } = setUp();
    remote.client = () => {};
    const busy = await engine.startRun({
      linkId: linkIds[0]!,
      options: (await import("@/lib/runs/request")).parseRunRequest({ duration: 3 }).options,
      clientSide: "a",
    });
    const experiment = await start(sweep([1, 2]));
    const cancelled = await runner.cancel(experiment.id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.steps.filter((step) => step.status !== "pending")).toHaveLength(0);
    expect(await db.run.count({ where: { experimentId: experiment.id } })).toBe(0);
    await engine.cancelRun(busy.id);
  });

  it("fails at the step whose run failed, naming the step and the run's error, and keeps the steps before", async () => {
    const { remote, runner, start } = setUp();
    let clients = 0;
    const ok = remote.client;
    remote.client = (process, port) => {
      clients += 1;
      if (clients < 2) return ok(process, port);
      process.emitError(...fixtureLines("refused.client.stderr.txt"));
      process.exit(1);
    };
    const experiment = await start(sweep([1, 2, 3]));
    await runner.waitFor(experiment.id);
    const stored = await db.experiment.findUniqueOrThrow({
      where: { id: experiment.id },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(stored.status).toBe("failed");
    expect(stored.steps.map((step) => step.status)).toEqual(["succeeded", "failed"]);
    expect(stored.errorMessage).toMatch(/^Step 2 \(2 streams\) failed, run #\d+: .*refused/i);
    expect((stored.result as { rows: { receivedBitsPerSecond: number | null }[] }).rows[0]!.receivedBitsPerSecond).toBe(
      14.2e9,
    );
  });

  it("refuses a bad plan with a 400 that names each field", async () => {
    const { runner } = setUp();
    const refusal = await runner
      .start({ kind: "concurrent", linkIds: [linkIds[0], linkIds[0]], options: { paralel: 2 } })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    const fields = (refusal as InstanceType<typeof AppError>).fields.map((field) => field.field);
    expect(fields).toEqual(expect.arrayContaining(["linkIds[1]", "options.paralel"]));
    const tooMany = await runner
      .start(sweep([1, 2, 3, 4, 5, 6, 7, 8], { repeats: 9 }))
      .catch((error: unknown) => error);
    expect((tooMany as InstanceType<typeof AppError>).fields).toEqual([
      { field: "plan", message: "this plan takes 72 runs; at most 64" },
    ]);
    const missing = await runner.start({ ...sweep([1]), linkIds: [9999] }).catch((error: unknown) => error);
    expect((missing as InstanceType<typeof AppError>).fields).toEqual([
      { field: "linkIds[0]", message: "link 9999 does not exist" },
    ]);
  });

  it("after a restart, marks an experiment left running interrupted and keeps its finished steps", async () => {
    const { runner } = setUp();
    const experiment = await db.experiment.create({
      data: {
        kind: "sweep",
        name: "left over",
        status: "running",
        plan: sweep([1, 2]) as never,
        steps: {
          create: [
            { index: 0, label: "1 stream", status: "succeeded", endedAt: new Date() },
            { index: 1, label: "2 streams" },
          ],
        },
      },
    });
    expect(await runner.recoverInterrupted()).toHaveLength(1);
    const stored = await db.experiment.findUniqueOrThrow({
      where: { id: experiment.id },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(stored.status).toBe("interrupted");
    expect(stored.errorMessage).toMatch(/steps that finished are kept/);
    expect(stored.steps.map((step) => step.status)).toEqual(["succeeded", "interrupted"]);
  });

  it("runs the whole plan again as a new experiment", async () => {
    const { runner, start } = setUp();
    const first = await start(sweep([1, 2], { name: "before the card swap" }));
    await runner.waitFor(first.id);
    const again = await runner.rerun(first.id);
    expect(again.id).not.toBe(first.id);
    expect(again.plan).toEqual(first.plan);
    await runner.waitFor(again.id);
    expect((await db.experiment.findUniqueOrThrow({ where: { id: again.id } })).status).toBe("succeeded");
  });

  it("runs a mesh of hosts again on the links among them now, one added since included", async () => {
    const { runner, start } = setUp();
    const hostIds = (await db.host.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((host) => host.id);
    const first = await start({ kind: "mesh", hostIds, options: { duration: 3 } });
    expect(first.plan).toMatchObject({ kind: "mesh", hostIds, linkIds });
    expect(first.steps.map((step) => step.label)).toEqual([
      "link0 a0 → b0",
      "link0 b0 → a0",
      "link1 a1 → b1",
      "link1 b1 → a1",
    ]);
    await runner.waitFor(first.id);
    const nics = await Promise.all(
      [hostIds[1]!, hostIds[2]!].map((hostId, index) =>
        db.nic.create({ data: { hostId, name: "eth2", addresses: [`198.18.9.${index + 1}/24`] } }),
      ),
    );
    const added = await db.link.create({
      data: { name: "bridge", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 },
    });
    const again = await runner.rerun(first.id);
    expect(again.plan).toMatchObject({ hostIds, linkIds: [...linkIds, added.id] });
    await runner.waitFor(again.id);
    const stored = await db.experiment.findUniqueOrThrow({ where: { id: again.id }, include: { runs: true } });
    expect([stored.status, stored.runs.length]).toEqual(["succeeded", 6]);
    // The bridge joins b0 and a1: the grid has a cell each way between them, rows by host name (a1 first).
    const grid = (stored.result as unknown as MeshResult).grid;
    expect(
      grid.cells.filter((cell) => cell.linkId === added.id).map((cell) => [cell.fromHostId, cell.toHostId]),
    ).toEqual([
      [hostIds[2], hostIds[1]],
      [hostIds[1], hostIds[2]],
    ]);
  });
});
