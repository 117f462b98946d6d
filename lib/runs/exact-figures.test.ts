import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseIperfVersion } from "@/lib/iperf";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, fixtureLines, type FakeProcess } from "@/testing/fake-run-remote";
import { seedLocalLinks } from "@/testing/local-links";
import { parseRunRequest } from "./request";
import { RunEngine } from "./engine";
import { RunEventBus } from "./bus";

// How the engine starts a -J server, which prints nothing until its test ends, and what it stores
// from its document: on a real SQLite file, with FakeRunRemote playing real iperf3 3.12 outputs
// (fixtures/exact, made by its generate.sh). Real iperf3 over real SSH is exact-figures.lab.test.ts.

const database: TestDatabase = await openTestDatabase();

// The longest wait between two clients (execution.ts).
const CLIENT_RETRY_MAX_MS = 1000;
const LIMITS = { serverStartMs: 1_500, serverExitGraceMs: 300, runMarginMs: 3_000, serverSettleMs: 40 };
const EXACT = path.resolve(__dirname, "fixtures/exact");
const lines = (name: string) => fs.readFileSync(path.join(EXACT, name), "utf8").split("\n");
const serverEnd = (name: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(EXACT, `${name}.server.txt`), "utf8")) as {
      end: Record<string, { bytes: number; bits_per_second: number }>;
    }
  ).end;
const REFUSED = fixtureLines("refused.client.stderr.txt");

/**
 * A stored rate is iperf3's double, or one a few units in the last place from it: Prisma 6.19 hands
 * Float parameters to its query compiler as JSON text and reads them back slightly off (in 3000 random
 * doubles: 26% off by 1 to 4 units, at most 4.6e-16 of the value). Bytes are whole numbers: exact.
 */
function expectSameDouble(stored: number | null, expected: number): void {
  expect(Math.abs(stored! - expected)).toBeLessThanOrEqual(1e-15 * Math.abs(expected));
}

let linkId = 0;

function setUp() {
  const remote = new FakeRunRemote();
  // A -J server: silent while it listens, its document when its client is done.
  remote.server = () => {};
  const engine = new RunEngine(remote, new RunEventBus(), LIMITS);
  const run = async (body: Record<string, unknown> = { duration: 2 }) => {
    const started = await engine.startRun({ linkId, ...parseRunRequest(body) });
    await engine.waitForRun(started.id);
    return database.db.run.findUniqueOrThrow({ where: { id: started.id }, include: { samples: true } });
  };
  return { remote, run };
}

/** The running servers print `name`'s document (or `serverLines`) and exit with `code`. */
function endServers(remote: FakeRunRemote, serverLines: string[], code = 0): void {
  for (const server of remote.started("server")) {
    if (!server.isRunning) continue;
    server.emit(...serverLines);
    server.exit(code);
  }
}

/** A client that prints the text of the pair `name`; its server then prints the pair's -J document. */
function playPair(remote: FakeRunRemote, name: string): (process: FakeProcess) => void {
  return (process) =>
    setTimeout(() => {
      process.emit(...lines(`${name}.client.txt`));
      process.exit(0);
      endServers(remote, lines(`${name}.server.txt`));
    }, 5);
}

beforeAll(async () => {
  linkId = (await seedLocalLinks(database.db, 1, { first: 0 }))[0]!;
});

afterEach(async () => {
  await database.db.sample.deleteMany();
  await database.db.run.deleteMany();
});

afterAll(() => database.close());

describe("a run against a -J server (a client before 3.17)", () => {
  it("stores the figures the server measured from its document, and the client's own from its text", async () => {
    const { remote, run } = setUp();
    remote.client = playPair(remote, "tcp");
    const stored = await run();
    expect(stored).toMatchObject({ status: "succeeded", errorMessage: null });
    expect(remote.started("server")[0]?.argv.slice(-3)).toEqual(["-J", "-i", "0"]);
    const end = serverEnd("tcp");
    expect(stored.receivedBytes).toBe(end.sum_received!.bytes);
    expectSameDouble(stored.receivedBitsPerSecond, end.sum_received!.bits_per_second);
    // 3 significant digits: what the client's text had.
    expect(String(stored.sentBitsPerSecond)).toMatch(/^\d{1,3}0+$/);
    expect(stored.samples.length).toBeGreaterThan(0);
    expect(stored.serverOutput).toContain('"sum_received"');
    // The client's -V line has both CPU figures.
    expect(stored).toMatchObject({ clientCpuPercent: 25, serverCpuPercent: 26.3 });
  });

  it("stores the exact sender of -R, and the server's CPU use from its document where the client printed none", async () => {
    const { remote, run } = setUp();
    remote.client = playPair(remote, "tcp-reverse");
    const stored = await run({ duration: 2, direction: "b-to-a" });
    const end = serverEnd("tcp-reverse");
    const document = JSON.parse(lines("tcp-reverse.server.txt").join("\n")) as {
      end: { cpu_utilization_percent: { host_total: number } };
    };
    expect(stored).toMatchObject({ status: "succeeded", sentBytes: end.sum_sent!.bytes, clientCpuPercent: null });
    expectSameDouble(stored.sentBitsPerSecond, end.sum_sent!.bits_per_second);
    expectSameDouble(stored.serverCpuPercent, document.end.cpu_utilization_percent.host_total);
  });

  it("moves to the next port when the server's document says the port is busy within the settle time", async () => {
    const { remote, run } = setUp();
    remote.server = (process, port) => {
      if (port !== 5201) return;
      setTimeout(() => {
        process.emit(...lines("busy.server.txt"));
        process.emitError("iperf3: exiting");
        process.exit(1);
      }, 5);
    };
    remote.client = playPair(remote, "tcp");
    const stored = await run();
    expect(stored.status).toBe("succeeded");
    expect(stored.serverCommand).toContain("-p 5202");
    expect(stored.serverOutput).toContain("Address already in use");
    expect(remote.started("client")).toHaveLength(1);
  });

  it("classifies the error in a failed server's document: ESXi's bundled iperf3 that may not listen", async () => {
    const { remote, run } = setUp();
    const document = lines("busy.server.txt").map((line) =>
      line.replace("Address already in use", "Operation not permitted"),
    );
    remote.server = (process) =>
      setTimeout(() => {
        process.emit(...document);
        process.emitError("iperf3: exiting");
        process.exit(1);
      }, 5);
    const stored = await run();
    expect(stored).toMatchObject({
      status: "failed",
      errorKind: "listener-failed",
      errorMessage: "error - unable to start listener for connections: Operation not permitted",
    });
    expect(stored.errorHint).toMatch(/copy/);
    expect(remote.started("client")).toHaveLength(0);
  });

  it("starts a client again when it was refused because the server was slow to listen", async () => {
    const { remote, run } = setUp();
    const play = playPair(remote, "tcp");
    remote.client = (process) => {
      if (remote.started("client").length > 2) return play(process);
      setTimeout(() => {
        process.emitError(...REFUSED);
        process.exit(1);
      }, 5);
    };
    const stored = await run();
    expect(stored).toMatchObject({
      status: "succeeded",
      errorMessage: null,
      receivedBytes: serverEnd("tcp").sum_received!.bytes,
    });
    expect(remote.started("client")).toHaveLength(3);
    expect(stored.clientOutput.match(/the client starts again/g)).toHaveLength(2);
    expect(stored.samples.length).toBeGreaterThan(0);
  });

  it("fails with the client's own error when nothing listens within the server start time, leaving nothing running", async () => {
    const { remote, run } = setUp();
    remote.client = (process) =>
      setTimeout(() => {
        process.emitError(...REFUSED);
        process.exit(1);
      }, 5);
    const startedAt = performance.now();
    const stored = await run();
    expect(stored).toMatchObject({ status: "failed", errorKind: "connection-refused" });
    expect(remote.started("client").length).toBeGreaterThan(2);
    // The retries end with the server start time (the last one starts before it is up).
    expect(performance.now() - startedAt).toBeGreaterThan(LIMITS.serverStartMs - CLIENT_RETRY_MAX_MS);
    expect(remote.processes.every((process) => !process.isRunning)).toBe(true);
  });

  it("does not start a refused client again once the -J server has exited", async () => {
    const { remote, run } = setUp();
    remote.client = (process) =>
      setTimeout(() => {
        endServers(remote, lines("busy.server.txt"), 1);
        process.emitError(...REFUSED);
        process.exit(1);
      }, 5);
    const stored = await run();
    // The server's own error says why nothing listened.
    expect(stored).toMatchObject({ status: "failed", errorKind: "listener-failed" });
    expect(stored.errorMessage).toMatch(/Address already in use/);
    expect(remote.started("client")).toHaveLength(1);
  });

  it("fails with listener-failed when the client reached another program on the port", async () => {
    const { remote, run } = setUp();
    remote.client = (process) =>
      setTimeout(() => {
        process.emit(...lines("tcp.client.txt"));
        process.exit(0);
        endServers(remote, lines("busy.server.txt"), 1);
      }, 5);
    const stored = await run();
    expect(stored).toMatchObject({ status: "failed", errorKind: "listener-failed" });
  });
});

describe("a run with a --json-stream client (3.17+)", () => {
  it("keeps a text server and waits for its listening line", async () => {
    const { remote, run } = setUp();
    remote.version = parseIperfVersion("iperf 3.17.1")!;
    remote.server = (process, port) => setTimeout(() => process.emit(`Server listening on ${port} (test #1)`), 5);
    remote.client = (process) =>
      setTimeout(() => {
        process.emit(...lines("json-stream-tcp.client.txt"));
        process.exit(0);
        endServers(remote, []);
      }, 5);
    const stored = await run();
    expect(remote.started("server")[0]?.argv).not.toContain("-J");
    expect(remote.started("client")[0]?.argv).toContain("--json-stream");
    const end = lines("json-stream-tcp.client.txt").find((line) => line.startsWith('{"event":"end"'))!;
    const data = (
      JSON.parse(end) as {
        data: { sum_sent: { bytes: number }; sum_received: { bytes: number; bits_per_second: number } };
      }
    ).data;
    expect(stored).toMatchObject({
      status: "succeeded",
      sentBytes: data.sum_sent.bytes,
      receivedBytes: data.sum_received.bytes,
    });
    expectSameDouble(stored.receivedBitsPerSecond, data.sum_received.bits_per_second);
  });

  it("fails with a timeout when its text server never says it listens", async () => {
    const { remote, run } = setUp();
    remote.version = parseIperfVersion("iperf 3.17.1")!;
    const stored = await run();
    expect(stored).toMatchObject({ status: "failed", errorKind: "timeout" });
    expect(remote.started("client")).toHaveLength(0);
  });
});
