import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createApp, type App } from "@/lib/app";
import { parseRunRequest } from "@/lib/runs/request";
import { releaseLinks, tryHoldLinks } from "@/lib/runs/link-holds";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote } from "@/testing/fake-run-remote";
import { seedLocalLinks } from "@/testing/local-links";
import { resolveInstanceIdentity, resolveLeaseMs } from "./identity";

// Several instances on one database, each an app of its own (lib/app.ts) with its own identity, in
// this process: their engines share the database as instances on several machines do. Runs go
// through the scripted remote (testing/fake-run-remote.ts). In the `unit` project on SQLite, in
// `postgres` on Postgres; two real app processes on Postgres are lib/instances/instances.lab.test.ts.

const database: TestDatabase = await openTestDatabase();
const LEASE_MS = 30_000;
const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };

function instance(id: string, site: string | null = null): App {
  return createApp({
    db: database.db,
    remote: new FakeRunRemote(),
    instance: { id, site },
    leaseMs: LEASE_MS,
    limits: LIMITS,
  });
}

async function heartbeat(id: string, ageMs: number) {
  const at = new Date(Date.now() - ageMs);
  await database.db.instance.upsert({
    where: { id },
    create: { id, heartbeatAt: at, startedAt: at },
    update: { heartbeatAt: at },
  });
}

async function runLeftBy(instanceId: string | null, linkId: number, status = "running") {
  return database.db.run.create({
    data: { linkId, clientSide: "a", options: parseRunRequest({ duration: 3 }).options, status, instance: instanceId },
  });
}

afterEach(() => database.reset());
afterAll(() => database.close());

describe("which instance this is", () => {
  it("is WIRESPEED_INSTANCE and WIRESPEED_SITE, else the host name and no site; a bad name is refused naming the variable", () => {
    expect(resolveInstanceIdentity({ WIRESPEED_INSTANCE: "lab-2", WIRESPEED_SITE: "west" })).toEqual({
      id: "lab-2",
      site: "west",
    });
    expect(resolveInstanceIdentity({}).id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(resolveInstanceIdentity({}).site).toBeNull();
    expect(() => resolveInstanceIdentity({ WIRESPEED_INSTANCE: "a b" })).toThrow(
      /^WIRESPEED_INSTANCE must be 1 to 63 letters/,
    );
    expect(() => resolveInstanceIdentity({ WIRESPEED_SITE: "-x" })).toThrow(/^WIRESPEED_SITE must be/);
    expect(resolveLeaseMs({})).toBe(30_000);
    expect(resolveLeaseMs({ WIRESPEED_INSTANCE_LEASE_SECONDS: "12" })).toBe(12_000);
    expect(() => resolveLeaseMs({ WIRESPEED_INSTANCE_LEASE_SECONDS: "0" })).toThrow(/from 1 to 3600/);
  });
});

describe("an instance whose heartbeat stopped", () => {
  it("has its runs and experiments taken over by one other instance: interrupted, naming it; a live instance's runs are left alone", async () => {
    const [linkA, linkB] = await seedLocalLinks(database.db, 2);
    await heartbeat("dead", LEASE_MS + 5_000);
    await heartbeat("alive", 0);
    const orphan = await runLeftBy("dead", linkA!);
    const kept = await runLeftBy("alive", linkB!);
    const experiment = await database.db.experiment.create({
      data: { kind: "sweep", plan: {}, status: "running", instance: "dead" },
    });
    await database.db.linkHold.create({ data: { linkId: linkA!, runId: orphan.id, instance: "dead" } });
    const b = instance("b");
    const c = instance("c");
    // Two instances sweep at once: each run is claimed by exactly one of them.
    const sweeps = await Promise.all([b.instances.start(), c.instances.start()]);
    b.instances.stop();
    c.instances.stop();
    expect(sweeps.map((sweep) => sweep.runs).sort()).toEqual([0, 1]);
    expect(sweeps.map((sweep) => sweep.experiments).sort()).toEqual([0, 1]);
    // Each names the instance it took work over from (both do when they split the run and the experiment).
    expect([...new Set(sweeps.flatMap((sweep) => sweep.instances))]).toEqual(["dead"]);
    const recovered = await database.db.run.findUniqueOrThrow({ where: { id: orphan.id } });
    expect(recovered.status).toBe("interrupted");
    expect(recovered.errorMessage).toMatch(
      /^The Wirespeed instance dead that ran this test stopped answering while it was in progress; instance [bc] took it over\.$/,
    );
    expect(["b", "c"]).toContain(recovered.instance);
    expect((await database.db.run.findUniqueOrThrow({ where: { id: kept.id } })).status).toBe("running");
    expect((await database.db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).status).toBe(
      "interrupted",
    );
    // Its links are free and its row is gone; the live ones stay.
    expect(await database.db.linkHold.count()).toBe(0);
    expect((await database.db.instance.findMany({ orderBy: { id: "asc" } })).map((row) => row.id)).toEqual([
      "alive",
      "b",
      "c",
    ]);
  });

  it("at start, recovers its own previous life's runs at once, as a restart always has", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    await heartbeat("restarted", 0);
    const left = await runLeftBy("restarted", link!);
    const app = instance("restarted");
    expect((await app.instances.start()).runs).toBe(1);
    app.instances.stop();
    expect((await database.db.run.findUniqueOrThrow({ where: { id: left.id } })).errorMessage).toBe(
      "Wirespeed stopped while this run was in progress.",
    );
  });
});

describe("two processes of one name", () => {
  it("on another machine: refused while its heartbeat goes on, naming WIRESPEED_INSTANCE; taken over once it ages past the lease", async () => {
    const { InstanceNameTakenError } = await import("./registry");
    const [link] = await seedLocalLinks(database.db, 1);
    const leaseMs = 3_000;
    const twin = () =>
      createApp({
        db: database.db,
        remote: new FakeRunRemote(),
        instance: { id: "twin", site: null },
        leaseMs,
        limits: LIMITS,
      });
    const holder = {
      nonce: "other-process",
      pid: 4242,
      machine: "another-machine",
      address: "far (10.0.0.9) port 3000",
    };
    await database.db.instance.create({ data: { id: "twin", ...holder, heartbeatAt: new Date() } });
    const left = await runLeftBy("twin", link!);
    // The other process beats on, more often than the lease: the starting one sees a beat and refuses.
    // (A Prisma query runs once it is awaited: `then` sends it.)
    const beating = setInterval(() => {
      database.db.instance.update({ where: { id: "twin" }, data: { heartbeatAt: new Date() } }).then(
        () => undefined,
        () => undefined,
      );
    }, 200);
    const refusal = await twin()
      .instances.start()
      .catch((error: unknown) => error)
      .finally(() => clearInterval(beating));
    expect(refusal).toBeInstanceOf(InstanceNameTakenError);
    expect((refusal as Error).message).toMatch(
      /^another instance named twin is running at far \(10\.0\.0\.9\) port 3000, pid 4242 \(last heartbeat \d{4}-\d\d-\d\dT[\d:.]+Z, \d+ s ago\): give each instance on this database its own WIRESPEED_INSTANCE$/,
    );
    expect((await database.db.run.findUniqueOrThrow({ where: { id: left.id } })).status).toBe("running");
    expect((await database.db.instance.findUniqueOrThrow({ where: { id: "twin" } })).nonce).toBe("other-process");
    // It stopped beating (it died): the next start waits for its heartbeat to age past the lease, then recovers.
    const app = twin();
    expect((await app.instances.start()).runs).toBe(1);
    app.instances.stop();
    expect((await database.db.run.findUniqueOrThrow({ where: { id: left.id } })).status).toBe("interrupted");
    expect((await database.db.instance.findUniqueOrThrow({ where: { id: "twin" } })).pid).toBe(process.pid);
  });

  it("on this machine: a restart in the same pid is its previous life, taken over at once", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    const first = instance("same-pid");
    await first.instances.start();
    first.instances.stop();
    const left = await runLeftBy("same-pid", link!);
    // A fresh nonce, the same pid and machine (a container restarted: pid 1 again), lease 30 s: no wait.
    const again = instance("same-pid");
    expect((await again.instances.start()).runs).toBe(1);
    again.instances.stop();
    expect((await database.db.run.findUniqueOrThrow({ where: { id: left.id } })).status).toBe("interrupted");
  });
});

describe("an instance that stops cleanly", () => {
  it("dates its heartbeat gone, so that a start of its name in a new container is not kept waiting for the lease", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    const leaving = instance("leaving");
    await leaving.instances.start();
    await leaving.instances.leave();
    // As a new container sees it: another pid namespace, so the pid tells nothing; the lease is an hour.
    await database.db.instance.update({ where: { id: "leaving" }, data: { machine: "another-container" } });
    const left = await runLeftBy("leaving", link!);
    const restarted = createApp({
      db: database.db,
      remote: new FakeRunRemote(),
      instance: { id: "leaving", site: null },
      leaseMs: 3_600_000,
      limits: LIMITS,
    });
    expect((await restarted.instances.start()).runs).toBe(1);
    restarted.instances.stop();
    expect((await database.db.run.findUniqueOrThrow({ where: { id: left.id } })).status).toBe("interrupted");
  });
});

describe("a link across instances", () => {
  it("is held by one instance at a time: another's run waits until it is freed, then runs", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    expect(await tryHoldLinks("elsewhere", [link!], { runId: 999 })).toBe(true);
    expect(await tryHoldLinks("other", [link!], { runId: 998 })).toBe(false);
    const app = instance("here");
    const run = await app.runs.startRun({ linkId: link!, ...parseRunRequest({ duration: 1 }) });
    // It waits: the other instance holds the link.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await database.db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("queued");
    await releaseLinks("elsewhere", [link!], { runId: 999 });
    await app.runs.waitForRun(run.id);
    const ended = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(ended.status).toBe("succeeded");
    expect(ended.instance).toBe("here");
    expect(await database.db.linkHold.count()).toBe(0);
  });
});

describe("sites", () => {
  it("hands a run of another site's link to an instance of that site, which claims it once and runs it", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    await database.db.host.updateMany({ data: { site: "west" } });
    const east = instance("east-1", "east");
    const west1 = instance("west-1", "west");
    const west2 = instance("west-2", "west");
    const run = await east.runs.startRun({ linkId: link!, ...parseRunRequest({ duration: 1 }) });
    expect(run).toMatchObject({ status: "queued", instance: null });
    // An instance of another site, or of no site, never claims it; of the two of its site, one does.
    expect(await east.runs.claimHandedOffRuns()).toBe(0);
    expect(await instance("nowhere").runs.claimHandedOffRuns()).toBe(0);
    const claims = await Promise.all([west1.runs.claimHandedOffRuns(), west2.runs.claimHandedOffRuns()]);
    expect([...claims].sort()).toEqual([0, 1]);
    const claimer = claims[0] === 1 ? west1 : west2;
    await claimer.runs.waitForRun(run.id);
    const ended = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(ended.status).toBe("succeeded");
    expect(ended.instance).toBe(claimer.instance.id);
  });

  it("refuses a link whose two hosts have different sites, and cancels a handed-off run where it waits", async () => {
    const [link] = await seedLocalLinks(database.db, 1);
    const hosts = await database.db.host.findMany({ orderBy: { id: "asc" } });
    await database.db.host.update({ where: { id: hosts[0]!.id }, data: { site: "west" } });
    await database.db.host.update({ where: { id: hosts[1]!.id }, data: { site: "north" } });
    const east = instance("east-1", "east");
    await expect(east.runs.startRun({ linkId: link!, ...parseRunRequest({ duration: 1 }) })).rejects.toThrow(
      /joins hosts of two sites \(west and north\): no instance reaches both/,
    );
    await database.db.host.update({ where: { id: hosts[1]!.id }, data: { site: null } });
    const run = await east.runs.startRun({ linkId: link!, ...parseRunRequest({ duration: 1 }) });
    expect(await east.runs.cancelRun(run.id)).toBe("cancelled");
    expect(await instance("west-1", "west").runs.claimHandedOffRuns()).toBe(0);
  });
});

describe("the key the credentials are sealed with", () => {
  it("is recorded by the first instance; an instance with another key refuses to start, naming WIRESPEED_SECRET", async () => {
    const { checkSharedKey, SharedKeyMismatchError } = await import("./shared-key");
    await checkSharedKey();
    const recorded = await database.db.setting.findUniqueOrThrow({ where: { key: "secretKeyId" } });
    expect(recorded.value).toMatch(/^[0-9a-f]+$/);
    // The same key again: fine.
    await checkSharedKey();
    // The database's credentials sealed under another key than this instance's.
    await database.db.setting.update({ where: { key: "secretKeyId" }, data: { value: "0123abcd" } });
    const refusal = await checkSharedKey().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SharedKeyMismatchError);
    expect((refusal as Error).message).toMatch(
      /^this instance's secret key \(id [0-9a-f]+\) is not the key the credentials in this database are sealed with \(id 0123abcd\): start every instance on this database with the same WIRESPEED_SECRET/,
    );
  });
});
