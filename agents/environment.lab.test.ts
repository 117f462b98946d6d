/**
 * Environment snapshots read over real SSH from the lab: a Linux namespace host's veth (driver, MTU and
 * offloads as ethtool reports them inside that namespace) and the ESXi stand-in's vmk, answered by its
 * esxcli (testing/lab/esxi-standin). WIRESPEED_RECORD_FIXTURES=1 writes the Linux output to
 * agents/fixtures/environment/linux-lab-veth.txt.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labHost, labLink, labTarget, requireLabState } from "@/testing/lab-targets";
import type { LabHost, LabState } from "@/testing/lab-state";
import { closeAll, execCapture } from "@/lib/ssh";
import { esxiAgent, linuxAgent } from "@/agents";

let state: LabState;

beforeAll(() => {
  state = requireLabState();
});

afterAll(async () => {
  await closeAll();
});

/** A command run inside the host's network namespace from the outside, for comparison. */
function inHost(host: LabHost, argv: string[]): string {
  const result = spawnSync("ip", ["netns", "exec", host.netns, ...argv], { encoding: "utf8" });
  return result.stdout;
}

/** ethtool -k's state of one offload of a lab device, read independently of the agent. */
function offloadInHost(host: LabHost, nic: string, feature: string): boolean | null {
  const match = new RegExp(`^${feature}: (on|off)`, "m").exec(inHost(host, ["ethtool", "-k", nic]));
  return match ? match[1] === "on" : null;
}

const osPrettyName = () => /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(fs.readFileSync("/etc/os-release", "utf8"))?.[1] ?? null;

describe("environment of a Linux lab host", () => {
  it("reads a veth of a link: driver veth, the link's MTU, ethtool's offloads, no PCIe", async () => {
    const alpha = labHost(state, "alpha");
    const link = labLink(state, "ab-1g");
    const result = await execCapture(labTarget(state, alpha), linuxAgent.environment.command(link.a.nic));
    expect(result.exitCode, result.stderr).toBe(0);
    if (process.env.WIRESPEED_RECORD_FIXTURES === "1") {
      const header = `# captured from a Wirespeed lab host (veth ${link.a.nic} of link ${link.name}, MTU ${link.mtu}, in a network namespace; Debian 12) with linuxAgent.environment.command(${JSON.stringify(link.a.nic)})\n`;
      fs.writeFileSync(path.join(__dirname, "fixtures", "environment", "linux-lab-veth.txt"), header + result.stdout);
    }
    const env = linuxAgent.environment.parse(result, link.a.nic);
    console.log(JSON.stringify(env, null, 2));

    expect(env).toMatchObject({ platform: "linux", os: osPrettyName(), kernel: os.release() });
    expect(env.nic).toMatchObject({ name: link.a.nic, driver: "veth", mtu: link.mtu, pcie: null, siblingPorts: [] });
    for (const [key, feature] of [
      ["tso", "tcp-segmentation-offload"],
      ["gso", "generic-segmentation-offload"],
      ["gro", "generic-receive-offload"],
      ["lro", "large-receive-offload"],
    ] as const) {
      expect(env.nic!.offloads[key], feature).toBe(offloadInHost(alpha, link.a.nic, feature));
      expect(env.nic!.offloads[key], feature).not.toBeNull();
    }
    expect(env.tcp.congestionControl).toBe(inHost(alpha, ["cat", "/proc/sys/net/ipv4/tcp_congestion_control"]).trim());
    expect(env.missing.some((m) => m.startsWith("PCIe link:"))).toBe(true);
  });

  it("reads another link's MTU from the same host", async () => {
    const link = labLink(state, "ab-2g5");
    const env = linuxAgent.environment.parse(
      await execCapture(labTarget(state, labHost(state, "alpha")), linuxAgent.environment.command(link.a.nic)),
      link.a.nic,
    );
    expect(env.nic).toMatchObject({ name: link.a.nic, mtu: link.mtu, driver: "veth" });
  });

  it("keeps a hostile NIC name as data: no interface of that name, nothing run", async () => {
    const pwned = "/tmp/wirespeed-env-pwned";
    fs.rmSync(pwned, { force: true });
    const alpha = labHost(state, "alpha");
    for (const name of [
      `$(touch ${pwned})`,
      `eth1; touch ${pwned}`,
      `'; touch ${pwned}; '`,
      `eth1\ntouch ${pwned}`,
      "../../../etc",
    ]) {
      const env = linuxAgent.environment.parse(
        await execCapture(labTarget(state, alpha), linuxAgent.environment.command(name)),
        name,
      );
      expect(env.nic, JSON.stringify(name)).toBeNull();
      expect(env.missing).toContain(`NIC: this host has no interface named ${JSON.stringify(name)}`);
      expect(env.kernel).toBe(os.release());
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });
});

describe("environment of the ESXi stand-in", () => {
  it("follows the vmk of a link to its vSwitch's uplink and reads it with esxcli", async () => {
    const esx = state.hosts.find((h) => h.flavor === "esxi");
    if (!esx)
      throw new Error(
        "the lab has no esxi-flavored host: use the default topology (testing/lab/topology.json), which has one",
      );
    const link = state.links.find((l) => l.a.host === esx.name || l.b.host === esx.name)!;
    const end = link.a.host === esx.name ? link.a : link.b;
    const target = labTarget(state, esx);
    const vmk = esxiAgent
      .parseNics((await execCapture(target, esxiAgent.discoverNicsCommand())).stdout)
      .find((n) => n.addresses.some((a) => a.address === end.address));
    expect(vmk?.name).toMatch(/^vmk\d$/);

    const result = await execCapture(target, esxiAgent.environment.command(vmk!.name));
    expect(result.exitCode, result.stderr).toBe(0);
    const env = esxiAgent.environment.parse(result, vmk!.name);
    console.log(JSON.stringify(env, null, 2));

    const cpuinfo = fs.readFileSync("/proc/cpuinfo", "utf8");
    expect(env).toMatchObject({
      platform: "esxi",
      os: "VMware ESXi 8.0.2 build-22380479",
      kernel: "8.0.2",
      virtualization: "none",
      cpu: {
        model: /^model name\s*: (.*)$/m.exec(cpuinfo)?.[1] ?? null,
        cores: cpuinfo.match(/^processor\s*:/gm)?.length,
        governor: null,
      },
      tcp: {
        congestionControl: inHost(esx, ["cat", "/proc/sys/net/ipv4/tcp_congestion_control"]).trim(),
        rmemMax: null,
      },
    });
    const vmnic = vmk!.name.replace("vmk", "vmnic");
    const sysSpeed = Number.parseInt(inHost(esx, ["cat", `/sys/class/net/${end.nic}/speed`]), 10);
    expect(env.nic).toMatchObject({
      name: vmk!.name,
      mtu: link.mtu,
      driver: "veth",
      firmware: null,
      speedMbps: sysSpeed > 0 ? sysSpeed : null,
      pcie: { address: `0000:0${vmnic.slice(5)}:00.0`, speedGTs: null, width: null },
      siblingPorts: [],
    });
    expect(env.nic!.driverVersion).toBe(/^version: (.*)$/m.exec(inHost(esx, ["ethtool", "-i", end.nic]))?.[1] ?? "1.0");
    expect(env.nic!.offloads).toMatchObject({
      tso: offloadInHost(esx, end.nic, "tcp-segmentation-offload"),
      lro: true,
      gso: null,
      gro: null,
    });
    expect(env.missing).toEqual(
      expect.arrayContaining(["PCIe link: not reported on ESXi", "socket buffer limits: not exposed by esxcli"]),
    );
  });

  it("keeps a hostile NIC name as data in BusyBox ash and its awk", async () => {
    const pwned = "/tmp/wirespeed-env-esx-pwned";
    fs.rmSync(pwned, { force: true });
    const esx = state.hosts.find((h) => h.flavor === "esxi")!;
    for (const name of [
      `$(touch ${pwned})`,
      `vmk1"; system("touch ${pwned}"); "`,
      `vmk1\ntouch ${pwned}`,
      `vmnic1; touch ${pwned}`,
    ]) {
      const env = esxiAgent.environment.parse(
        await execCapture(labTarget(state, esx), esxiAgent.environment.command(name)),
        name,
      );
      expect(env.nic, JSON.stringify(name)).toBeNull();
      expect(env.os).toBe("VMware ESXi 8.0.2 build-22380479");
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });

  it("pings with BusyBox's ping, as ESXi's is", async () => {
    const esx = state.hosts.find((h) => h.flavor === "esxi")!;
    const link = state.links.find((l) => l.a.host === esx.name || l.b.host === esx.name)!;
    const other = link.a.host === esx.name ? link.b : link.a;
    const result = await execCapture(
      labTarget(state, esx),
      esxiAgent.command(["ping", "-c", "1", "-W", "2", other.address]),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    // BusyBox says "seq=0"; iputils would say "icmp_seq=1".
    expect(result.stdout).toMatch(/bytes from .*: seq=0 ttl=\d+ time=[\d.]+ ms/);
  });
});
