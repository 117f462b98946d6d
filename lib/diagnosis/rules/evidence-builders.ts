// Runs, snapshots and NICs as lib/diagnosis/reads.ts hands them to the rules, for the rules' unit tests:
// a healthy 10 Gbit/s run between two Linux hosts unless a test says otherwise.
import {
  emptyEnvironment,
  type EnvironmentSnapshot,
  type NicEnvironment,
  type TcpSettings,
} from "@/lib/diagnosis/contract";
import { IperfOptionsSchema, type IperfOptionsInput } from "@/lib/iperf/options";
import type { Platform } from "@/lib/platforms";
import type { ExperimentEvidence, NicFacts, RunEvidence } from "./types";

export function nicFacts(figures: Partial<NicFacts> = {}): NicFacts {
  return {
    name: "enp3s0f0",
    speedMbps: 10_000,
    mtu: 1500,
    pcieLinkSpeed: null,
    pcieLinkWidth: null,
    driver: "ixgbe",
    ...figures,
  };
}

export function nicEnvironment(figures: Partial<NicEnvironment> = {}): NicEnvironment {
  return {
    name: "enp3s0f0",
    driver: "ixgbe",
    driverVersion: "5.19.6",
    firmware: "0x800007f6",
    speedMbps: 10_000,
    duplex: "full",
    mtu: 1500,
    pcie: null,
    siblingPorts: [],
    offloads: { tso: true, gso: true, gro: true, lro: false },
    rings: { rx: 4096, tx: 4096, rxMax: 4096, txMax: 4096 },
    ...figures,
  };
}

/** Linux's defaults: rmem_max and wmem_max 208 KiB, autotuning up to 6 MiB (receive) and 4 MiB (send). */
export const LINUX_TCP_DEFAULTS: TcpSettings = {
  congestionControl: "cubic",
  rmemMax: 212_992,
  wmemMax: 212_992,
  tcpRmem: [4096, 131_072, 6_291_456],
  tcpWmem: [4096, 16_384, 4_194_304],
};

export function snapshot(
  figures: {
    platform?: Platform;
    iperf3Version?: string | null;
    nic?: Partial<NicEnvironment> | null;
    tcp?: Partial<TcpSettings>;
  } = {},
): EnvironmentSnapshot {
  const platform = figures.platform ?? "linux";
  return {
    ...emptyEnvironment(platform),
    readAt: "2026-12-01T10:00:00.000Z",
    iperf3Version: figures.iperf3Version === undefined ? "3.16" : figures.iperf3Version,
    tcp: { ...LINUX_TCP_DEFAULTS, ...figures.tcp },
    nic: figures.nic === null ? null : nicEnvironment(figures.nic),
  };
}

let nextRunId = 100;

/** A run's figures that differ from the healthy default; options as a request gives them. */
export type RunFigures = Partial<Omit<RunEvidence, "options">> & { options?: IperfOptionsInput };

/** A succeeded TCP run at 9.4 Gbit/s over a 10 Gbit/s link, no snapshots, no latency. */
export function runEvidence(figures: RunFigures = {}): RunEvidence {
  const { options, ...rest } = figures;
  return {
    runId: nextRunId++,
    status: "succeeded",
    options: IperfOptionsSchema.parse(options ?? {}),
    clientSide: "a",
    linkSpeedMbps: 10_000,
    receivedBitsPerSecond: 9.4e9,
    reverseReceivedBitsPerSecond: null,
    sentBytes: 11.75e9,
    retransmits: 0,
    reverseSentBytes: null,
    reverseRetransmits: null,
    clientCpuPercent: 30,
    serverCpuPercent: 40,
    environment: null,
    nics: { client: nicFacts({ name: "enp3s0f0" }), server: nicFacts({ name: "eth1" }) },
    latency: null,
    isChannel: false,
    pathCheck: null,
    hosts: { client: { name: "alpha", address: "10.0.10.1" }, server: { name: "nas", address: "10.0.10.2" } },
    opposite: null,
    ...rest,
  };
}

export function experimentEvidence(
  figures: Partial<ExperimentEvidence> & Pick<ExperimentEvidence, "kind" | "result">,
): ExperimentEvidence {
  return { experimentId: 7, linkSpeedMbps: 10_000, runs: [], ...figures };
}
