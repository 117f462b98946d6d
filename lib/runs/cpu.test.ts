import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseIperfVersion } from "@/lib/iperf";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote, fixtureLines } from "@/testing/fake-run-remote";
import { parseRunRequest } from "./request";
import { RunEngine } from "./engine";
import { RunEventBus } from "./bus";
import { runJson } from "./serialize";

// What a run stores of the CPU use of both ends, on a real SQLite file, with FakeRunRemote
// playing real -V client outputs of iperf3 3.12 (lib/iperf/fixtures/real/verbose-*). Real iperf3
// over real SSH is cpu.lab.test.ts.

const database: TestDatabase = await openTestDatabase();

const LIMITS = { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 };
let linkId = 0;

/** A run whose client prints the fixture `name`; the stored row and the summary the bus published. */
async function runPrinting(
  name: string,
  body: Record<string, unknown> = { duration: 3 },
  server: { prints?: string[]; isJson?: boolean; version?: string } = {},
) {
  const remote = new FakeRunRemote();
  if (server.version) remote.version = parseIperfVersion(server.version)!;
  // A -J server prints nothing before its document.
  if (server.isJson) remote.server = () => {};
  const serverPrints = server.prints ?? null;
  remote.client = (process) =>
    setTimeout(() => {
      process.emit(...fixtureLines(name));
      process.exit(0);
      for (const server of remote.started("server")) {
        if (!server.isRunning) continue;
        if (serverPrints) server.emit(...serverPrints);
        server.exit(0);
      }
    }, 5);
  const bus = new RunEventBus();
  const engine = new RunEngine(remote, bus, LIMITS);
  const run = await engine.startRun({ linkId, ...parseRunRequest(body) });
  const published: unknown[] = [];
  bus.subscribe(run.id, 0, (event) => event.type === "summary" && published.push(event.data));
  await engine.waitForRun(run.id);
  const stored = await database.db.run.findUniqueOrThrow({ where: { id: run.id }, include: { link: true } });
  return { remote, stored, published };
}

beforeAll(async () => {
  const nics = [];
  for (const side of ["a", "b"]) {
    const host = await database.db.host.create({
      data: { name: `cpu-${side}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
    });
    nics.push(
      await database.db.nic.create({
        data: { hostId: host.id, name: "eth1", addresses: [`198.18.0.${side === "a" ? 1 : 2}/24`] },
      }),
    );
  }
  linkId = (
    await database.db.link.create({
      data: { name: "cpu-link", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 },
    })
  ).id;
});

afterEach(async () => {
  await database.db.sample.deleteMany();
  await database.db.run.deleteMany();
});

afterAll(() => database.close());

describe("the CPU use of both ends", () => {
  it("is stored from the client's -V line, and is in the run JSON and the summary event", async () => {
    const { remote, stored, published } = await runPrinting("verbose-tcp.client.stdout.txt");
    expect(remote.started("client")[0]?.argv).toContain("-V");
    // CPU Utilization: local/sender 26.4% (1.7%u/24.8%s), remote/receiver 34.4% (2.6%u/31.9%s)
    expect(stored).toMatchObject({ status: "succeeded", clientCpuPercent: 26.4, serverCpuPercent: 34.4 });
    const json = runJson(stored, stored.link);
    expect(json.summary).toMatchObject({ clientCpuPercent: 26.4, serverCpuPercent: 34.4 });
    expect(published).toEqual([json.summary]);
  });

  it("is stored for UDP and for a bidirectional run", async () => {
    // local/sender 4.2%, remote/receiver 1.3%
    expect(
      (await runPrinting("verbose-udp.client.stdout.txt", { protocol: "udp", bitrate: 100_000_000, duration: 3 }))
        .stored,
    ).toMatchObject({
      clientCpuPercent: 4.2,
      serverCpuPercent: 1.3,
    });
    // local/sender 69.3%, remote/receiver 47.8%, printed twice
    expect(
      (await runPrinting("verbose-tcp-bidir-2.client.stdout.txt", { direction: "bidir", parallel: 2, duration: 3 }))
        .stored,
    ).toMatchObject({
      clientCpuPercent: 69.3,
      serverCpuPercent: 47.8,
    });
  });

  it("takes the server's own figure from its -J document when a receiving (-R) 3.12 client printed none", async () => {
    // The sending 3.12 server's document (fixtures/exact): "cpu_utilization_percent": { "host_total": 9.56… }
    const document = fs.readFileSync(path.resolve(__dirname, "fixtures/exact/tcp-reverse.server.txt"), "utf8");
    const reverse = await runPrinting(
      "verbose-server-tcp-reverse.client.stdout.txt",
      { direction: "b-to-a", duration: 3 },
      { prints: document.split("\n"), isJson: true },
    );
    expect(reverse.remote.started("server")[0]?.argv).toContain("-J");
    const hostTotal = (JSON.parse(document) as { end: { cpu_utilization_percent: { host_total: number } } }).end
      .cpu_utilization_percent.host_total;
    expect(reverse.stored).toMatchObject({ status: "succeeded", clientCpuPercent: null });
    expect(reverse.stored.serverCpuPercent).toBeCloseTo(hostTotal, 12);
  });

  it("takes the server's own figure from its -V line where the server prints text", async () => {
    // The sending server: CPU Utilization: local/sender 36.7% (1.2%u/35.5%s), remote/receiver 0.0%
    const reverse = await runPrinting(
      "verbose-server-tcp-reverse.client.stdout.txt",
      { direction: "b-to-a", duration: 3 },
      { prints: fixtureLines("verbose-server-tcp-reverse.server.stdout.txt"), version: "iperf 3.17.1" },
    );
    expect(reverse.remote.started("server")[0]?.argv).toContain("-V");
    expect(reverse.stored).toMatchObject({ status: "succeeded", clientCpuPercent: null, serverCpuPercent: 36.7 });
  });

  it("stays null where neither end printed one: a receiving (-R) 3.12 client without the server's line, or no -V", async () => {
    const reverse = await runPrinting("verbose-tcp-reverse.client.stdout.txt", { direction: "b-to-a", duration: 3 });
    expect(reverse.stored).toMatchObject({ status: "succeeded", clientCpuPercent: null, serverCpuPercent: null });
    expect(reverse.stored.receivedBitsPerSecond).toBe(9.26e9);
    expect((await runPrinting("tcp-1.client.stdout.txt")).stored).toMatchObject({
      clientCpuPercent: null,
      serverCpuPercent: null,
    });
  });
});
