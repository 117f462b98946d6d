import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedLocalLinks } from "@/testing/local-links";
import { parseIperfVersion } from "@/lib/iperf";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, fixtureLines, TCP_1, tick } from "@/testing/fake-run-remote";
import { parseRunRequest } from "./request";
import { RunEngine, serverArgvFor } from "./engine";
import { RunEventBus } from "./bus";

// The engine's state machine on a real SQLite file, with a scripted stand-in for the hosts:
// FakeRunRemote plays iperf3's recorded output instead of starting it over SSH. Real iperf3
// over real SSH is engine.lab.test.ts; this file covers what a lab cannot stage on demand
// (a cancel at each step, a server that never listens, a busy port, the app stopping).

const database: TestDatabase = await openTestDatabase();

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };

let linkIds: number[] = [];
let seeded = 0;

async function seedLinks(count: number): Promise<number[]> {
  const ids = await seedLocalLinks(database.db, count, { first: seeded });
  seeded += count;
  return ids;
}

function setUp() {
  const remote = new FakeRunRemote();
  const bus = new RunEventBus();
  const engine = new RunEngine(remote, bus, LIMITS);
  const statuses = new Map<number, string[]>();
  const start = async (linkId = linkIds[0]!, body: Record<string, unknown> = { duration: 3 }) => {
    const run = await engine.startRun({ linkId, ...parseRunRequest(body) });
    follow(run.id);
    return run.id;
  };
  const follow = (runId: number) => {
    const seen: string[] = [];
    statuses.set(runId, seen);
    bus.subscribe(runId, 0, (event) => {
      if (event.type === "status") seen.push((event.data as { status: string }).status);
    });
  };
  const stored = (runId: number) =>
    database.db.run.findUniqueOrThrow({ where: { id: runId }, include: { samples: { orderBy: { seq: "asc" } } } });
  const until = async (condition: () => boolean, what: string) => {
    for (const deadline = Date.now() + 5_000; !condition(); await tick())
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  };
  return { remote, bus, engine, start, follow, statuses, stored, until };
}

beforeAll(async () => {
  linkIds = await seedLinks(2);
});

afterEach(async () => {
  await database.db.sample.deleteMany();
  await database.db.run.deleteMany();
});

afterAll(() => database.close());

describe("a run, step by step", () => {
  it("goes queued → preparing → running → succeeded, storing every interval, the summary and both commands", async () => {
    const { remote, engine, start, statuses, stored } = setUp();
    const runId = await start();
    await engine.waitForRun(runId);
    expect(statuses.get(runId)).toEqual(["queued", "preparing", "running", "succeeded"]);
    const run = await stored(runId);
    expect(run.samples.map((sample) => sample.bitsPerSecond)).toEqual([12.2e9, 15.2e9, 15.3e9]);
    expect(run.receivedBitsPerSecond).toBe(14.2e9);
    expect(run.retransmits).toBe(28);
    expect(run.serverCommand).toMatch(/^iperf3 -s -1 -B 198\.18\.0\.2 -p 5201 /);
    expect(run.clientCommand).toContain("-c 198.18.0.2 -p 5201");
    expect(run.clientOutput).toContain("iperf Done.");
    expect(run.serverOutput).toContain("Server listening on 5201");
    expect(run.serverIperfVersion).toBe("3.12");
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("publishes each sample live in the same shape the database replays", async () => {
    const { bus, engine, start, stored } = setUp();
    const runId = await start();
    const live: unknown[] = [];
    bus.subscribe(runId, 0, (event) => event.type === "sample" && live.push(event.data));
    await engine.waitForRun(runId);
    const { samples } = await stored(runId);
    expect(live).toEqual(
      samples.map((sample) =>
        Object.fromEntries(Object.entries(sample).filter(([key]) => key !== "id" && key !== "runId")),
      ),
    );
  });

  it("gives the port back when a run ends, so the next run on the host uses it again", async () => {
    const { remote, engine, start } = setUp();
    await engine.waitForRun(await start());
    await engine.waitForRun(await start());
    expect(remote.started("server").map((process) => process.argv[process.argv.indexOf("-p") + 1])).toEqual([
      "5201",
      "5201",
    ]);
  });

  it("skips a port the host has busy and listens on the next one", async () => {
    const { remote, engine, start, stored } = setUp();
    remote.server = (process, port) =>
      setTimeout(() => {
        if (port === 5201) {
          process.emitError(
            "iperf3: error - unable to start listener for connections: Address already in use",
            "iperf3: exiting",
          );
          process.exit(1);
        } else process.emit(`Server listening on ${port} (test #1)`);
      }, 5);
    const runId = await start();
    await engine.waitForRun(runId);
    const run = await stored(runId);
    expect(run.status).toBe("succeeded");
    expect(run.serverCommand).toContain("-p 5202");
    expect(run.serverOutput).toContain("Address already in use");
  });

  it("fails with a timeout when the server never listens, and stops it", async () => {
    const { remote, engine, start, stored } = setUp();
    // A --json-stream client's server prints text, whose listening line is waited for (a -J server's start: exact-figures.test.ts).
    remote.version = parseIperfVersion("iperf 3.17.1")!;
    remote.server = () => {};
    const runId = await start();
    await engine.waitForRun(runId);
    const run = await stored(runId);
    expect(run).toMatchObject({
      status: "failed",
      errorKind: "timeout",
      errorMessage: "The iperf3 server on b0 did not start listening within 0.3 s.",
    });
    expect(remote.started("client")).toHaveLength(0);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("stores both ends' snapshots and the hosts' iperf3 beside the start, also for a run whose server never listened", async () => {
    const { remote, engine, start, stored } = setUp();
    remote.version = parseIperfVersion("iperf 3.17.1")!;
    remote.server = () => {};
    const runId = await start();
    await engine.waitForRun(runId);
    const run = await stored(runId);
    expect(run.status).toBe("failed");
    const environment = run.environment as { client: { iperf3Version: string }; server: { iperf3Version: string } };
    expect(environment.client.iperf3Version).toBe("3.17.1");
    expect(environment.server.iperf3Version).toBe("3.17.1");
    const link = await database.db.link.findUniqueOrThrow({
      where: { id: run.linkId },
      select: { aNic: { select: { host: true } }, bNic: { select: { host: true } } },
    });
    for (const host of [link.aNic.host, link.bNic.host])
      expect(host).toMatchObject({ iperf3Path: "/usr/bin/iperf3", iperf3Version: "3.17.1" });
  });

  it("fails with iperf3's own error kind and hint when the client fails", async () => {
    const { remote, engine, start, stored } = setUp();
    remote.client = (process) =>
      setTimeout(() => {
        process.emitError(...fixtureLines("refused.client.stderr.txt"));
        process.exit(1);
      }, 5);
    const runId = await start();
    await engine.waitForRun(runId);
    const run = await stored(runId);
    expect(run).toMatchObject({ status: "failed", errorKind: "connection-refused" });
    expect(run.errorHint).not.toBe("");
    expect(run.clientOutput).toContain("Connection refused");
  });

  it("fails, keeping what it printed, when the client's output is no iperf3 output", async () => {
    const { remote, engine, start, stored } = setUp();
    remote.client = (process) =>
      setTimeout(() => {
        process.emit("Segmentation fault (core dumped)");
        process.exit(139);
      }, 5);
    const runId = await start();
    await engine.waitForRun(runId);
    const run = await stored(runId);
    expect(run).toMatchObject({
      status: "failed",
      errorKind: "unknown",
      errorMessage: "iperf3 ended without a result (exit code 139).",
    });
    expect(run.samples).toHaveLength(0);
    expect(run.receivedBitsPerSecond).toBeNull();
    expect(run.clientOutput).toBe("Segmentation fault (core dumped)\n");
  });

  it("fails with a parameter error before any process starts when an end has no address", async () => {
    const { remote, engine, start, stored } = setUp();
    const [nicless] = await seedLinks(1);
    const link = await database.db.link.findUniqueOrThrow({ where: { id: nicless }, select: { bNicId: true } });
    await database.db.nic.update({ where: { id: link.bNicId }, data: { addresses: [] } });
    const runId = await start(nicless);
    await engine.waitForRun(runId);
    expect(await stored(runId)).toMatchObject({ status: "failed", errorKind: "parameter" });
    expect(remote.processes).toHaveLength(0);
  });
});

describe("cancel", () => {
  it("while preparing: nothing starts on the hosts", async () => {
    const { remote, engine, start, stored, statuses, until } = setUp();
    let isDetecting = false;
    remote.detect = (signal) =>
      new Promise((_, reject) => {
        isDetecting = true;
        signal.addEventListener("abort", () => reject(new Error("aborted")));
      });
    const runId = await start();
    await until(() => isDetecting, "iperf3 detection");
    expect(await engine.cancelRun(runId)).toBe("cancelled");
    expect((await stored(runId)).status).toBe("cancelled");
    expect(statuses.get(runId)).toEqual(["queued", "preparing", "cancelled"]);
    expect(remote.processes).toHaveLength(0);
  });

  it("while the server starts: the server is stopped and no client starts", async () => {
    const { remote, engine, start, stored, until } = setUp();
    remote.server = () => {};
    const runId = await start();
    await until(() => remote.started("server").length === 1, "the server");
    expect(await engine.cancelRun(runId)).toBe("cancelled");
    expect((await stored(runId)).status).toBe("cancelled");
    expect(remote.started("client")).toHaveLength(0);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("while running: the client is stopped, and the intervals so far and its partial output are kept", async () => {
    const { remote, engine, start, stored, until } = setUp();
    remote.client = (process) => {
      setTimeout(() => process.emit(...TCP_1.slice(0, 4)), 5);
      process.onStop = () => {
        process.emit("iperf3: interrupt - the client has terminated");
        process.exit(1);
      };
    };
    const runId = await start();
    await until(() => remote.started("client")[0]?.isRunning === true, "the client");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await engine.cancelRun(runId)).toBe("cancelled");
    const run = await stored(runId);
    expect(run.status).toBe("cancelled");
    expect(run.samples).toHaveLength(1);
    expect(run.clientOutput).toContain("interrupt - the client has terminated");
    expect(run.endedAt).not.toBeNull();
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("while queued behind another run of its link: it never starts, and the first run is untouched", async () => {
    const { remote, engine, start, stored, statuses } = setUp();
    // The first run's client ends once the second is cancelled: on a slow database the first had
    // ended, and the second begun preparing, before the cancel reached it (CI-like load on Postgres).
    let releaseFirst = () => {};
    const cancelled = new Promise<void>((resolve) => (releaseFirst = resolve));
    const finish = remote.client;
    remote.client = (process, ...rest) => void cancelled.then(() => finish(process, ...rest));
    const first = await start();
    const second = await start();
    expect(engine.queuePosition(linkIds[0]!, second)).toBe(1);
    expect(await engine.cancelRun(second)).toBe("cancelled");
    releaseFirst();
    expect(statuses.get(second)).toEqual(["queued", "cancelled"]);
    await engine.waitForRun(first);
    expect((await stored(first)).status).toBe("succeeded");
    expect(remote.started("client")).toHaveLength(1);
  });

  it("of a run that has ended answers its final status and changes nothing", async () => {
    const { engine, start, stored } = setUp();
    const runId = await start();
    await engine.waitForRun(runId);
    expect(await engine.cancelRun(runId)).toBe("succeeded");
    expect((await stored(runId)).status).toBe("succeeded");
  });
});

describe("the app stopping", () => {
  it("marks the runs it left active as interrupted, keeps their samples, and stops their iperf3 by pid", async () => {
    const { remote, engine } = setUp();
    const run = await database.db.run.create({
      data: {
        linkId: linkIds[0]!,
        status: "running",
        clientSide: "b",
        options: { protocol: "tcp" },
        serverPid: 111,
        clientPid: 222,
      },
    });
    await database.db.sample.create({ data: { runId: run.id, seq: 0, start: 0, end: 1, bytes: 1, bitsPerSecond: 8 } });
    const queued = await database.db.run.create({
      data: { linkId: linkIds[1]!, status: "queued", clientSide: "a", options: {} },
    });
    expect(await engine.recoverInterruptedRuns()).toHaveLength(2);
    const after = await database.db.run.findMany({
      where: { id: { in: [run.id, queued.id] } },
      include: { _count: { select: { samples: true } } },
      orderBy: { id: "asc" },
    });
    expect(after.map((row) => [row.status, row.errorKind, row._count.samples])).toEqual([
      ["interrupted", "interrupted", 1],
      ["interrupted", "interrupted", 0],
    ]);
    // Client on b: the server ran on a0, the client on b0.
    expect(remote.leftovers).toEqual([
      { host: "a0", pids: [111] },
      { host: "b0", pids: [222] },
    ]);
  });
});

describe("runs together", () => {
  it("starts every server before any client, then the clients at once", async () => {
    const { remote, engine, follow, stored } = setUp();
    const runs = await engine.startRunsTogether(
      linkIds.map((linkId) => ({ linkId, ...parseRunRequest({ duration: 3 }) })),
    );
    runs.forEach((run) => follow(run.id));
    await Promise.all(runs.map((run) => engine.waitForRun(run.id)));
    expect(remote.processes.map((process) => process.role)).toEqual(["server", "server", "client", "client"]);
    const [first, second] = remote.started("client").map((process) => process.startedAt);
    expect(Math.abs(first! - second!)).toBeLessThan(50);
    for (const run of runs) expect((await stored(run.id)).status).toBe("succeeded");
  });

  it("stops the others before their clients start when one cannot start its server", async () => {
    const { remote, engine, stored } = setUp();
    remote.server = (process, port) =>
      setTimeout(() => {
        if (process.host === "b1") {
          process.emitError(
            "iperf3: error - unable to start listener for connections: Operation not permitted",
            "iperf3: exiting",
          );
          process.exit(1);
        } else process.emit(`Server listening on ${port} (test #1)`);
      }, 5);
    const runs = await engine.startRunsTogether(
      linkIds.map((linkId) => ({ linkId, ...parseRunRequest({ duration: 3 }) })),
    );
    await Promise.all(runs.map((run) => engine.waitForRun(run.id)));
    expect(remote.started("client")).toHaveLength(0);
    const [ok, broken] = await Promise.all(runs.map((run) => stored(run.id)));
    expect(broken).toMatchObject({ status: "failed", errorKind: "listener-failed" });
    expect(ok).toMatchObject({
      status: "failed",
      errorKind: "unknown",
      errorMessage: `Run #${broken!.id}, which had to run at the same time, could not start.`,
    });
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("waits until every link is free, and shares one link's turn between runs on it", async () => {
    const { remote, engine, start, stored } = setUp();
    const alone = await start(linkIds[1]!);
    const runs = await engine.startRunsTogether([
      { linkId: linkIds[0]!, ...parseRunRequest({ duration: 3 }) },
      { linkId: linkIds[1]!, ...parseRunRequest({ duration: 3 }) },
      { linkId: linkIds[1]!, ...parseRunRequest({ duration: 3, clientSide: "b" }) },
    ]);
    expect(runs.map((run) => engine.queuePosition(run.linkId, run.id))).toEqual([0, 1, 1]);
    await Promise.all(runs.map((run) => engine.waitForRun(run.id)));
    expect((await stored(alone)).endedAt!.getTime()).toBeLessThanOrEqual(
      (await stored(runs[0]!.id)).startedAt!.getTime(),
    );
    // Two runs on one link at once: two servers on distinct ports of its hosts.
    const ports = remote
      .started("server")
      .slice(1)
      .map((process) => `${process.host}:${process.argv[process.argv.indexOf("-p") + 1]}`);
    expect(new Set(ports).size).toBe(ports.length);
  });
});

const server = { address: "10.0.0.40", hostName: "esx1" };

describe("serverArgvFor", () => {
  it("asks a 3.10+ server to give up when no client comes, after the run's time limit", () => {
    const argv = serverArgvFor(
      parseRunRequest({ duration: 30, omit: 2 }).options,
      parseIperfVersion("iperf 3.12")!,
      server,
      5201,
    );
    expect(argv.slice(0, 6)).toEqual(["-s", "-1", "-B", "10.0.0.40", "-p", "5201"]);
    // 30 s + 2 s of omit + 30 s of margin
    expect(argv).toContain("--idle-timeout");
    expect(argv[argv.indexOf("--idle-timeout") + 1]).toBe("62");
  });

  it("leaves --idle-timeout out for the 3.1.x builds of ESXi and Windows, which lack it", () => {
    const argv = serverArgvFor(
      parseRunRequest({ duration: 30 }).options,
      parseIperfVersion("iperf 3.1.3")!,
      server,
      5201,
    );
    // 3.1.3 predates --forceflush (3.1.5) too: only what that version knows.
    expect(argv).toEqual(["-s", "-1", "-B", "10.0.0.40", "-p", "5201", "-V"]);
  });

  it("caps the idle timeout at iperf3's one-day limit", () => {
    const argv = serverArgvFor(
      parseRunRequest({ duration: 86_400 }).options,
      parseIperfVersion("iperf 3.17.1")!,
      server,
      5201,
    );
    expect(argv[argv.indexOf("--idle-timeout") + 1]).toBe("86400");
  });
});
