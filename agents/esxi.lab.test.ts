/**
 * The ESXi agent on the lab's ESXi stand-in (testing/lab/esxi-standin: BusyBox ash login, the vsan iperf3
 * that refuses to listen unless copied, esxcli in ESXi's format): host `esx` of the default topology.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labHost, labTarget, processesInHost, requireLabState, waitFor } from "@/testing/lab-targets";
import { readLabState } from "@/testing/lab/lab";
import type { LabHost, LabState } from "@/testing/lab-state";
import {
  buildClientArgv,
  buildServerArgv,
  classifyIperfError,
  parseIperfVersion,
  type IperfVersion,
} from "@/lib/iperf";
import { closeAll, execCapture, execStream, stopProcess, type HostTarget } from "@/lib/ssh";
import { detectPlatform, esxiAgent, ESXI_IPERF3_PATH, linuxAgent, parsePidLine, PLATFORM_PROBE } from "@/agents";

// A lab without the stand-in fails here rather than skipping: these tests are the ESXi agent's only real check.
const esxiHostName = readLabState()?.hosts.find((h) => h.flavor === "esxi")?.name;

let state: LabState;
let esx: LabHost;
let version: IperfVersion;
let target: HostTarget;

beforeAll(() => {
  if (!esxiHostName)
    throw new Error(
      "the lab has no esxi-flavored host: use the default topology (testing/lab/topology.json), which has one",
    );
  state = requireLabState();
  esx = labHost(state, esxiHostName);
  version = parseIperfVersion("iperf 3.12")!;
  target = labTarget(state, esx);
});

afterAll(async () => {
  await closeAll();
});

function esxLink() {
  const link = state.links.find((l) => l.b.host === esx.name || l.a.host === esx.name);
  if (!link) throw new Error("the esxi host has no link");
  return link.b.host === esx.name ? { esxEnd: link.b, otherEnd: link.a } : { esxEnd: link.a, otherEnd: link.b };
}

async function startServer(port: number, lines: string[] = []) {
  const { esxEnd } = esxLink();
  let pid: number | null = null;
  let isListening = false;
  const args = buildServerArgv({ version, bindAddress: esxEnd.address, port, oneOff: true, idleTimeoutSeconds: 30 });
  const done = execStream(target, esxiAgent.serverCommand({ iperf3Path: ESXI_IPERF3_PATH, args }), {
    onStdoutLine: (line) => {
      lines.push(line);
      pid ??= parsePidLine(line);
      if (/Server listening on/.test(line)) isListening = true;
    },
    onStderrLine: (line) => lines.push(`stderr: ${line}`),
  });
  await waitFor(() => isListening, 10_000, `the ESXi stand-in's iperf3 server to listen (${lines.join(" | ")})`);
  return { done, pid: pid! };
}

describe("esxi agent on the ESXi stand-in", () => {
  it("is detected as ESXi with the bundled iperf3 3.12 (BusyBox ash runs the commands)", async () => {
    // A constant probe line: the login shell names itself
    expect((await execCapture(target, { argv: ["echo"], quote: () => "echo $0" })).stdout).toBe("ash");
    const probe = await execCapture(target, PLATFORM_PROBE);
    expect(detectPlatform(probe.stdout)).toBe("esxi");
    const outputs = [];
    for (const command of esxiAgent.detectCommands()) outputs.push(await execCapture(target, command));
    const found = esxiAgent.parseDetect(outputs);
    expect(found).toMatchObject({
      platform: "esxi",
      os: "VMkernel",
      iperf3Path: ESXI_IPERF3_PATH,
      version: { major: 3, minor: 12 },
    });
  });

  it("sees the original refuse to listen, with ESXi's error that lib/iperf explains", async () => {
    const { esxEnd } = esxLink();
    const args = buildServerArgv({ version, bindAddress: esxEnd.address, port: 5401, oneOff: true });
    const result = await execCapture(target, esxiAgent.command([ESXI_IPERF3_PATH, ...args]));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      "iperf3: error - unable to start listener for connections: Operation not permitted",
    );
    const error = classifyIperfError(result.stderr.split("\n")[0]!, "esxi");
    expect(error.kind).toBe("listener-failed");
    expect(error.hint).toContain(".copy");
  });

  it("runs the server from a copy made on demand, and a client from the other end streams through it", async () => {
    await execCapture(target, esxiAgent.command(["rm", "-f", `${ESXI_IPERF3_PATH}.copy`]));
    const { esxEnd, otherEnd } = esxLink();
    const port = 5402;
    const serverLines: string[] = [];
    const server = await startServer(port, serverLines);
    expect(server.pid).toBeGreaterThan(1);
    expect((await execCapture(target, esxiAgent.command(["ls", `${ESXI_IPERF3_PATH}.copy`]))).exitCode).toBe(0);

    const { argv } = buildClientArgv({
      options: { duration: 2, port },
      version,
      serverAddress: esxEnd.address,
      bindAddress: otherEnd.address,
      hostName: otherEnd.host,
    });
    const intervals: string[] = [];
    const client = await execStream(
      labTarget(state, labHost(state, otherEnd.host)),
      linuxAgent.clientCommand({ iperf3Path: "iperf3", args: argv }),
      {
        onStdoutLine: (line) => {
          if (/bits\/sec/.test(line) && !/sender|receiver/.test(line)) intervals.push(line);
        },
      },
    );
    expect(client.exitCode).toBe(0);
    expect(intervals.length).toBeGreaterThanOrEqual(2);
    expect((await server.done).exitCode).toBe(0);
    expect(serverLines.some((l) => /receiver$/.test(l))).toBe(true);
  });

  it("stops its iperf3 by PID, and an aborted channel leaves no iperf3 behind either (no SSH signals under ForceCommand)", async () => {
    const first = await startServer(5403);
    expect(await stopProcess(target, esxiAgent, first.pid)).toEqual({ isStopped: true, signal: "INT" });
    await first.done;
    expect(processesInHost(esx, "-p 5403")).toEqual([]);

    const controller = new AbortController();
    const { esxEnd } = esxLink();
    let pid: number | null = null;
    const args = buildServerArgv({ version, bindAddress: esxEnd.address, port: 5404, oneOff: true });
    const running = execStream(target, esxiAgent.serverCommand({ iperf3Path: ESXI_IPERF3_PATH, args }), {
      signal: controller.signal,
      onStdoutLine: (line) => {
        pid ??= parsePidLine(line);
        if (/Server listening on/.test(line)) controller.abort();
      },
    });
    expect((await running).aborted).toBe(true);
    expect(pid).toBeGreaterThan(1);
    await waitFor(() => processesInHost(esx, "-p 5404").length === 0, 3000, "the aborted server to be gone");
  });

  it("discovers vmnics and vmks from esxcli, with the lab's addresses and MTUs", async () => {
    const result = await execCapture(target, esxiAgent.discoverNicsCommand());
    expect(result.exitCode).toBe(0);
    const nics = esxiAgent.parseNics(result.stdout);
    const { esxEnd } = esxLink();
    const labNic = esx.nics.find((n) => n.name === esxEnd.nic)!;
    const vmk = nics.find((n) => n.addresses.some((a) => a.address === esxEnd.address));
    expect(vmk).toMatchObject({
      mtu: labNic.mtu,
      mac: labNic.mac,
      addresses: [{ address: esxEnd.address, prefixLength: 24, family: "ipv4" }],
    });
    expect(vmk!.name).toMatch(/^vmk\d$/);
    const vmnic = nics.find((n) => n.name === vmk!.name.replace("vmk", "vmnic"));
    expect(vmnic).toMatchObject({ mtu: labNic.mtu, isUp: true, driver: "veth" });
  });

  it("gives each vmk the speed of its vSwitch's uplink, followed through the port group, and names the uplink", async () => {
    const nics = esxiAgent.parseNics((await execCapture(target, esxiAgent.discoverNicsCommand())).stdout);
    const { esxEnd } = esxLink();
    const vmk = nics.find((n) => n.addresses.some((a) => a.address === esxEnd.address))!;
    const vmnic = nics.find((n) => n.name === vmk.name.replace("vmk", "vmnic"))!;
    // The veth's own speed, as the stand-in's nic list reads it from /sys.
    expect(vmnic.speedMbps).toBeGreaterThan(0);
    expect(vmk).toMatchObject({
      speedMbps: vmnic.speedMbps,
      duplex: vmnic.duplex,
      driver: "veth",
      description: `VMkernel on port group lab-${esxEnd.nic} (vSwitch${vmk.name.slice(3)}), uplink ${vmnic.name}: ${vmnic.description}`,
    });
    // The stand-in's vSwitchN has one uplink, vmnicN: every vmkN has its speed (null where that link is down).
    for (const nic of nics.filter((n) => n.name.startsWith("vmk")))
      expect(nic.speedMbps, nic.name).toBe(nics.find((n) => n.name === nic.name.replace("vmk", "vmnic"))!.speedMbps);
  });

  it("reads, opens and restores the firewall, restoring even when the step in between fails", async () => {
    const firewall = esxiAgent.firewall!;
    const before = firewall.parseState(await execCapture(target, firewall.stateCommand()));
    expect(before).toEqual({ enabled: true });
    try {
      await execCapture(target, firewall.setCommand(false));
      expect(firewall.parseState(await execCapture(target, firewall.stateCommand()))).toEqual({ enabled: false });
      throw new Error("the test failed in between");
    } catch (err) {
      expect((err as Error).message).toBe("the test failed in between");
    } finally {
      await execCapture(target, firewall.setCommand(before.enabled));
    }
    expect(firewall.parseState(await execCapture(target, firewall.stateCommand()))).toEqual(before);
  });

  it("passes hostile arguments verbatim through BusyBox ash", async () => {
    const pwned = "/tmp/wirespeed-pwned";
    fs.rmSync(pwned, { force: true });
    for (const text of [
      `$(touch ${pwned})`,
      `\`touch ${pwned}\``,
      `'; touch ${pwned}; '`,
      `"; touch ${pwned}; "`,
      `a\nb;touch ${pwned}`,
      "$HOME * ~",
    ]) {
      expect((await execCapture(target, esxiAgent.command(["printf", "%s", text]))).stdout).toBe(text);
      const wrapped = await execCapture(target, esxiAgent.clientCommand({ iperf3Path: "printf", args: ["%s", text] }));
      expect(wrapped.stdout.split("\n").slice(1).join("\n")).toBe(text);
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });
});
