import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linuxAgent } from "./linux";
import { parseLinuxEnvironment } from "./environment-linux";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "environment", name), "utf8");
const parse = (stdout: string, nic: string) => parseLinuxEnvironment({ exitCode: 0, stdout, stderr: "" }, nic);

describe("Linux environment", () => {
  it("reads a physical host (hand-written): a dual-port ixgbe card at PCIe 2.0 x4 of x8, its other port, ethtool's view", () => {
    expect(parse(fixture("linux-physical-ixgbe-x4.txt"), "enp3s0f0")).toEqual({
      platform: "linux",
      os: "Debian GNU/Linux 12 (bookworm)",
      kernel: "6.1.0-18-amd64",
      virtualization: "none",
      cpu: { model: "Intel(R) Core(TM) i5-6500 CPU @ 3.20GHz", cores: 4, governor: "powersave" },
      tcp: {
        congestionControl: "cubic",
        rmemMax: 212992,
        wmemMax: 212992,
        tcpRmem: [4096, 131072, 6291456],
        tcpWmem: [4096, 16384, 4194304],
      },
      nic: {
        name: "enp3s0f0",
        driver: "ixgbe",
        driverVersion: "6.1.0-18-amd64",
        firmware: "0x61bd0001",
        speedMbps: 10000,
        duplex: "full",
        mtu: 9000,
        pcie: { address: "0000:03:00.0", speedGTs: 5, width: 4, maxSpeedGTs: 5, maxWidth: 8 },
        siblingPorts: [{ name: "enp3s0f1", speedMbps: 10000 }],
        offloads: { tso: true, gso: true, gro: true, lro: false },
        rings: { rx: 512, tx: 512, rxMax: 4096, txMax: 4096 },
      },
      missing: [],
    });
  });

  it("reads a lab host's veth (captured): no PCIe, no rings, ethtool's offloads", () => {
    const env = parse(fixture("linux-lab-veth.txt"), "eth1");
    expect(env).toMatchObject({
      os: "Debian GNU/Linux 12 (bookworm)",
      virtualization: "docker",
      tcp: { congestionControl: "bbr", rmemMax: 4194304 },
    });
    expect(env.nic).toEqual({
      name: "eth1",
      driver: "veth",
      driverVersion: "1.0",
      firmware: null,
      speedMbps: 10000,
      duplex: "full",
      mtu: 9000,
      pcie: null,
      siblingPorts: [],
      offloads: { tso: true, gso: true, gro: false, lro: false },
      rings: null,
    });
    expect(env.missing).toEqual([
      "CPU governor: no cpufreq in /sys (a VM, a container or a fixed-frequency CPU)",
      "PCIe link: eth1 has no device in /sys (a virtual interface)",
      "firmware: veth reports none",
      "ring sizes: netlink error: Operation not supported",
    ]);
  });

  it("reads a KVM guest's virtio_net (captured): no speed, no PCI function of its own", () => {
    const env = parse(fixture("linux-vm-virtio.txt"), "eth0");
    expect(env.virtualization).toBe("kvm");
    expect(env.nic).toMatchObject({
      driver: "virtio_net",
      speedMbps: null,
      duplex: null,
      mtu: 1400,
      pcie: null,
      rings: { rx: 256, tx: 256, rxMax: 256, txMax: 256 },
    });
    expect(env.missing).toEqual(
      expect.arrayContaining([
        "NIC speed: the kernel does not know it (link down, or a virtual NIC)",
        "PCIe link: eth0 is not a PCI function (virtio2)",
      ]),
    );
  });

  it("without ethtool: driver and its version from /sys, and says what ethtool would have told", () => {
    const env = parse(fixture("linux-no-ethtool.txt"), "enp2s0");
    expect(env.nic).toMatchObject({
      driver: "igb",
      driverVersion: "5.6.0-k",
      firmware: null,
      // kernel 5.4 writes "2.5 GT/s"
      pcie: { address: "0000:02:00.0", speedGTs: 2.5, width: 1, maxSpeedGTs: 2.5, maxWidth: 1 },
      siblingPorts: [],
      offloads: { tso: null, gso: null, gro: null, lro: null },
      rings: null,
    });
    expect(env.virtualization).toBeNull();
    expect(env.missing).toEqual([
      "virtualization: systemd-detect-virt is not installed",
      "firmware: ethtool is not installed",
      "offloads: ethtool is not installed",
      "ring sizes: ethtool is not installed",
    ]);
  });

  it("without systemd-detect-virt, a CPU that reports a hypervisor is a VM, named by DMI when it can be", () => {
    const base = fixture("linux-no-ethtool.txt");
    const qemu = base.replace(
      "dmi_vendor=Default string\ndmi_product=Default string",
      "cpu_hypervisor=yes\ndmi_vendor=QEMU\ndmi_product=Standard PC (Q35 + ICH9, 2009)",
    );
    expect(parse(qemu, "enp2s0").virtualization).toBe("kvm");
    expect(
      parse(base.replace("dmi_vendor=Default string", "cpu_hypervisor=yes\ndmi_vendor=Default string"), "enp2s0")
        .virtualization,
    ).toBe("vm-other");
  });

  it("names what the kernel hides from a network namespace, and a NIC that is not there", () => {
    const inNamespace = fixture("linux-physical-ixgbe-x4.txt").replace(
      "core/rmem_max=212992\ncore/wmem_max=212992",
      "core/rmem_max=\ncore/wmem_max=",
    );
    const env = parse(inNamespace, "enp3s0f0");
    expect(env.tcp).toMatchObject({ rmemMax: null, wmemMax: null, tcpRmem: [4096, 131072, 6291456] });
    expect(env.missing).toEqual([
      "net.core.rmem_max, net.core.wmem_max: not readable in /proc/sys/net (another network namespace?)",
    ]);

    const gone = fixture("linux-physical-ixgbe-x4.txt").split("nic=yes")[0]!;
    const without = parse(`${gone}wirespeed-end\n`, "enp9s0");
    expect(without.nic).toBeNull();
    expect(without.os).toBe("Debian GNU/Linux 12 (bookworm)");
    expect(without.missing).toEqual(['NIC: this host has no interface named "enp9s0"']);
  });

  it("reads this machine with the real script: its kernel, and lo as a NIC without a device", () => {
    const command = linuxAgent.environment.command("lo");
    const result = spawnSync(command.argv[0]!, command.argv.slice(1), { encoding: "utf8" });
    const env = linuxAgent.environment.parse(
      { exitCode: result.status, stdout: result.stdout, stderr: result.stderr },
      "lo",
    );
    expect(env.kernel).toBe(os.release());
    expect(env.cpu.cores).toBe(os.cpus().length);
    expect(env.nic).toMatchObject({
      name: "lo",
      mtu: Number(fs.readFileSync("/sys/class/net/lo/mtu", "utf8")),
      pcie: null,
      siblingPorts: [],
    });
    expect(env.missing).toContain("PCIe link: lo has no device in /sys (a virtual interface)");
  });
});
