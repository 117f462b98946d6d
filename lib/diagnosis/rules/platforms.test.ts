// The rules that read the environment, on the samples each platform's reader parses
// (agents/fixtures/environment): one that finds the hint and one that does not, wherever the
// platform tells the field; where it does not (ESXi's PCIe link and socket buffers, Windows'
// buffers, macOS's PCIe speed) the hint never fires.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENTS } from "@/agents";
import type { EnvironmentSnapshot, LatencySummary } from "@/lib/diagnosis/contract";
import type { Platform } from "@/lib/platforms";
import { nicFacts, runEvidence, type RunFigures } from "./evidence-builders";
import { iperf3VersionRule } from "./iperf3-version";
import { mtuMismatchRule } from "./mtu-mismatch";
import { negotiatedSpeedRule } from "./negotiated-speed";
import { pcieSlotRule } from "./pcie-slot";
import { smallBuffersRule } from "./small-buffers";
import { standardFramesRule } from "./standard-frames";
import type { RunEvidence } from "./types";

const ROOT = path.join(__dirname, "..", "..", "..");
const read = (...parts: string[]) => fs.readFileSync(path.join(ROOT, ...parts), "utf8");

/** A recorded sample, its platform and the NIC it was read for. */
const SAMPLES = {
  linuxX520AtX4: { file: "linux-physical-ixgbe-x4.txt", platform: "linux", nic: "enp3s0f0" },
  linuxLabVeth: { file: "linux-lab-veth.txt", platform: "linux", nic: "eth1" },
  linuxI210: { file: "linux-no-ethtool.txt", platform: "linux", nic: "enp2s0" },
  linuxVirtio: { file: "linux-vm-virtio.txt", platform: "linux", nic: "eth0" },
  esxi: { file: "esxi-vmk-10g.txt", platform: "esxi", nic: "vmk1" },
  windows: { file: "windows-server2022-x710.txt", platform: "windows", nic: "Ethernet 3" },
  freebsd: { file: "freebsd-truenas-ix.txt", platform: "freebsd", nic: "ix0" },
  macos: { file: "macos-thunderbolt-en8.txt", platform: "macos", nic: "en8" },
} as const satisfies Record<string, { file: string; platform: Platform; nic: string }>;
type Sample = keyof typeof SAMPLES;

/** The sample through its platform's reader, as the engine stores it. */
function snapshotOf(sample: Sample, iperf3Version: string | null = null): EnvironmentSnapshot {
  const { file, platform, nic } = SAMPLES[sample];
  const host = AGENTS[platform].environment.parse(
    { exitCode: 0, stdout: read("agents", "fixtures", "environment", file), stderr: "" },
    nic,
  );
  return { ...host, readAt: "2026-12-01T10:00:00.000Z", iperf3Version };
}

/** A run between two sampled hosts whose inventory knows nothing: every figure the rules read is the snapshot's. */
function runBetween(
  client: Sample | EnvironmentSnapshot,
  server: Sample | EnvironmentSnapshot,
  figures: RunFigures = {},
): RunEvidence {
  const [clientSnapshot, serverSnapshot] = [client, server].map((end) =>
    typeof end === "string" ? snapshotOf(end) : end,
  ) as [EnvironmentSnapshot, EnvironmentSnapshot];
  const unknown = (name: string) => nicFacts({ name, speedMbps: null, mtu: null, driver: null });
  return runEvidence({
    environment: { client: clientSnapshot, server: serverSnapshot },
    nics: { client: unknown(clientSnapshot.nic?.name ?? "?"), server: unknown(serverSnapshot.nic?.name ?? "?") },
    ...figures,
  });
}

describe("PCIe slot on each platform's sample", () => {
  it("Linux (sysfs): the X520 at PCIe 2.0 x4 of x8 with its other port; the I210 at its full x1", () => {
    expect(pcieSlotRule(runBetween("linuxX520AtX4", "linuxLabVeth"))?.evidence).toBe(
      "The client's enp3s0f0 sits in a PCIe 2.0 x4 link, which gives about 16 Gbit/s; the card can do PCIe 2.0 x8 (about 32 Gbit/s); its two ports (10 Gbit/s each) carry 20 Gbit/s.",
    );
    expect(
      pcieSlotRule(runBetween("linuxI210", "linuxLabVeth", { linkSpeedMbps: 1000, receivedBitsPerSecond: 941e6 })),
    ).toBeNull();
  });

  it("FreeBSD (pciconf): the same card linked at x4 on TrueNAS; Windows (Get-NetAdapterHardwareInfo): the X710 at its full PCIe 3.0 x8", () => {
    const found = pcieSlotRule(runBetween("windows", "freebsd"));
    expect(found?.severity).toBe("warning");
    expect(found?.evidence).toBe(
      "The server's ix0 sits in a PCIe 2.0 x4 link, which gives about 16 Gbit/s; the card can do PCIe 2.0 x8 (about 32 Gbit/s); its two ports (10 Gbit/s each) carry 20 Gbit/s.",
    );
    expect(pcieSlotRule(runBetween("windows", "linuxLabVeth"))).toBeNull();
  });

  it("ESXi and macOS do not tell the link's speed: no finding", () => {
    expect(snapshotOf("esxi").nic?.pcie?.speedGTs).toBeNull();
    expect(snapshotOf("macos").nic?.pcie?.speedGTs).toBeNull();
    expect(pcieSlotRule(runBetween("esxi", "macos", { receivedBitsPerSecond: 3e9 }))).toBeNull();
  });
});

describe("MTU mismatch and standard frames on each platform's sample", () => {
  it("finds jumbo frames at one end and 1500 or 1400 at the other, with each platform's command", () => {
    expect(mtuMismatchRule(runBetween("linuxX520AtX4", "linuxI210"))?.evidence).toBe(
      "The client's enp3s0f0 has MTU 9000, the server's enp2s0 MTU 1500.",
    );
    expect(mtuMismatchRule(runBetween("esxi", "linuxVirtio"))?.suggestion).toContain(
      "lower the client's vmk1 to 1400 (esxcli network ip interface set -i vmk1 -m 1400)",
    );
    expect(mtuMismatchRule(runBetween("windows", "linuxI210"))?.suggestion).toContain(
      'lower the client\'s Ethernet 3 to 1500 (Set-NetAdapterAdvancedProperty -Name "Ethernet 3" -RegistryKeyword "*JumboPacket" -RegistryValue 1514)',
    );
    expect(mtuMismatchRule(runBetween("macos", "linuxI210"))?.suggestion).toContain(
      "lower the client's en8 to 1500 (ifconfig en8 mtu 1500)",
    );
    expect(mtuMismatchRule(runBetween("freebsd", "linuxVirtio"))?.suggestion).toContain(
      "lower the client's ix0 to 1400 (ifconfig ix0 mtu 1400)",
    );
  });

  it("finds nothing between samples that all use 9000", () => {
    expect(mtuMismatchRule(runBetween("esxi", "windows"))).toBeNull();
    expect(mtuMismatchRule(runBetween("freebsd", "macos"))).toBeNull();
    expect(mtuMismatchRule(runBetween("linuxX520AtX4", "linuxLabVeth"))).toBeNull();
  });

  it("suggests jumbo frames on a 10G link for the 1500 and 1400 samples, not for the 9000 ones", () => {
    expect(standardFramesRule(runBetween("linuxI210", "linuxVirtio"))?.evidence).toMatch(
      /^MTU 1500 on the client's enp2s0 and 1400 on the server's eth0 of a 10 Gbit\/s link/,
    );
    for (const [client, server] of [
      ["esxi", "windows"],
      ["freebsd", "macos"],
      ["linuxX520AtX4", "linuxLabVeth"],
    ] as const) {
      expect(standardFramesRule(runBetween(client, server))).toBeNull();
    }
  });
});

describe("negotiated speed on each platform's sample", () => {
  it("finds the I210's 1 Gbit/s on a 10G link, and the 10G samples on a 25G one", () => {
    expect(negotiatedSpeedRule(runBetween("linuxI210", "linuxLabVeth"))?.evidence).toBe(
      "The client's enp2s0 negotiated 1 Gbit/s on a 10 Gbit/s link.",
    );
    for (const [client, server] of [
      ["esxi", "windows"],
      ["freebsd", "macos"],
    ] as const) {
      const found = negotiatedSpeedRule(
        runBetween(client, server, { linkSpeedMbps: 25_000, receivedBitsPerSecond: 9.4e9 }),
      );
      expect(found?.severity).toBe("critical");
      expect(found?.evidence).toMatch(
        /negotiated 10 Gbit\/s and the server's .* negotiated 10 Gbit\/s on a 25 Gbit\/s link/,
      );
    }
  });

  it("finds nothing where the samples negotiated the link's speed, or where a VM's NIC says none", () => {
    for (const [client, server] of [
      ["esxi", "windows"],
      ["freebsd", "macos"],
      ["linuxX520AtX4", "linuxLabVeth"],
    ] as const) {
      expect(negotiatedSpeedRule(runBetween(client, server))).toBeNull();
    }
    expect(snapshotOf("linuxVirtio").nic?.speedMbps).toBeNull();
    expect(negotiatedSpeedRule(runBetween("linuxVirtio", "linuxVirtio"))).toBeNull();
  });
});

describe("small buffers on each platform's sample", () => {
  const latency = (ms: number): LatencySummary => ({
    idleMedianMs: 0.2,
    idleP95Ms: 0.3,
    loadedMedianMs: ms,
    loadedP95Ms: ms,
    grade: "A",
    sent: 75,
    lost: 0,
  });
  const short = { receivedBitsPerSecond: 3e9 };

  it("Linux: Debian's 208 KiB rmem_max caps a -w run; the lab's 4 MiB does not", () => {
    const found = smallBuffersRule(
      runBetween("linuxX520AtX4", "linuxX520AtX4", { ...short, options: { window: 4_194_304 } }),
    );
    expect(found?.evidence).toContain(
      "the server's net.core.rmem_max (213 kB) and the client's net.core.wmem_max (213 kB) are below it",
    );
    expect(found?.suggestion).toContain("on the server, sysctl -w net.core.rmem_max=4194304");
    expect(
      smallBuffersRule(runBetween("linuxLabVeth", "linuxLabVeth", { ...short, options: { window: 4_194_304 } })),
    ).toBeNull();
    // without -w autotuning grows to 6 MiB and 4 MiB: enough for 1.25 MB
    expect(smallBuffersRule(runBetween("linuxX520AtX4", "linuxX520AtX4", short))).toBeNull();
  });

  it("FreeBSD: TrueNAS's 2 MiB limits at 2 ms, not at the assumed 1 ms", () => {
    const found = smallBuffersRule(runBetween("freebsd", "freebsd", { ...short, latency: latency(2) }));
    expect(found?.severity).toBe("critical");
    expect(found?.evidence).toContain(
      "the server's net.inet.tcp.recvbuf_max (2.1 MB), the server's kern.ipc.maxsockbuf (2.1 MB), the client's net.inet.tcp.sendbuf_max (2.1 MB) and the client's kern.ipc.maxsockbuf (2.1 MB) are below it",
    );
    expect(found?.suggestion).toContain("sysctl net.inet.tcp.recvbuf_max=8388608 kern.ipc.maxsockbuf=8388608");
    expect(smallBuffersRule(runBetween("freebsd", "freebsd", short))).toBeNull();
  });

  it("macOS: 4 MiB of autotuning at 4 ms, not at the assumed 1 ms", () => {
    const found = smallBuffersRule(runBetween("macos", "macos", { ...short, latency: latency(4) }));
    expect(found?.evidence).toContain(
      "the server's net.inet.tcp.autorcvbufmax (4.19 MB) and the client's net.inet.tcp.autosndbufmax (4.19 MB) are below it",
    );
    expect(smallBuffersRule(runBetween("macos", "macos", short))).toBeNull();
  });

  it("ESXi and Windows do not tell their buffers: no finding, however far the run fell short", () => {
    expect(
      smallBuffersRule(runBetween("esxi", "windows", { receivedBitsPerSecond: 1e8, latency: latency(50) })),
    ).toBeNull();
  });
});

describe("iperf3 version from each platform's detection", () => {
  // the real `iperf3 -v` of lib/iperf's fixtures (3.12), as the Linux agent's detection prints it
  const linuxDetect = `wirespeed-os Linux\nwirespeed-iperf3 /usr/bin/iperf3\nwirespeed-version\n${read("lib", "iperf", "fixtures", "real", "version.stdout.txt")}`;
  const versionOf = (platform: Platform, stdouts: string[], iperf3Path?: string) =>
    AGENTS[platform].parseDetect(
      stdouts.map((stdout) => ({ exitCode: 0, stdout, stderr: "" })),
      iperf3Path,
    ).version?.raw ?? null;
  const fast = { linkSpeedMbps: 40_000, receivedBitsPerSecond: 21e9, options: { parallel: 8 } };

  it("finds Debian's 3.12 and the Cygwin build's 3.1.3 on Windows at 40 Gbit/s", () => {
    const linux = versionOf("linux", [linuxDetect]);
    const windows = versionOf(
      "windows",
      [
        "\r\nMicrosoft Windows [Version 10.0.20348.2340]\r\n",
        "iperf 3.1.3\r\nCYGWIN_NT-10.0 WIN 2.5.1(0.297/5/3) 2016-04-21 22:14 x86_64\r\n",
      ],
      "C:\\iperf3\\iperf3.exe",
    );
    expect([linux, windows]).toEqual(["3.12", "3.1.3"]);
    const found = iperf3VersionRule(
      runBetween(snapshotOf("linuxLabVeth", linux), snapshotOf("windows", windows), fast),
    );
    expect(found?.severity).toBe("critical");
    expect(found?.evidence).toMatch(/^iperf3 3\.12 on the client and 3\.1\.3 on the server: before 3\.16/);
  });

  it("finds nothing with Homebrew's 3.17.1 on macOS, or on a 10G link", () => {
    const macos = versionOf("macos", [
      "wirespeed-os Darwin\nwirespeed-iperf3 /opt/homebrew/bin/iperf3\nwirespeed-version\niperf 3.17.1 (cJSON 1.7.15)\n",
    ]);
    expect(macos).toBe("3.17.1");
    expect(iperf3VersionRule(runBetween(snapshotOf("macos", macos), snapshotOf("macos", macos), fast))).toBeNull();
    const linux = versionOf("linux", [linuxDetect]);
    expect(
      iperf3VersionRule(
        runBetween(snapshotOf("linuxLabVeth", linux), snapshotOf("linuxLabVeth", linux), {
          receivedBitsPerSecond: 5e9,
        }),
      ),
    ).toBeNull();
  });
});
