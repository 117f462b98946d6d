/**
 * The Linux agent on real lab hosts: detection, NIC discovery, iperf3 server and client started from
 * lib/iperf's argv with their lines streaming, stopping by PID, and hostile arguments reaching no shell.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labHost, labLink, labTarget, processesInHost, requireLabState, waitFor } from "@/testing/lab-targets";
import type { LabHost, LabState } from "@/testing/lab-state";
import { buildClientArgv, buildServerArgv, parseIperfVersion, type IperfVersion } from "@/lib/iperf";
import { closeAll, execCapture, execStream, stopProcess, type HostTarget } from "@/lib/ssh";
import { detectPlatform, linuxAgent, LISTENING_LINE, parsePidLine, PLATFORM_PROBE } from "@/agents";

let state: LabState;
let alpha: LabHost;
let beta: LabHost;
let version: IperfVersion;

beforeAll(() => {
  state = requireLabState();
  alpha = labHost(state, "alpha");
  beta = labHost(state, "beta");
  version = parseIperfVersion("iperf 3.12")!;
});

afterAll(async () => {
  await closeAll();
});

async function detect(target: HostTarget) {
  const outputs = [];
  for (const command of linuxAgent.detectCommands()) outputs.push(await execCapture(target, command));
  return linuxAgent.parseDetect(outputs);
}

describe("linux agent on a lab host", () => {
  it("probes the platform and detects iperf3 3.12", async () => {
    const target = labTarget(state, alpha);
    const probe = await execCapture(target, PLATFORM_PROBE);
    expect(detectPlatform(probe.stdout)).toBe("linux");
    const found = await detect(target);
    expect(found).toMatchObject({ platform: "linux", os: "Linux", iperf3Path: "/usr/bin/iperf3" });
    expect(found.version).toMatchObject({ major: 3, minor: 12 });
    expect(found.versionText).toMatch(/^iperf 3\.12/);
  });

  it("reports no iperf3 for a path that does not exist", async () => {
    const outputs = [];
    for (const command of linuxAgent.detectCommands("/opt/nowhere/iperf3"))
      outputs.push(await execCapture(labTarget(state, alpha), command));
    expect(linuxAgent.parseDetect(outputs)).toMatchObject({ iperf3Path: null, version: null, versionText: null });
  });

  it("discovers the NICs with the lab's addresses and MTUs, mgmt0 included and lo left out", async () => {
    const result = await execCapture(labTarget(state, alpha), linuxAgent.discoverNicsCommand());
    expect(result.exitCode).toBe(0);
    const nics = linuxAgent.parseNics(result.stdout);
    console.log(
      nics
        .map(
          (n) =>
            `${n.name} ${n.addresses.map((a) => `${a.address}/${a.prefixLength}`).join(",")} mtu ${n.mtu} speed ${n.speedMbps} ${n.duplex} driver ${n.driver}`,
        )
        .join("\n"),
    );
    expect(nics.map((n) => n.name)).not.toContain("lo");
    for (const labNic of alpha.nics) {
      const nic = nics.find((n) => n.name === labNic.name);
      expect(nic, labNic.name).toBeDefined();
      expect(nic!.addresses).toContainEqual({
        address: labNic.address,
        prefixLength: labNic.prefixLength,
        family: "ipv4",
      });
      expect(nic!.mtu).toBe(labNic.mtu);
      expect(nic!.mac).toBe(labNic.mac);
      expect(nic!.isUp).toBe(true);
      // veth has no real speed: the agent reports what /sys says (10000 here), read independently for comparison
      const sys = spawnSync("ip", ["netns", "exec", alpha.netns, "cat", `/sys/class/net/${labNic.name}/speed`], {
        encoding: "utf8",
      });
      const sysSpeed = Number.parseInt(sys.stdout, 10);
      expect(nic!.speedMbps).toBe(sysSpeed > 0 ? sysSpeed : null);
    }
  });

  it("runs an iperf3 server and client from lib/iperf's argv, with the client's lines streaming", async () => {
    const link = labLink(state, "ab-1g");
    const port = 5301;
    const serverLines: string[] = [];
    let serverPid: number | null = null;
    let isListening = false;
    const serverArgs = buildServerArgv({
      version,
      bindAddress: link.b.address,
      port,
      oneOff: true,
      idleTimeoutSeconds: 30,
    });
    const server = execStream(
      labTarget(state, beta),
      linuxAgent.serverCommand({ iperf3Path: "iperf3", args: serverArgs }),
      {
        onStdoutLine: (line) => {
          serverLines.push(line);
          serverPid ??= parsePidLine(line);
          if (/Server listening on/.test(line)) isListening = true;
        },
      },
    );
    await waitFor(() => isListening, 10_000, "the iperf3 server to listen");
    expect(serverPid).toBeGreaterThan(1);

    const { argv: clientArgs, liveMode } = buildClientArgv({
      options: { duration: 3 },
      version,
      serverAddress: link.b.address,
      bindAddress: link.a.address,
      hostName: alpha.name,
    });
    // iperf3 3.12: no --json-stream, so --forceflush text lines
    expect(liveMode).toBe("forceflush");
    const intervalTimes: number[] = [];
    const clientLines: string[] = [];
    const result = await execStream(
      labTarget(state, alpha),
      linuxAgent.clientCommand({ iperf3Path: "iperf3", args: [...clientArgs, "-p", String(port)] }),
      {
        onStdoutLine: (line) => {
          clientLines.push(line);
          if (/\bsec\b.*bits\/sec/.test(line) && !/sender|receiver/.test(line)) intervalTimes.push(Date.now());
        },
      },
    );
    const ended = Date.now();
    expect(result.exitCode, clientLines.join("\n")).toBe(0);
    expect(parsePidLine(clientLines[0]!)).toBeGreaterThan(1);
    expect(clientLines.some((l) => /receiver$/.test(l))).toBe(true);
    expect(intervalTimes.length).toBeGreaterThanOrEqual(3);
    // The first interval arrived while the test was still running, not in one block at the end.
    expect(ended - intervalTimes[0]!).toBeGreaterThan(1500);
    expect((await server).exitCode).toBe(0);
    expect(serverLines.some((l) => /receiver$/.test(l))).toBe(true);
  });

  it("stops a running iperf3 by its PID (INT first) and it is gone", async () => {
    const link = labLink(state, "ab-fast");
    const port = 5302;
    let pid: number | null = null;
    let isListening = false;
    const serverArgs = buildServerArgv({ version, bindAddress: link.b.address, port, oneOff: true });
    const target = labTarget(state, beta);
    const server = execStream(target, linuxAgent.serverCommand({ iperf3Path: "iperf3", args: serverArgs }), {
      onStdoutLine: (line) => {
        pid ??= parsePidLine(line);
        if (/Server listening on/.test(line)) isListening = true;
      },
    });
    await waitFor(() => isListening, 10_000, "the iperf3 server to listen");
    expect(processesInHost(beta, `-p ${port}`).map((p) => p.pid)).toContain(pid);

    const stopped = await stopProcess(target, linuxAgent, pid!);
    expect(stopped).toEqual({ isStopped: true, signal: "INT" });
    const ended = await server;
    expect(ended.aborted).toBe(false);
    expect(processesInHost(beta, `-p ${port}`)).toEqual([]);
    expect(await stopProcess(target, linuxAgent, pid!)).toEqual({ isStopped: true, signal: null });
  });

  it("says a -J server listens once iperf3 itself listens on its port, and never for another program's socket there", async () => {
    const link = labLink(state, "ab-1g");
    const target = labTarget(state, beta);
    const start = (port: number, lines: string[], json: boolean, listenPort?: number) =>
      execStream(
        target,
        linuxAgent.serverCommand({
          iperf3Path: "iperf3",
          args: buildServerArgv({
            version,
            bindAddress: link.b.address,
            port,
            oneOff: true,
            output: json ? "json" : "text",
          }),
          listenPort,
        }),
        { onStdoutLine: (line) => lines.push(line), onStderrLine: (line) => lines.push(line) },
      );
    // A -J server says nothing until its test ends: the line is what tells that it listens.
    const watched: string[] = [];
    const server = start(5303, watched, true, 5303);
    await waitFor(() => watched.includes(LISTENING_LINE), 10_000, "the listening line");
    expect(parsePidLine(watched[0]!)).toBeGreaterThan(1);
    const client = await execStream(
      labTarget(state, alpha),
      linuxAgent.clientCommand({
        iperf3Path: "iperf3",
        args: ["-c", link.b.address, "-B", link.a.address, "-p", "5303", "-t", "1"],
      }),
      {},
    );
    expect(client.exitCode).toBe(0);
    expect((await server).exitCode).toBe(0);
    expect(watched.filter((line) => line === LISTENING_LINE)).toHaveLength(1);

    // Another program holds the port: iperf3 cannot listen there, and the line never comes.
    const holderLines: string[] = [];
    const holder = start(5304, holderLines, false);
    await waitFor(() => holderLines.some((line) => /Server listening on/.test(line)), 10_000, "the holder to listen");
    const refused: string[] = [];
    const busy = await start(5304, refused, true, 5304);
    expect(busy.exitCode).not.toBe(0);
    expect(refused.join("\n")).toMatch(/Address already in use/);
    expect(refused).not.toContain(LISTENING_LINE);
    await stopProcess(target, linuxAgent, parsePidLine(holderLines[0]!)!);
    await holder;
    expect(processesInHost(beta, "-p 5304")).toEqual([]);
  });

  it("passes hostile arguments verbatim: no shell ever parses them", async () => {
    const pwned = "/tmp/wirespeed-pwned";
    fs.rmSync(pwned, { force: true });
    const hostile = [
      `$(touch ${pwned})`,
      `\`touch ${pwned}\``,
      `; touch ${pwned}`,
      `' ; touch ${pwned}; echo '`,
      `" ; touch ${pwned}; echo "`,
      `a\nb; touch ${pwned}`,
      `| touch ${pwned} && touch ${pwned} & touch ${pwned}`,
      "$HOME ${PATH} * ? ~ \\ \\' %s %n -n",
      "",
      "-c",
    ];
    const target = labTarget(state, alpha);
    for (const text of hostile) {
      const direct = await execCapture(target, linuxAgent.command(["printf", "%s", text]));
      expect(direct.stdout, JSON.stringify(text)).toBe(text);
      // The same through the start wrapper (sh -c ... sh "$@") that iperf3 runs under.
      const wrapped = await execCapture(target, linuxAgent.clientCommand({ iperf3Path: "printf", args: ["%s", text] }));
      expect(wrapped.stdout.split("\n").slice(1).join("\n"), JSON.stringify(text)).toBe(text);
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });
});
