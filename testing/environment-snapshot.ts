import type { EnvironmentSnapshot, NicEnvironment, TcpSettings } from "@/lib/diagnosis/contract";

/** Fields to change in the snapshot: any of its own, and single fields of its CPU, TCP settings and NIC. */
export type SnapshotChanges = Partial<Omit<EnvironmentSnapshot, "cpu" | "tcp" | "nic">> & {
  cpu?: Partial<EnvironmentSnapshot["cpu"]>;
  tcp?: Partial<TcpSettings>;
  nic?: Partial<NicEnvironment>;
};

/**
 * The environment snapshot of a Debian 12 host with a dual-port Intel X550 (ixgbe) in a PCIe 3.0 x4
 * slot, jumbo frames, Linux's default socket buffers, read in full (nothing missing); `changes`
 * replace the fields a test is about.
 */
export function ixgbeSnapshot({ cpu, tcp, nic, ...changes }: SnapshotChanges = {}): EnvironmentSnapshot {
  return {
    platform: "linux",
    readAt: "2026-12-20T10:00:00.000Z",
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: "6.1.0-18-amd64",
    iperf3Version: "3.12",
    virtualization: "none",
    missing: [],
    ...changes,
    cpu: { model: "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", cores: 28, governor: "performance", ...cpu },
    tcp: {
      congestionControl: "cubic",
      rmemMax: 212_992,
      wmemMax: 212_992,
      tcpRmem: [4096, 131_072, 6_291_456],
      tcpWmem: [4096, 16_384, 4_194_304],
      ...tcp,
    },
    nic: {
      name: "enp1s0f0",
      driver: "ixgbe",
      driverVersion: "5.19.6",
      firmware: "0x80000aee",
      speedMbps: 10_000,
      duplex: "full",
      mtu: 9000,
      pcie: { address: "0000:01:00.0", speedGTs: 8, width: 4, maxSpeedGTs: 8, maxWidth: 8 },
      siblingPorts: [{ name: "enp1s0f1", speedMbps: 10_000 }],
      offloads: { tso: true, gso: true, gro: true, lro: false },
      rings: { rx: 512, tx: 512, rxMax: 4096, txMax: 4096 },
      ...nic,
    },
  };
}
