import { describe, expect, it } from "vitest";
import { ixgbeSnapshot } from "@/testing/environment-snapshot";
import { emptyEnvironment, type EnvironmentSnapshot } from "./contract";
import {
  environmentRows,
  formatBuffer,
  formatBufferTriple,
  formatOffloads,
  formatPcie,
  pcieGeneration,
  usablePcieGbps,
} from "./format";

describe("PCIe", () => {
  it("names the generation of each rate, and nothing for another", () => {
    expect([2.5, 5, 8, 16, 32, 64].map(pcieGeneration)).toEqual(["1.0", "2.0", "3.0", "4.0", "5.0", "6.0"]);
    expect(pcieGeneration(8.0)).toBe("3.0");
    expect(pcieGeneration(12)).toBeNull();
    expect(pcieGeneration(null)).toBeNull();
  });

  it("counts what a link carries after its encoding: PCIe 2.0 x4 is the issue's 16 Gbit/s", () => {
    expect(usablePcieGbps(5, 4)).toBe(16);
    expect(usablePcieGbps(2.5, 1)).toBe(2);
    expect(usablePcieGbps(8, 8)).toBeCloseTo(63.02, 2);
    expect(usablePcieGbps(16, 16)).toBeCloseTo(252.06, 2);
    expect(usablePcieGbps(null, 4)).toBeNull();
    expect(usablePcieGbps(8, null)).toBeNull();
    expect(usablePcieGbps(8, 0)).toBeNull();
  });

  it("says what the slot runs at, and what the card can when it can do more", () => {
    const link = { address: null, speedGTs: 5, width: 4, maxSpeedGTs: 8, maxWidth: 8 };
    expect(formatPcie(link)).toBe("PCIe 2.0 x4 (card: 3.0 x8)");
    expect(formatPcie({ ...link, speedGTs: 8, width: 8 })).toBe("PCIe 3.0 x8");
    expect(formatPcie({ ...link, speedGTs: 8, width: 8, maxSpeedGTs: null, maxWidth: null })).toBe("PCIe 3.0 x8");
    expect(formatPcie({ ...link, speedGTs: 8, maxSpeedGTs: null })).toBe("PCIe 3.0 x4 (card: 3.0 x8)");
    expect(formatPcie({ ...link, speedGTs: 12, width: 8, maxSpeedGTs: 12, maxWidth: 8 })).toBe("12 GT/s x8");
    expect(formatPcie({ address: null, speedGTs: null, width: null, maxSpeedGTs: null, maxWidth: null })).toBe(
      "unknown",
    );
    expect(formatPcie(null)).toBe("unknown");
  });
});

describe("sizes, speeds, offloads", () => {
  it("writes buffers in the unit they divide into", () => {
    expect(formatBuffer(212_992)).toBe("208 KiB");
    expect(formatBuffer(6_291_456)).toBe("6 MiB");
    expect(formatBuffer(1000)).toBe("1000 bytes");
    expect(formatBuffer(null)).toBe("unknown");
    expect(formatBufferTriple([4096, 131_072, 6_291_456])).toBe("4 KiB / 128 KiB / 6 MiB");
    expect(formatBufferTriple(null)).toBe("unknown");
  });

  it("lists the offloads that are known", () => {
    expect(formatOffloads({ tso: true, gso: true, gro: true, lro: false })).toBe("TSO on, GSO on, GRO on, LRO off");
    expect(formatOffloads({ tso: true, gso: null, gro: false, lro: null })).toBe("TSO on, GRO off");
    expect(formatOffloads({ tso: null, gso: null, gro: null, lro: null })).toBe("unknown");
  });
});

describe("environmentRows", () => {
  it("words every field of a snapshot, in a fixed order", () => {
    const rows = environmentRows(ixgbeSnapshot());
    expect(Object.fromEntries(rows.map((row) => [row.key, `${row.label}: ${row.value}`]))).toEqual({
      os: "OS: Debian GNU/Linux 12 (bookworm)",
      kernel: "Kernel: 6.1.0-18-amd64",
      iperf3: "iperf3: 3.12",
      virtualization: "Virtualization: bare metal",
      "cpu.model": "CPU: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz",
      "cpu.cores": "CPU cores: 28",
      "cpu.governor": "CPU governor: performance",
      "nic.name": "NIC: enp1s0f0",
      "nic.driver": "Driver: ixgbe 5.19.6",
      "nic.firmware": "Firmware: 0x80000aee",
      "nic.speed": "Link speed: 10 Gbit/s",
      "nic.duplex": "Duplex: full",
      "nic.mtu": "MTU: 9000",
      "nic.pcie": "PCIe: 3.0 x4 (card: 3.0 x8)",
      "nic.siblings": "Other ports of the card: enp1s0f1 (10 Gbit/s)",
      "nic.offload.tso": "TSO: on",
      "nic.offload.gso": "GSO: on",
      "nic.offload.gro": "GRO: on",
      "nic.offload.lro": "LRO: off",
      "nic.ring.rx": "RX ring: 512 (max 4096)",
      "nic.ring.tx": "TX ring: 512 (max 4096)",
      "tcp.congestion": "Congestion control: cubic",
      "tcp.rmemMax": "Max receive buffer: 208 KiB",
      "tcp.wmemMax": "Max send buffer: 208 KiB",
      "tcp.rmem": "TCP receive buffers (min / default / max): 4 KiB / 128 KiB / 6 MiB",
      "tcp.wmem": "TCP send buffers (min / default / max): 4 KiB / 16 KiB / 4 MiB",
    });
  });

  it("keeps the same keys for a snapshot that read nothing, every value unknown", () => {
    const empty: EnvironmentSnapshot = {
      ...emptyEnvironment("windows", ["everything: the host did not answer"]),
      readAt: "2026-12-20T10:00:00.000Z",
      iperf3Version: null,
    };
    const rows = environmentRows(empty);
    expect(rows.map((row) => row.key)).toEqual(environmentRows(ixgbeSnapshot()).map((row) => row.key));
    expect(new Set(rows.map((row) => row.value))).toEqual(new Set(["unknown"]));
  });

  it("says a card has no other port, a driver without its version, a VM's hypervisor", () => {
    const host = ixgbeSnapshot();
    const rows = environmentRows({
      ...host,
      virtualization: "kvm",
      nic: {
        ...host.nic!,
        driverVersion: null,
        siblingPorts: [],
        rings: { rx: 256, tx: null, rxMax: null, txMax: null },
      },
    });
    const value = (key: string) => rows.find((row) => row.key === key)?.value;
    expect([
      value("virtualization"),
      value("nic.driver"),
      value("nic.siblings"),
      value("nic.ring.rx"),
      value("nic.ring.tx"),
    ]).toEqual(["kvm", "ixgbe", "none", "256", "unknown"]);
  });
});
