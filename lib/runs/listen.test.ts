import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertLocalLink } from "@/testing/local-links";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { callRoute, TEST_API_TOKEN } from "@/testing/test-api";
import { FakeRunRemote, tick, type FakeProcess } from "@/testing/fake-run-remote";
import { AppError } from "@/lib/errors";
import { POST } from "@/app/api/links/[id]/listen/route";
import { RunEngine } from "./engine";
import { RunEventBus } from "./bus";
import { directionOf, parseStoredOptions } from "./contract";
import { parseListenRequest } from "./listen-request";
import { peerWarning } from "./listen";

// A device's run (lib/runs/listen.ts) on a real SQLite file, with a scripted stand-in for the
// managed end: FakeRunRemote plays what a 3.12 server printed for a device's client (recorded with
// `iperf3 -s -1 -V --forceflush` and `iperf3 -c`, then `-c … -R`). listen.lab.test.ts runs real
// iperf3 in the lab's phone namespace.

const database: TestDatabase = await openTestDatabase();
process.env.WIRESPEED_API_TOKEN = TEST_API_TOKEN;

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
const MANAGED = "198.18.40.1";
const DEVICE = "198.18.40.2";

const accepted = (from: string) => [
  "Time: Thu, 03 Dec 2026 09:47:19 GMT",
  `Accepted connection from ${from}, port 33040`,
  "      Cookie: gtusn6xshjsd7oxad5zwvzom5mgbgskbiemp",
  "      TCP MSS: 0 (default)",
  `[  5] local ${MANAGED} port 5201 connected to ${from} port 33054`,
  "Starting Test: protocol: TCP, 1 streams, 131072 byte blocks, omitting 0 seconds, 3 second test, tos 0",
];
// The device sent (iperf3 -c): the server received and knows the receiver's side.
const RECEIVED = [
  "[ ID] Interval           Transfer     Bitrate",
  "[  5]   0.00-1.00   sec   113 MBytes   948 Mbits/sec                  ",
  "[  5]   1.00-2.00   sec   113 MBytes   949 Mbits/sec                  ",
  "[  5]   2.00-3.00   sec   113 MBytes   949 Mbits/sec                  ",
  "- - - - - - - - - - - - - - - - - - - - - - - - -",
  "Test Complete. Summary Results:",
  "[ ID] Interval           Transfer     Bitrate",
  "[  5] (sender statistics not available)",
  "[  5]   0.00-3.00   sec   339 MBytes   948 Mbits/sec                  receiver",
  "rcv_tcp_congestion cubic",
];
// The device asked for -R: the server sent, with Retr and Cwnd, and knows the sender's side.
const SENT = [
  "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
  "[  5]   0.00-1.00   sec   114 MBytes   955 Mbits/sec    0    395 KBytes       ",
  "[  5]   1.00-2.00   sec   112 MBytes   944 Mbits/sec    0    395 KBytes       ",
  "[  5]   2.00-3.00   sec   112 MBytes   944 Mbits/sec    0    395 KBytes       ",
  "- - - - - - - - - - - - - - - - - - - - - - - - -",
  "Test Complete. Summary Results:",
  "[ ID] Interval           Transfer     Bitrate         Retr",
  "[  5]   0.00-3.00   sec   338 MBytes   946 Mbits/sec    0             sender",
  "[  5] (receiver statistics not available)",
  "CPU Utilization: local/sender 4.2% (0.1%u/4.1%s), remote/receiver 0.0% (0.0%u/0.0%s)",
  "snd_tcp_congestion cubic",
];

let linkId = 0;
let sshLinkId = 0;

beforeAll(async () => {
  linkId = await insertLocalLink(database.db, {
    hosts: ["listen-a", "listen-phone"],
    subnet: 40,
    name: "a-phone",
    speedMbps: 1000,
  });
  const link = await database.db.link.findUniqueOrThrow({ where: { id: linkId }, include: { bNic: true } });
  await database.db.host.update({ where: { id: link.bNic.hostId }, data: { access: "device", kind: "phone" } });
  sshLinkId = await insertLocalLink(database.db, {
    hosts: ["listen-c", "listen-d"],
    subnet: 41,
    name: "c-d",
    speedMbps: 1000,
  });
});

afterEach(async () => {
  await database.db.sample.deleteMany();
  await database.db.run.deleteMany();
});

afterAll(() => database.close());

function setUp() {
  const remote = new FakeRunRemote();
  const bus = new RunEventBus();
  const engine = new RunEngine(remote, bus, LIMITS);
  const statuses: string[] = [];
  const listen = async (timeoutSeconds = 30) => {
    const run = await engine.listenForDevice({ linkId, timeoutSeconds });
    bus.subscribe(run.id, 0, (event) => {
      if (event.type === "status") statuses.push((event.data as { status: string }).status);
    });
    return run;
  };
  const server = (): FakeProcess => remote.started("server")[0]!;
  /** The device's test as the server prints it, then the one-off server's exit. */
  const device = (from: string, lines: string[]) => {
    server().emit(...accepted(from), ...lines);
    server().exit(0);
  };
  const stored = (runId: number) =>
    database.db.run.findUniqueOrThrow({ where: { id: runId }, include: { samples: { orderBy: { seq: "asc" } } } });
  return { remote, bus, engine, listen, server, device, statuses, stored };
}

describe("listening for a device", () => {
  it("answers listening with where to connect, then runs and succeeds with the server's side of the figures", async () => {
    const { engine, listen, server, device, statuses, stored } = setUp();
    const run = await listen();
    expect(run.status).toBe("listening");
    expect(run.clientSide).toBe("b");
    expect(run.listen).toMatchObject({ address: MANAGED, port: 5201, command: `iperf3 -c ${MANAGED} -p 5201` });
    expect(Date.parse(run.listen!.expiresAt) - Date.now()).toBeGreaterThan(25_000);
    expect(server().argv.slice(0, 6)).toEqual(["-s", "-1", "-B", MANAGED, "-p", "5201"]);
    expect(server().argv).toContain("--forceflush");
    device(DEVICE, RECEIVED);
    await engine.waitForRun(run.id);
    expect(statuses).toEqual(["preparing", "listening", "running", "succeeded"]);
    const stored_ = await stored(run.id);
    expect(stored_).toMatchObject({ status: "succeeded", peerAddress: DEVICE, serverPid: expect.any(Number) });
    expect(stored_.samples.map((sample) => sample.bitsPerSecond)).toEqual([948e6, 949e6, 949e6]);
    expect(stored_.receivedBitsPerSecond).toBe(948e6);
    expect(stored_.startedAt).not.toBeNull();
    const options = parseStoredOptions(stored_.options);
    expect(options).toMatchObject({ reverse: false, protocol: "tcp", parallel: 1, duration: 3 });
    // The device on b sent: b to a, as any run with its client on b.
    expect(directionOf(options, "b")).toBe("b-to-a");
    expect(stored_.signature).toBe("tcp b-to-a P1");
    expect(stored_.serverOutput).toContain("Accepted connection from");
    expect(stored_.serverOutput).not.toContain("[Wirespeed:");
  });

  it("stores a device's -R as the other direction, with the sender's figures", async () => {
    const { engine, listen, device, stored } = setUp();
    const run = await listen();
    device(DEVICE, SENT);
    await engine.waitForRun(run.id);
    const stored_ = await stored(run.id);
    expect(stored_.status).toBe("succeeded");
    const options = parseStoredOptions(stored_.options);
    expect(options.reverse).toBe(true);
    expect(directionOf(options, "b")).toBe("a-to-b");
    expect(stored_.sentBitsPerSecond).toBe(946e6);
    expect(stored_.retransmits).toBe(0);
    expect(stored_.serverCpuPercent).toBe(4.2);
    expect(stored_.clientCpuPercent).toBeNull();
    expect(stored_.samples).toHaveLength(3);
  });

  it("records a connection from another address than the device NIC's, with a warning in the server's output", async () => {
    const { engine, listen, device, stored } = setUp();
    const run = await listen();
    device("192.0.2.77", RECEIVED);
    await engine.waitForRun(run.id);
    const stored_ = await stored(run.id);
    expect(stored_).toMatchObject({ status: "succeeded", peerAddress: "192.0.2.77" });
    expect(stored_.serverOutput).toContain(
      `[Wirespeed: The device connected from 192.0.2.77, not from its NIC's address ${DEVICE}`,
    );
    expect(peerWarning("192.0.2.77", null)).toBeNull();
    expect(peerWarning(`::ffff:${DEVICE}`, DEVICE)).toBeNull();
  });

  it("fails with no-client when nobody connects before the timeout, and stops the server", async () => {
    const { remote, engine, listen, statuses, stored } = setUp();
    const run = await listen(0.2);
    await engine.waitForRun(run.id);
    expect(statuses).toEqual(["preparing", "listening", "failed"]);
    const stored_ = await stored(run.id);
    expect(stored_).toMatchObject({ status: "failed", errorKind: "no-client" });
    expect(stored_.errorMessage).toBe(`No device connected to ${MANAGED} port 5201 within 0.2 s.`);
    expect(stored_.errorHint).toContain(`iperf3 -c ${MANAGED} -p 5201`);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("cancels while listening: the server stops and its port is free for the next run", async () => {
    const { remote, engine, listen, stored } = setUp();
    const run = await listen();
    expect(await engine.cancelRun(run.id)).toBe("cancelled");
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
    expect((await stored(run.id)).status).toBe("cancelled");
    const next = await listen();
    expect(next.listen?.port).toBe(5201);
    await engine.cancelRun(next.id);
  });

  it("cancels mid-test, keeping the samples so far", async () => {
    const { remote, engine, listen, server, stored } = setUp();
    const run = await listen();
    server().emit(...accepted(DEVICE), ...RECEIVED.slice(0, 2));
    await tick();
    expect(await engine.cancelRun(run.id)).toBe("cancelled");
    const stored_ = await stored(run.id);
    expect(stored_.samples).toHaveLength(1);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("refuses an ordinary run on a device's link (409, listen instead), and makes Run again listen again", async () => {
    const { engine, listen, device } = setUp();
    for (const clientSide of ["a", "b"] as const)
      await expect(
        engine.startRun({ linkId, clientSide, options: parseStoredOptions({ protocol: "tcp", duration: 3 }) }),
      ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/listen for it instead/) });
    const first = await listen();
    device(DEVICE, RECEIVED);
    await engine.waitForRun(first.id);
    const again = await engine.rerun(first.id);
    expect(again).toMatchObject({ status: "listening", linkId, listen: { address: MANAGED } });
    await engine.cancelRun(again.id);
  });

  it("refuses a second listen on a link that is busy, and a link without a device end", async () => {
    const { engine, listen } = setUp();
    const run = await listen();
    await expect(engine.listenForDevice({ linkId, timeoutSeconds: 30 })).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining("a-phone is busy"),
    });
    await engine.cancelRun(run.id);
    await expect(engine.listenForDevice({ linkId: sshLinkId, timeoutSeconds: 30 })).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining("Link c-d joins"),
    });
  });

  it("stops the server a previous instance left listening, at start-up", async () => {
    const { remote, engine, listen } = setUp();
    const run = await listen();
    // As if the app had died: the row stays listening with the server's pid.
    const row = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    const restarted = new RunEngine(remote, new RunEventBus(), LIMITS);
    await database.db.run.update({ where: { id: run.id }, data: { status: "listening" } });
    expect(await restarted.recoverInterruptedRuns()).toHaveLength(1);
    expect(remote.leftovers).toEqual([{ host: "listen-a", pids: [row.serverPid] }]);
    await engine.cancelRun(run.id);
  });
});

describe("POST /api/links/:id/listen", () => {
  it("refuses a bad timeoutSeconds with a 400 naming it", async () => {
    for (const timeoutSeconds of [5, 3601, 12.5, "300"]) {
      const { status, body } = await callRoute(POST, "POST", `/api/links/${linkId}/listen`, {
        body: { timeoutSeconds },
        params: { id: String(linkId) },
      });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain("timeoutSeconds");
    }
    expect(() => parseListenRequest({ timeoutSeconds: 9 })).toThrow(AppError);
    expect(parseListenRequest({})).toEqual({ timeoutSeconds: 300 });
  });

  it("refuses a link that joins no device with a 409 naming the link", async () => {
    const { status, body } = await callRoute(POST, "POST", `/api/links/${sshLinkId}/listen`, {
      body: { timeoutSeconds: 60 },
      params: { id: String(sshLinkId) },
    });
    expect(status).toBe(409);
    expect(JSON.stringify(body)).toContain("c-d");
  });
});
