import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENTS } from "./index";
import { COUNTERS_AFTER, COUNTERS_BEFORE, CounterBlocks } from "./process";

/** A fixture's text without its comment line on top. */
function fixture(name: string): string {
  const text = fs.readFileSync(path.join(__dirname, "fixtures", "counters", name), "utf8");
  return text.replace(/^# .*\n/, "");
}

describe("each platform's NIC counters", () => {
  it("Linux: /sys/class/net/IF/statistics, null for a NIC that is not there", () => {
    const { counters } = AGENTS.linux;
    expect(counters.parse(fixture("linux-lab-veth.txt"), "eth1")).toEqual({ txBytes: 656, rxBytes: 656 });
    expect(counters.parse(fixture("linux-no-such-nic.txt"), "eth99")).toBeNull();
    expect(counters.parse("", "eth1")).toBeNull();
  });

  it("Linux: the command reads this machine's loopback, its name as data", () => {
    const command = AGENTS.linux.counters.command("lo");
    expect(command.argv.slice(-1)).toEqual(["lo"]);
    const res = spawnSync("sh", ["-c", command.quote(command.argv)], { encoding: "utf8" });
    expect(AGENTS.linux.counters.parse(res.stdout, "lo")).toEqual({
      txBytes: expect.any(Number) as number,
      rxBytes: expect.any(Number) as number,
    });
  });

  it("FreeBSD and macOS: the link-level row of netstat -I IF -b, by column name from the row's end", () => {
    expect(AGENTS.freebsd.counters.parse(fixture("freebsd-netstat-ix0.txt"), "ix0")).toEqual({
      txBytes: 1_398_765_432_109,
      rxBytes: 2_700_912_345_678,
    });
    // No MAC: the Address column is empty, and the figures are still found.
    expect(AGENTS.freebsd.counters.parse(fixture("freebsd-netstat-wg0.txt"), "wg0")).toEqual({
      txBytes: 7_890_123,
      rxBytes: 6_789_012,
    });
    expect(AGENTS.macos.counters.parse(fixture("macos-netstat-en8.txt"), "en8")).toEqual({
      txBytes: 3_412_345_678,
      rxBytes: 139_812_345_678,
    });
    expect(AGENTS.macos.counters.parse("netstat: interface en99 does not exist", "en99")).toBeNull();
    expect(AGENTS.freebsd.counters.command("ix0").argv.slice(-1)).toEqual(["ix0"]);
  });

  it("ESXi: esxcli network nic stats get of the vmk's uplink; null where it has none", () => {
    expect(AGENTS.esxi.counters.parse(fixture("esxi-vmk1.txt"), "vmk1")).toEqual({
      txBytes: 2_910_238_812,
      rxBytes: 4_013_258_832,
    });
    expect(AGENTS.esxi.counters.parse(fixture("esxi-vmk9-no-uplink.txt"), "vmk9")).toBeNull();
    expect(AGENTS.esxi.counters.script).toContain("esxcli network nic stats get");
  });

  it("Windows: Get-NetAdapterStatistics of every adapter, the NIC picked by name, which never reaches the host", () => {
    const { counters } = AGENTS.windows;
    expect(counters.parse(fixture("windows-server2022.txt"), "Ethernet 3")).toEqual({
      txBytes: 1_398_765_432_109,
      rxBytes: 2_700_912_345_678,
    });
    expect(counters.parse(fixture("windows-server2022.txt"), "Ethernet 9")).toBeNull();
    // One adapter: PowerShell writes an object, not an array.
    expect(counters.parse('{"Name":"Ethernet","SentBytes":5,"ReceivedBytes":7}', "Ethernet")).toEqual({
      txBytes: 5,
      rxBytes: 7,
    });
    expect(counters.parse("Get-NetAdapterStatistics : not recognized", "Ethernet")).toBeNull();
    const command = counters.command("$(evil)");
    expect(command.quote(command.argv)).not.toContain("evil");
    // cmd.exe cannot print around a program: the engine reads Windows' counters with their own command.
    expect(counters.script).toBeUndefined();
  });

  it("every POSIX platform's start commands carry its reader; the readings come out of the output as it streams", () => {
    for (const agent of [AGENTS.linux, AGENTS.freebsd, AGENTS.macos, AGENTS.esxi]) {
      const counters = { nicName: "eth1", script: agent.counters.script! };
      for (const command of [
        agent.serverCommand({ iperf3Path: "iperf3", args: ["-s"], counters }),
        agent.clientCommand({ iperf3Path: "iperf3", args: ["-c", "x"], gated: true, counters }),
      ]) {
        const script = command.argv[2]!;
        expect(script.indexOf(COUNTERS_BEFORE)).toBeLessThan(script.indexOf(COUNTERS_AFTER));
        expect(script).toContain(agent.counters.script!);
        expect(command.argv[4]).toBe("eth1");
      }
    }
    const blocks = new CounterBlocks();
    const lines = ["wirespeed-counters-before\r", "tx=1", "rx=2", "wirespeed-counters-end", "[  5] 0.00-1.00 sec"];
    expect(lines.filter((line) => !blocks.push(line))).toEqual(["[  5] 0.00-1.00 sec"]);
    expect(blocks).toMatchObject({ before: "tx=1\nrx=2", after: null });
  });
});
