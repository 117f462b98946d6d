import { afterAll, describe, expect, it } from "vitest";
import { createApp, type App } from "@/lib/app";
import { withPrincipal } from "@/lib/auth/context";
import type { Principal } from "@/lib/auth/principal";
import type { BusEvent } from "@/lib/runs/bus";
import { parseRunRequest } from "@/lib/runs/request";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, TCP_1 } from "@/testing/fake-run-remote";
import { seedLocalLinks } from "@/testing/local-links";

// Two instances in this process on one Postgres database, each with its own LISTEN/NOTIFY connections
// (lib/instances/relay.ts): the live events of a run one of them runs reach the other's bus with the
// same ids, and a cancel asked of the other reaches the one that runs it. Runs go through the scripted
// remote; two real app processes over real SSH: instances.lab.test.ts. Only in the `postgres` project.

const database: TestDatabase = await openTestDatabase();
const apps: App[] = [];

function instance(id: string, remote = new FakeRunRemote()): App {
  const app = createApp({
    db: database.db,
    remote,
    instance: { id, site: null },
    leaseMs: 30_000,
    limits: { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 },
  });
  apps.push(app);
  return app;
}

afterAll(async () => {
  for (const app of apps) app.instances.stop();
  await database.close();
});

/** A user who asks for a cancel through one instance; the audit log must name them once. */
async function operator(name: string): Promise<Principal> {
  const user = await database.db.user.create({
    data: { username: name, usernameKey: name, passwordHash: "", role: "operator" },
  });
  return { userId: user.id, name, role: "operator", via: "session" };
}

/** The audit rows of cancels of these runs and experiments, as [action, target id, actor]. */
async function cancelRows({ runIds = [], experimentIds = [] }: { runIds?: number[]; experimentIds?: number[] }) {
  const rows = await database.db.auditEvent.findMany({
    where: {
      OR: [
        { action: "run.cancel", targetId: { in: runIds } },
        { action: "experiment.cancel", targetId: { in: experimentIds } },
      ],
    },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => [row.action, row.targetId, row.actorName]);
}

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (const deadline = Date.now() + 10_000; !(await condition()); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe("two instances on one Postgres", () => {
  it("relay a run's events to the other's viewers with the same ids, and pass a cancel to the instance that runs it, audited once", async () => {
    const [linkId] = await seedLocalLinks(database.db, 1);
    // The client streams its intervals slowly and runs until it is stopped.
    const remote = new FakeRunRemote();
    remote.client = (process) => {
      const intervals = TCP_1.slice(0, 6);
      intervals.forEach((line, index) => setTimeout(() => process.emit(line), 100 * (index + 1)));
      process.onStop = () => {
        process.emit("iperf3: interrupt - the client has terminated");
        process.exit(1);
      };
    };
    const runner = instance("pg-a", remote);
    const viewer = instance("pg-b");
    await runner.instances.start();
    await viewer.instances.start();

    const run = await runner.runs.startRun({ linkId: linkId!, ...parseRunRequest({ duration: 60 }) });
    const here: BusEvent<string>[] = [];
    const there: BusEvent<string>[] = [];
    runner.runBus.subscribe(run.id, 0, (event) => here.push(event));
    // The viewer's bus knows the run from its first relayed event on.
    await until(() => viewer.runBus.isActive(run.id), "the run's events to reach the other instance");
    viewer.runBus.subscribe(run.id, 0, (event) => there.push(event));
    await until(() => there.some((event) => event.type === "sample"), "a sample on the other instance");

    // Cancelled by a user through the instance that does not run it.
    const alice = await operator("alice");
    expect(await withPrincipal(alice, () => viewer.runs.cancelRun(run.id))).toBe("cancelled");
    await until(
      () => there.some((event) => event.type === "status" && (event.data as { status: string }).status === "cancelled"),
      "the cancelled status on the other instance",
    );
    const stored = await database.db.run.findUniqueOrThrow({ where: { id: run.id }, include: { samples: true } });
    expect(stored.status).toBe("cancelled");
    expect(stored.instance).toBe("pg-a");
    const samples = (events: BusEvent<string>[]) =>
      events.filter((event) => event.type === "sample").map((event) => event.id);
    // Every sample the runner published, in order, with the same ids; as many as it stored.
    expect(samples(there)).toEqual(samples(here));
    expect(samples(there)).toEqual(stored.samples.map((_, index) => index + 1));
    expect(samples(there).length).toBeGreaterThan(0);
    // One action, one audit row: written by the instance she asked, naming her; none by the one that ran it.
    expect(await cancelRows({ runIds: [run.id] })).toEqual([["run.cancel", run.id, "alice"]]);
  });

  it("pass an experiment's cancel to the instance that runs it: its step stops with its samples, the rest is dropped, audited once", async () => {
    const [linkId] = await seedLocalLinks(database.db, 1, { first: 1 });
    const remote = new FakeRunRemote();
    // Each step's client streams a few intervals, then runs until it is stopped.
    remote.client = (process) => {
      TCP_1.slice(0, 4).forEach((line, index) => setTimeout(() => process.emit(line), 50 * (index + 1)));
      process.onStop = () => {
        process.emit("iperf3: interrupt - the client has terminated");
        process.exit(1);
      };
    };
    const runner = instance("pg-e", remote);
    const asker = instance("pg-f");
    await runner.instances.start();
    await asker.instances.start();
    const experiment = await runner.experiments.start({
      kind: "sweep",
      linkIds: [linkId],
      options: { duration: 60 },
      factor: "parallel",
      values: [1, 2, 3],
    });
    await until(
      async () => (await database.db.sample.count({ where: { run: { experimentId: experiment.id } } })) > 0,
      "a sample of the first step",
    );

    // Cancelled by a user through the instance that does not run it: answered as it ended there.
    const bob = await operator("bob");
    const cancelled = await withPrincipal(bob, () => asker.experiments.cancel(experiment.id));
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.steps.map((step) => step.status)).toEqual(["cancelled"]);
    const runs = await database.db.run.findMany({
      where: { experimentId: experiment.id },
      include: { _count: { select: { samples: true } } },
    });
    expect(runs.map((run) => [run.status, run.instance])).toEqual([["cancelled", "pg-e"]]);
    expect(runs[0]!._count.samples).toBeGreaterThan(0);
    expect(remote.started("client").filter((process) => process.isRunning)).toHaveLength(0);
    // One action, one audit row: the experiment's, by the instance he asked, naming him; neither the
    // instance that ran it nor the cancel of its step's run writes another.
    expect(await cancelRows({ runIds: runs.map((run) => run.id), experimentIds: [experiment.id] })).toEqual([
      ["experiment.cancel", experiment.id, "bob"],
    ]);
  });

  it("tell the other instances' schedulers when a schedule changes, so that they read it at once", async () => {
    const editor = instance("pg-c");
    const other = instance("pg-d");
    await editor.instances.start();
    await other.instances.start();
    const pokes: boolean[] = [];
    const poke = other.scheduler.poke.bind(other.scheduler);
    other.scheduler.poke = (options) => {
      pokes.push(options?.fromElsewhere ?? false);
      poke(options);
    };
    editor.scheduler.poke();
    await until(() => pokes.length > 0, "the other instance's scheduler to be told");
    expect(pokes).toEqual([true]);
  });
});
