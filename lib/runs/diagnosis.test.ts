import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyEnvironment, parseStoredEnvironment } from "@/lib/diagnosis/contract";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, TCP_1 } from "@/testing/fake-run-remote";
import { seedLocalLinks } from "@/testing/local-links";
import { parseRunRequest } from "./request";
import { RunEngine } from "./engine";
import { RunEventBus } from "./bus";

// What the engine keeps for diagnosis, on a real SQLite file with a scripted stand-in for the
// hosts: both ends' environment, read at the start (and what could not be read), and the pings
// of a run with `latency`, idle then under load, kept whatever the run's end. Real hosts and a
// real ping are lib/diagnosis/diagnosis.lab.test.ts.

const database: TestDatabase = await openTestDatabase();

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
let linkId = 0;

function setUp() {
  const remote = new FakeRunRemote();
  const engine = new RunEngine(remote, new RunEventBus(), LIMITS);
  const run = async (body: Record<string, unknown>) => {
    const started = await engine.startRun({ linkId, ...parseRunRequest(body) });
    return started.id;
  };
  const stored = (runId: number) =>
    database.db.run.findUniqueOrThrow({
      where: { id: runId },
      include: { latencySamples: { orderBy: { seq: "asc" } } },
    });
  return { remote, engine, run, stored };
}

beforeAll(async () => {
  linkId = (await seedLocalLinks(database.db, 1))[0]!;
});

afterAll(() => database.close());

describe("the environment of a run", () => {
  it("is read from both ends at the start and stored with the iperf3 each one ran", async () => {
    const { remote, engine, run, stored } = setUp();
    const runId = await run({ duration: 1 });
    await engine.waitForRun(runId);
    const row = await stored(runId);
    expect(row.status).toBe("succeeded");
    const environment = parseStoredEnvironment(row.environment);
    expect(environment?.client).toMatchObject({
      platform: "linux",
      kernel: "6.1.0-fake",
      iperf3Version: "3.12",
      missing: [],
    });
    expect(environment?.server?.nic?.driver).toBe("fake");
    expect(Date.parse(environment!.client!.readAt)).toBeGreaterThan(Date.now() - 60_000);
    // one read per end, by the link's NIC on each host
    expect(remote.environmentReads).toHaveLength(2);
    expect(new Set(remote.environmentReads).size).toBe(2);
  });

  it("that cannot be read does not fail the run: it records what was missing and why", async () => {
    const { remote, engine, run, stored } = setUp();
    remote.environment = async (endpoint) => {
      if (endpoint.hostName.startsWith("a")) throw new Error("Permission denied (publickey)");
      return { ...emptyEnvironment("linux", ["firmware: ethtool is not installed"]) };
    };
    const runId = await run({ duration: 1 });
    await engine.waitForRun(runId);
    const row = await stored(runId);
    expect(row.status).toBe("succeeded");
    const environment = parseStoredEnvironment(row.environment)!;
    const missing = [...environment.client!.missing, ...environment.server!.missing];
    expect(missing).toContain("everything: Permission denied (publickey)");
    expect(missing).toContain("firmware: ethtool is not installed");
  });
});

describe("latency under load", () => {
  it("pings idle for 5 s before the client starts, then under load, and stores the summary", async () => {
    const { remote, engine, run, stored } = setUp();
    // 0.1 ms idle, 12 ms once the traffic runs
    let isLoaded = false;
    remote.pingRttMs = () => (isLoaded ? 12 : 0.1);
    const client = remote.client;
    remote.client = (process, port) => {
      isLoaded = true;
      client(process, port);
    };
    const startedAt = Date.now();
    const runId = await run({ duration: 1, latency: true });
    await engine.waitForRun(runId);
    const row = await stored(runId);
    expect(row.status).toBe("succeeded");
    const clientStart = remote.started("client")[0]!.startedAt;
    expect(clientStart).toBeGreaterThan(0);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(5000);
    expect(remote.pings).toHaveLength(1);
    expect(remote.pings[0]!.seconds).toBeGreaterThan(5 + 1);
    const idle = row.latencySamples.filter((sample) => sample.phase === "idle");
    expect(idle.length).toBeGreaterThanOrEqual(20);
    expect(idle.every((sample) => sample.t < 0 && sample.rttMs === 0.1)).toBe(true);
    expect(row.latencyIdleMedianMs).toBe(0.1);
    expect(row.latencySent).toBe(row.latencySamples.length);
    expect(row.latencyLost).toBe(0);
  }, 20_000);

  it("keeps the pings so far when the run is cancelled, and a lost ping as a gap", async () => {
    const { remote, engine, run, stored } = setUp();
    remote.pingRttMs = (seq) => (seq === 3 ? null : 0.2);
    // a client that never ends by itself
    remote.client = (process) => process.emit(...TCP_1.slice(0, 4));
    const runId = await run({ duration: 30, latency: true });
    for (let waited = 0; (await stored(runId)).status !== "running" && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await engine.cancelRun(runId);
    const row = await stored(runId);
    expect(row.status).toBe("cancelled");
    expect(row.latencySamples.some((sample) => sample.phase === "loaded")).toBe(true);
    expect(row.latencySamples.filter((sample) => sample.rttMs === null)).toHaveLength(1);
    expect(row.latencyLost).toBe(1);
  }, 30_000);
});
