import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, TCP_1, type FakeProcess } from "@/testing/fake-run-remote";
import { RunEventBus } from "./bus";
import { RunEngine } from "./engine";
import { BusyServerTries, serverPorts } from "./external-server";
import { parseRunRequest } from "./request";

// Runs against an iperf3 server Wirespeed does not manage (access "iperf3-server"), with a scripted
// client host: only the client starts, on the managed end; a busy server sends it to the next port of
// the range, then round again after a wait, until busyRetrySeconds. The real thing: external-server.lab.test.ts.

const database: TestDatabase = await openTestDatabase();
const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
const BUSY = "iperf3: error - the server is busy running a test. try again later";

let linkId = 0;

beforeAll(async () => {
  const { db } = database;
  const client = await db.host.create({
    data: { name: "lan", address: "127.0.0.1", authMethod: "local", platform: "linux" },
  });
  const server = await db.host.create({
    data: {
      name: "public",
      address: "198.18.30.2",
      authMethod: "none",
      access: "iperf3-server",
      iperfPortMin: 5201,
      iperfPortMax: 5202,
    },
  });
  const aNic = await db.nic.create({ data: { hostId: client.id, name: "eth1", addresses: ["198.18.30.1/24"] } });
  const bNic = await db.nic.create({ data: { hostId: server.id, name: "wan", addresses: ["198.18.30.2"] } });
  // What the ISP sells, typed by hand: the line rate the run's figures are read against.
  linkId = (await db.link.create({ data: { name: "isp", aNicId: aNic.id, bNicId: bNic.id, speedMbps: 500 } })).id;
});

afterEach(async () => {
  await database.db.sample.deleteMany();
  await database.db.run.deleteMany();
});

afterAll(() => database.close());

const portOf = (process: FakeProcess) => Number(process.argv[process.argv.indexOf("-p") + 1]);

/** A client that the server answers busy on `isBusy(port, try)`, and that runs TCP_1 otherwise. */
function scriptedClient(remote: FakeRunRemote, isBusy: (port: number, attempt: number) => boolean) {
  let attempt = 0;
  remote.client = (process, port) =>
    setTimeout(() => {
      attempt += 1;
      if (isBusy(port, attempt)) {
        process.emitError(BUSY);
        process.exit(1);
      } else {
        process.emit(...TCP_1);
        process.exit(0);
      }
    }, 5);
}

async function run(remote: FakeRunRemote, body: Record<string, unknown>) {
  const engine = new RunEngine(remote, new RunEventBus(), LIMITS);
  const started = await engine.startRun({ linkId, ...parseRunRequest(body) });
  await engine.waitForRun(started.id);
  return database.db.run.findUniqueOrThrow({ where: { id: started.id }, include: { samples: true } });
}

describe("a run against an iperf3 server Wirespeed does not manage", () => {
  it("starts only the client, on the managed end, with --get-server-output, and reads no server host", async () => {
    const remote = new FakeRunRemote();
    const stored = await run(remote, { duration: 3, direction: "b-to-a" });
    expect(stored.status).toBe("succeeded");
    expect(remote.started("server")).toEqual([]);
    expect(remote.started("client").map((process) => process.host)).toEqual(["lan"]);
    expect(remote.environmentReads).toEqual(["lan:eth1"]);
    const argv = remote.started("client")[0]!.argv;
    expect(argv.slice(0, 4)).toEqual(["-c", "198.18.30.2", "-p", "5201"]);
    expect(argv).toContain("-R");
    expect(argv).toContain("--get-server-output");
    expect(stored.serverCommand).toBeNull();
    expect(stored.serverPid).toBeNull();
    expect(stored.serverIperfVersion).toBeNull();
    expect(stored.serverTries).toBe(1);
    expect(stored.port).toBe(5201);
    expect(stored.samples).toHaveLength(3);
    const environment = stored.environment as { server: { missing: string[] } };
    expect(environment.server.missing).toEqual(["everything: an iperf3 server Wirespeed does not manage"]);
  });

  it("keeps the server's output that the client fetched apart from the client's own", async () => {
    const remote = new FakeRunRemote();
    remote.client = (process) =>
      setTimeout(() => {
        const done = TCP_1.indexOf("iperf Done.");
        process.emit(...TCP_1.slice(0, done), "", "Server output:", "Accepted connection from 198.18.30.1, port 40000");
        process.emit("[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec", "", "iperf Done.");
        process.exit(0);
      }, 5);
    const stored = await run(remote, { duration: 3 });
    expect(stored.status).toBe("succeeded");
    expect(stored.samples).toHaveLength(3);
    expect(stored.serverOutput).toContain("Accepted connection from 198.18.30.1");
    expect(stored.clientOutput).not.toContain("Accepted connection");
  });

  it("tries the next port of the range when the server is busy", async () => {
    const remote = new FakeRunRemote();
    scriptedClient(remote, (port) => port === 5201);
    const stored = await run(remote, { duration: 3 });
    expect(stored.status).toBe("succeeded");
    expect(remote.started("client").map(portOf)).toEqual([5201, 5202]);
    expect(stored.serverTries).toBe(2);
    expect(stored.port).toBe(5202);
    expect(stored.clientCommand).toContain("-p 5202");
    expect(stored.clientOutput).toContain("[Wirespeed: the server is busy; try 2 on port 5202]");
  });

  it("waits and goes round the range again while busyRetrySeconds lasts", async () => {
    const remote = new FakeRunRemote();
    scriptedClient(remote, (_port, attempt) => attempt <= 3);
    const before = performance.now();
    const stored = await run(remote, { duration: 3, busyRetrySeconds: 5 });
    expect(stored.status).toBe("succeeded");
    expect(remote.started("client").map(portOf)).toEqual([5201, 5202, 5201, 5202]);
    expect(stored.serverTries).toBe(4);
    // One round's wait (1 s) between the second and third tries.
    expect(performance.now() - before).toBeGreaterThan(950);
    expect(stored.options).toMatchObject({ busyRetrySeconds: 5 });
  });

  it("fails server-busy with its tries stored when every try finds the server busy", async () => {
    const remote = new FakeRunRemote();
    scriptedClient(remote, () => true);
    const stored = await run(remote, { duration: 3, busyRetrySeconds: 2 });
    expect(stored.status).toBe("failed");
    expect(stored.errorKind).toBe("server-busy");
    expect(stored.errorMessage).toMatch(/public \(198\.18\.30\.2\) was busy on ports 5201-5202 at each of 4 tries/);
    expect(stored.errorHint).toMatch(/busyRetrySeconds/);
    expect(stored.serverTries).toBe(4);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("tries each port once with busyRetrySeconds 0, and the run's own port alone", async () => {
    const remote = new FakeRunRemote();
    scriptedClient(remote, () => true);
    expect((await run(remote, { duration: 3, busyRetrySeconds: 0 })).serverTries).toBe(2);
    const fixed = await run(remote, { duration: 3, busyRetrySeconds: 0, port: 5209 });
    expect(fixed.serverTries).toBe(1);
    expect(fixed.errorMessage).toMatch(/busy on port 5209/);
  });

  it("refuses a run with the client on the server's end, naming clientSide", async () => {
    const engine = new RunEngine(new FakeRunRemote(), new RunEventBus(), LIMITS);
    const refused = await engine
      .startRun({ linkId, ...parseRunRequest({ clientSide: "b", direction: "a-to-b" }) })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: "invalid", status: 400, fields: [{ field: "clientSide" }] });
    expect((refused as Error).message).toMatch(/b end \(public\) is an iperf3 server Wirespeed does not manage/);
    expect(await database.db.run.count()).toBe(0);
  });
});

describe("BusyServerTries", () => {
  it("steps through the range, then rounds again after a growing wait, until the time is up", () => {
    let now = 0;
    const tries = new BusyServerTries(serverPorts({ min: 5201, max: 5203 }, undefined), 10, () => now);
    expect(tries.port).toBe(5201);
    expect(tries.next()).toEqual({ port: 5202, waitMs: 0 });
    expect(tries.next()).toEqual({ port: 5203, waitMs: 0 });
    expect(tries.next()).toEqual({ port: 5201, waitMs: 1000 });
    now = 1000;
    tries.next();
    tries.next();
    expect(tries.next()).toEqual({ port: 5201, waitMs: 2000 });
    now = 3000;
    tries.next();
    tries.next();
    expect(tries.next()).toEqual({ port: 5201, waitMs: 4000 });
    now = 7000;
    tries.next();
    tries.next();
    // 7 s + the next wait (5 s) would end after 10 s.
    expect(tries.next()).toBeNull();
    expect(tries.count).toBe(12);
  });
});
