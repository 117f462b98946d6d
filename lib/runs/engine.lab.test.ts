// The run engine on the lab: real sshd, real iperf3, real SQLite.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labHost, labLink, labTarget, processesInHost, startSshd, stopSshd, waitFor } from "@/testing/lab-targets";
import { parseStoredEnvironment } from "@/lib/diagnosis/contract";
import { buildClientArgv, parseIperfVersion } from "@/lib/iperf";
import { openLabDatabase } from "@/testing/lab-database";
import { runToEnd } from "@/testing/run-to-end";
import { RunEngine } from "./engine";
import { DEFAULT_LIMITS } from "./limits";
import { agentRunRemote } from "./remote-agents";
import { RunEventBus } from "./bus";
import { parseRunRequest } from "./request";
import { closeAll } from "@/lib/ssh";

const database = await openLabDatabase();
const { db, state, linkIds, hostIds } = database;
const bus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, bus);

/** iperf3 processes running inside a lab host's namespace. */
function iperfProcessesIn(host: string): number[] {
  return processesInHost(labHost(state, host), "iperf3").map((p) => p.pid);
}

/** Resolves once the run has published `count` samples on the bus. */
async function samplesArrived(runId: number, count: number): Promise<void> {
  let seen = 0;
  const unsubscribe = bus.subscribe(runId, 0, (event) => {
    if (event.type === "sample") seen += 1;
  });
  try {
    await waitFor(() => seen >= count, 20_000, `${count} samples of run ${runId}`);
  } finally {
    unsubscribe?.();
  }
}

async function runOn(link: string, body: Record<string, unknown>) {
  const id = await runToEnd(engine, linkIds[link]!, body);
  return db.run.findUniqueOrThrow({ where: { id }, include: { samples: { orderBy: { seq: "asc" } } } });
}

describe("runs on the lab", () => {
  it("measures the 1G link within 5% of 1 Gbit/s, keeping samples, commands and raw output", async () => {
    const run = await runOn("ab-1g", { duration: 4 });
    expect(run.errorMessage).toBeNull();
    expect(run.status).toBe("succeeded");
    expect(run.receivedBitsPerSecond).toBeGreaterThan(0.95e9);
    expect(run.receivedBitsPerSecond).toBeLessThan(1.05e9);
    expect(run.samples.length).toBeGreaterThanOrEqual(4);
    expect(run.samples[0]!.bitsPerSecond).toBeGreaterThan(0.5e9);
    // The command a user can paste to reproduce the test by hand, bound to the link's NICs.
    const { a, b } = labLink(state, "ab-1g");
    const iperf3 = expect.stringMatching(/^\S*iperf3$/);
    const port = expect.stringMatching(/^\d+$/);
    expect(run.clientCommand?.split(" ")).toEqual([
      iperf3,
      "-c",
      b.address,
      "-p",
      port,
      "-t",
      "4",
      "-B",
      a.address,
      "-V",
      "-f",
      "k",
      "--forceflush",
    ]);
    expect(run.serverCommand?.split(" ").slice(0, 7)).toEqual([iperf3, "-s", "-1", "-B", b.address, "-p", port]);
    expect(run.serverIperfVersion).toMatch(/^3\./);
    expect(run.clientOutput).toMatch(/receiver/);
    // A text client's server writes one -J document at the end (exact-figures.lab.test.ts).
    expect(run.serverCommand).toMatch(/ -J -i 0$/);
    expect(run.serverOutput).toMatch(/"sum_received"/);
    const hosts = await db.host.findMany({ where: { id: { in: [hostIds.alpha!, hostIds.beta!] } } });
    expect(hosts.every((host) => host.iperf3Version?.startsWith("3."))).toBe(true);
  });

  it("reports both directions of a bidirectional run and the reverse of b-to-a", async () => {
    const reverse = await runOn("ab-1g", { duration: 3, direction: "b-to-a" });
    expect(reverse.status).toBe("succeeded");
    expect(reverse.clientCommand).toContain(" -R ");
    expect(reverse.receivedBitsPerSecond).toBeGreaterThan(0.9e9);

    const bidir = await runOn("ab-1g", { duration: 3, direction: "bidir" });
    expect(bidir.status).toBe("succeeded");
    expect(bidir.receivedBitsPerSecond).toBeGreaterThan(0.9e9);
    expect(bidir.reverseReceivedBitsPerSecond).toBeGreaterThan(0.9e9);
    expect(new Set(bidir.samples.map((s) => s.direction))).toEqual(new Set(["forward", "reverse"]));
  });

  it("reports UDP jitter and loss", async () => {
    // A modest rate: UDP loss under a busy CPU is real, but this test is about the figures being there.
    const run = await runOn("ab-2g5", { duration: 3, protocol: "udp", bitrate: 100_000_000 });
    expect(run.status).toBe("succeeded");
    expect(run.jitterMs).not.toBeNull();
    expect(run.lostPercent).not.toBeNull();
    expect(run.packets).toBeGreaterThan(0);
    expect(run.receivedBitsPerSecond).toBeGreaterThan(0.08e9);
    expect(run.sentBitsPerSecond).toBeGreaterThan(0.09e9);
  });

  it("sums four streams", async () => {
    const run = await runOn("ab-2g5", { duration: 3, parallel: 4 });
    expect(run.status).toBe("succeeded");
    expect(run.receivedBitsPerSecond).toBeGreaterThan(2.2e9);
    const sample = run.samples[1]!;
    const streams = sample.streams as Array<{ bitsPerSecond: number }>;
    expect(streams).toHaveLength(4);
    const sum = streams.reduce((total, stream) => total + stream.bitsPerSecond, 0);
    // Per-stream rates are printed to 3 significant digits: their sum matches [SUM] within that.
    expect(Math.abs(sum - sample.bitsPerSecond) / sample.bitsPerSecond).toBeLessThan(0.02);
  });

  it("measures two links between the same hosts at their own rates, at the same time", async () => {
    const [oneG, twoG5] = await Promise.all([runOn("ab-1g", { duration: 4 }), runOn("ab-2g5", { duration: 4 })]);
    expect([oneG.status, twoG5.status]).toEqual(["succeeded", "succeeded"]);
    expect(oneG.receivedBitsPerSecond).toBeLessThan(1.05e9);
    expect(twoG5.receivedBitsPerSecond).toBeGreaterThan(2.2e9);
    // Both servers ran on beta at once: each on its own port.
    const port = (command: string | null) => / -p (\d+)/.exec(command ?? "")?.[1];
    expect(port(oneG.serverCommand)).toMatch(/^52\d\d$/);
    expect(port(oneG.serverCommand)).not.toBe(port(twoG5.serverCommand));
  });

  it("skips a port that another program holds on the server host", async () => {
    const beta = labHost(state, "beta");
    const betaAddress = state.links.find((l) => l.name === "ab-1g")!.b.address;
    // Something else (here a plain iperf3 server) already listens on 5201 at beta's ab-1g address.
    const squatter = spawn("ip", ["netns", "exec", beta.netns, "iperf3", "-s", "-B", betaAddress, "-p", "5201"], {
      stdio: "ignore",
    });
    try {
      await waitFor(() => processesInHost(beta, "-p 5201").length > 0, 5000, "the squatter to start");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const run = await runOn("ab-1g", { duration: 2 });
      expect(run.errorMessage).toBeNull();
      expect(run.status).toBe("succeeded");
      expect(run.serverCommand).toMatch(/ -p 5202 /);
      expect(run.serverOutput).toMatch(/Address already in use/);
    } finally {
      squatter.kill();
    }
  });

  it("starts the client once the -J server is seen listening on beta, never waiting out a settle time", async () => {
    // A settle time far beyond the test's own timeout: a run whose start waited it out could not pass.
    const limits = { ...DEFAULT_LIMITS, serverStartMs: 1_200_000, serverSettleMs: 600_000 };
    const patient = new RunEngine(agentRunRemote, new RunEventBus(), limits);
    const id = await runToEnd(patient, linkIds["ab-1g"]!, { duration: 1 });
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    expect(run.errorMessage).toBeNull();
    expect(run.status).toBe("succeeded");
    // A 3.12 client: the server wrote its -J document, which made the receiver's figures exact.
    expect(run.serverCommand).toContain(" -J");
    // The watch beside the server ended with it.
    expect(processesInHost(labHost(state, "beta"), "/proc/net/tcp")).toEqual([]);
  });

  it("queues a second run on a busy link and runs it after the first", async () => {
    const request = parseRunRequest({ duration: 2 });
    const first = await engine.startRun({ linkId: linkIds["ab-1g"]!, options: request.options, clientSide: "a" });
    const second = await engine.startRun({ linkId: linkIds["ab-1g"]!, options: request.options, clientSide: "a" });
    expect(engine.queuePosition(linkIds["ab-1g"]!, second.id)).toBe(1);
    await engine.waitForRun(second.id);
    const [a, b] = await Promise.all([first.id, second.id].map((id) => db.run.findUniqueOrThrow({ where: { id } })));
    expect([a!.status, b!.status]).toEqual(["succeeded", "succeeded"]);
    expect(b!.startedAt!.getTime()).toBeGreaterThanOrEqual(a!.endedAt!.getTime());
  });

  it("cancels a run mid-way: samples kept, no iperf3 left on either host", async () => {
    const request = parseRunRequest({ duration: 30 });
    const started = await engine.startRun({ linkId: linkIds["ab-1g"]!, options: request.options, clientSide: "a" });
    await samplesArrived(started.id, 2);
    expect(await engine.cancelRun(started.id)).toBe("cancelled");
    const run = await db.run.findUniqueOrThrow({
      where: { id: started.id },
      include: { _count: { select: { samples: true } } },
    });
    expect(run.status).toBe("cancelled");
    expect(run._count.samples).toBeGreaterThanOrEqual(2);
    // The sender's partial summary is real; the "0.00 Bytes" receiver line of a stopped client is not kept.
    expect(run.sentBytes).toBeGreaterThan(0);
    expect(run.receivedBitsPerSecond).toBeNull();
    expect(iperfProcessesIn("alpha")).toEqual([]);
    expect(iperfProcessesIn("beta")).toEqual([]);
  });

  it("fails with not-found and an install hint when iperf3 is missing", async () => {
    await db.host.update({ where: { id: hostIds.beta! }, data: { iperf3Path: "/opt/missing/iperf3" } });
    try {
      const run = await runOn("ab-1g", { duration: 2 });
      expect(run.status).toBe("failed");
      expect(run.errorKind).toBe("not-found");
      expect(run.errorMessage).toContain("beta");
      expect(run.errorHint).toMatch(/apt|install/i);
    } finally {
      await db.host.update({ where: { id: hostIds.beta! }, data: { iperf3Path: null } });
    }
  });

  it("refuses a host whose key does not match the pinned one", async () => {
    const beta = await db.host.findUniqueOrThrow({ where: { id: hostIds.beta! } });
    const alphaKey = state.hosts.find((h) => h.name === "alpha")!.hostKeyFingerprint;
    await db.host.update({ where: { id: beta.id }, data: { hostKeyFingerprint: alphaKey } });
    try {
      const run = await runOn("ab-1g", { duration: 2 });
      expect(run.status).toBe("failed");
      expect(run.errorKind).toBe("host-key");
      expect(run.errorMessage).toContain(alphaKey);
      expect(run.errorMessage).toContain(beta.hostKeyFingerprint!);
    } finally {
      await db.host.update({ where: { id: beta.id }, data: { hostKeyFingerprint: beta.hostKeyFingerprint } });
    }
  });

  it("keeps hostile text in paths from reaching a shell", async () => {
    const marker = "/tmp/wirespeed-pwned-engine";
    fs.rmSync(marker, { force: true });
    await db.host.update({
      where: { id: hostIds.beta! },
      data: { iperf3Path: `/tmp/$(touch ${marker})\`touch ${marker}\`;touch ${marker}'"\n/iperf3` },
    });
    try {
      const run = await runOn("ab-1g", { duration: 2 });
      expect(run.status).toBe("failed");
      expect(run.errorKind).toBe("not-found");
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      await db.host.update({ where: { id: hostIds.beta! }, data: { iperf3Path: null } });
    }
  });
});

describe("iperf3 without --forceflush (before 3.1.5)", () => {
  it("streams its intervals live through a pty", async () => {
    const alpha = labHost(state, "alpha");
    const beta = labHost(state, "beta");
    const link = state.links.find((l) => l.name === "ab-1g")!;
    const version = parseIperfVersion("iperf 3.12")!;
    const endpoint = (host: typeof alpha, hostId: number, address: string) => ({
      access: "ssh" as const,
      hostId,
      hostName: host.name,
      platform: "linux" as const,
      target: labTarget(state, host),
      iperf3Path: null,
      portRange: { min: 5290, max: 5299 },
      address,
      nicName: "eth1",
      openFirewall: false,
    });
    const server = agentRunRemote.startIperf(
      endpoint(beta, hostIds.beta!, link.b.address),
      "server",
      "iperf3",
      ["-s", "-1", "-B", link.b.address, "-p", "5291"],
      { onStdoutLine: () => {}, onStderrLine: () => {} },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    // What an old iperf3 gets: no live-output flag at all.
    const { argv } = buildClientArgv({
      options: parseRunRequest({ duration: 3, port: 5291 }).options,
      version,
      serverAddress: link.b.address,
      bindAddress: link.a.address,
      hostName: "alpha",
      liveMode: "pty",
    });
    expect(argv).not.toContain("--forceflush");
    const intervalTimes: number[] = [];
    const client = agentRunRemote.startIperf(
      endpoint(alpha, hostIds.alpha!, link.a.address),
      "client",
      "iperf3",
      argv,
      {
        onStdoutLine: (line) => {
          if (/\d+\.\d+-\d+\.\d+\s+sec\s.*bits\/sec/.test(line) && !/sender|receiver/.test(line))
            intervalTimes.push(Date.now());
        },
        onStderrLine: () => {},
      },
      { pty: true },
    );
    await client.done;
    const endedAt = Date.now();
    await server.stop();
    expect(intervalTimes.length).toBeGreaterThanOrEqual(3);
    // The first interval came while the test ran, not in a block at the end.
    expect(endedAt - intervalTimes[0]!).toBeGreaterThan(1500);
  });
});

describe("the ESXi stand-in", () => {
  it("serves from a copy of the bundled iperf3, with the opted-in firewall opened for the test and restored", async () => {
    const esx = labHost(state, "esx");
    const firewallFile = path.join(path.dirname(esx.sshdPidFile), "esxi-firewall-enabled");
    fs.writeFileSync(firewallFile, "true\n");
    await db.host.update({ where: { id: hostIds.esx! }, data: { openFirewall: true } });
    const duringRun: string[] = [];
    try {
      const request = parseRunRequest({ duration: 3 });
      const started = await engine.startRun({ linkId: linkIds["a-esx"]!, options: request.options, clientSide: "a" });
      bus.subscribe(started.id, 0, (event) => {
        if (event.type === "sample" && duringRun.length === 0)
          duringRun.push(fs.readFileSync(firewallFile, "utf8").trim());
      });
      await engine.waitForRun(started.id);
      const run = await db.run.findUniqueOrThrow({ where: { id: started.id } });
      expect(run.errorMessage).toBeNull();
      expect(run.status).toBe("succeeded");
      expect(run.receivedBitsPerSecond).toBeGreaterThan(0.95e9);
      // The stand-in's iperf3 refuses to listen unless run as a copy: success means the copy served.
      expect(run.serverCommand).toContain("/usr/lib/vmware/vsan/bin/iperf3");
      // The server's end was read with ESXi's commands: its vmk, through the vSwitch, to the uplink.
      const server = parseStoredEnvironment(run.environment)?.server;
      expect(server).toMatchObject({
        platform: "esxi",
        kernel: "8.0.2",
        iperf3Version: expect.stringMatching(/^3\.\d+/),
        nic: { name: expect.stringMatching(/^vmk\d$/), mtu: 9000, driver: "veth" },
      });
      expect(duringRun).toEqual(["false"]);
      expect(fs.readFileSync(firewallFile, "utf8").trim()).toBe("true");
    } finally {
      await db.host.update({ where: { id: hostIds.esx! }, data: { openFirewall: false } });
    }
  });

  it("restores the firewall when the test fails", async () => {
    const esx = labHost(state, "esx");
    const firewallFile = path.join(path.dirname(esx.sshdPidFile), "esxi-firewall-enabled");
    fs.writeFileSync(firewallFile, "true\n");
    await db.host.update({ where: { id: hostIds.esx! }, data: { openFirewall: true } });
    try {
      // An option the server side refuses makes the run fail after the firewall was opened.
      const run = await runOn("a-esx", { duration: 2, congestion: "nosuchalgo" });
      expect(run.status).toBe("failed");
      expect(fs.readFileSync(firewallFile, "utf8").trim()).toBe("true");
    } finally {
      await db.host.update({ where: { id: hostIds.esx! }, data: { openFirewall: false } });
    }
  });
});

describe("faults on the lab", () => {
  it("fails with a clear error within the connect timeout when a host's sshd is down", async () => {
    const beta = labHost(state, "beta");
    await closeAll();
    await stopSshd(beta);
    try {
      const startedAt = Date.now();
      const run = await runOn("ab-1g", { duration: 2 });
      expect(run.status).toBe("failed");
      expect(run.errorKind).toBe("unreachable");
      expect(run.errorMessage).toContain("beta");
      expect(run.errorHint).toMatch(/sshd/);
      expect(Date.now() - startedAt).toBeLessThan(15_000);
    } finally {
      await startSshd(beta);
    }
  });

  it("fails with the samples so far when the SSH connection drops mid-run, leaving no iperf3 behind", async () => {
    const alpha = labHost(state, "alpha");
    const request = parseRunRequest({ duration: 20 });
    const started = await engine.startRun({ linkId: linkIds["ab-1g"]!, options: request.options, clientSide: "a" });
    await samplesArrived(started.id, 2);
    // The per-connection sshd processes carry our sessions; the listener (pid file) stays.
    const listener = Number(fs.readFileSync(alpha.sshdPidFile, "utf8"));
    for (const { pid } of processesInHost(alpha, "sshd")) if (pid !== listener) process.kill(pid, "SIGKILL");
    await engine.waitForRun(started.id);
    const run = await db.run.findUniqueOrThrow({
      where: { id: started.id },
      include: { _count: { select: { samples: true } } },
    });
    expect(run.status).toBe("failed");
    expect(run.errorKind).toBe("connection-lost");
    expect(run._count.samples).toBeGreaterThanOrEqual(2);
    await waitFor(
      () => iperfProcessesIn("alpha").length === 0 && iperfProcessesIn("beta").length === 0,
      10_000,
      "no iperf3 left",
    );
  });

  it("marks a run interrupted and stops its iperf3 when the app died mid-run", async () => {
    // A separate app process starts a long run and is killed without warning.
    const script = path.resolve(__dirname, "../../testing/start-run-and-wait.ts");
    // One process (node with tsx as loader, not the tsx CLI, which would fork a child that survives the kill).
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", script, String(linkIds["ab-1g"])],
      {
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      // By the third sample the first two are in the database (samples are written every 250 ms). The
      // child loads the whole app through tsx first: over 30 s on a loaded 2-core machine.
      await waitFor(() => /samples 3/.test(output), 90_000, "the child app to report three samples");
    } finally {
      // Killed whatever happened: a child left running holds the link and its iperf3 for the next tests.
      child.kill("SIGKILL");
      await exited;
    }
    const runId = Number(/run (\d+)/.exec(output)![1]);

    expect(await engine.recoverInterruptedRuns()).toHaveLength(1);
    const run = await db.run.findUniqueOrThrow({
      where: { id: runId },
      include: { _count: { select: { samples: true } } },
    });
    expect(run.status).toBe("interrupted");
    expect(run.errorKind).toBe("interrupted");
    expect(run._count.samples).toBeGreaterThanOrEqual(2);
    // The dropped SSH sessions stop iperf3 at once, and recovery stops what is left.
    await waitFor(
      () => iperfProcessesIn("alpha").length === 0 && iperfProcessesIn("beta").length === 0,
      10_000,
      "no iperf3 left",
    );
  });

  it("stops the iperf3 a stale run recorded, and leaves another program with a reused pid alone", async () => {
    const beta = labHost(state, "beta");
    // An iperf3 server left behind on beta, and an unrelated program whose pid a stale run also names.
    const leftover = spawn(
      "ip",
      ["netns", "exec", beta.netns, "iperf3", "-s", "-1", "-B", labLink(state, "ab-1g").b.address, "-p", "5298"],
      { stdio: "ignore" },
    );
    const bystander = spawn("ip", ["netns", "exec", beta.netns, "sleep", "30"], { stdio: "ignore" });
    try {
      await waitFor(
        () => iperfProcessesIn("beta").length === 1 && processesInHost(beta, "sleep 30").length === 1,
        30_000,
        "the leftover processes",
      );
      const [iperfPid] = iperfProcessesIn("beta");
      const sleepPid = processesInHost(beta, "sleep 30")[0]!.pid;
      const options = parseRunRequest({ duration: 10 }).options;
      await db.run.create({ data: { linkId: linkIds["ab-1g"]!, status: "running", options, serverPid: iperfPid } });
      await db.run.create({ data: { linkId: linkIds["ab-1g"]!, status: "preparing", options, serverPid: sleepPid } });
      expect(await engine.recoverInterruptedRuns()).toHaveLength(2);
      await waitFor(() => iperfProcessesIn("beta").length === 0, 10_000, "the leftover iperf3 to stop");
      expect(processesInHost(beta, "sleep 30")).toHaveLength(1);
      expect(await db.run.count({ where: { status: "interrupted", serverPid: { in: [iperfPid!, sleepPid] } } })).toBe(
        2,
      );
    } finally {
      leftover.kill();
      bystander.kill();
      for (const { pid } of processesInHost(beta, "sleep 30")) process.kill(pid, "SIGKILL");
    }
  });
});
