import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freebsdAgent } from "./freebsd";
import { macosAgent } from "./macos";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "environment", name), "utf8");
const FREEBSD = fixture("freebsd-truenas-ix.txt");
const MACOS = fixture("macos-thunderbolt-en8.txt");
const freebsd = (stdout: string, nic: string) =>
  freebsdAgent.environment.parse({ exitCode: 0, stdout, stderr: "" }, nic);
const macos = (stdout: string, nic: string) => macosAgent.environment.parse({ exitCode: 0, stdout, stderr: "" }, nic);

describe("FreeBSD environment (hand-written in TrueNAS CORE 13's format)", () => {
  it("reads ix0: pciconf's x4 of x8 at 5.0 GT/s, the card's other port, TSO on and LRO off, iflib's driver version", () => {
    expect(freebsd(FREEBSD, "ix0")).toEqual({
      platform: "freebsd",
      os: "TrueNAS-13.0-U6.1 (1d8b1ee5a8)",
      kernel: "13.1-RELEASE-p9",
      virtualization: "none",
      cpu: { model: "Intel(R) Xeon(R) CPU E3-1230 v5 @ 3.40GHz", cores: 8, governor: null },
      // maxsockbuf caps every socket buffer; auto-tuning grows from *space to *buf_max
      tcp: {
        congestionControl: "newreno",
        rmemMax: 2097152,
        wmemMax: 2097152,
        tcpRmem: [65536, 65536, 2097152],
        tcpWmem: [32768, 32768, 2097152],
      },
      nic: {
        name: "ix0",
        driver: "ix",
        driverVersion: "4.0.1-k",
        firmware: "Option ROM V1-b1524-p0 eTrack 0x800004d0",
        speedMbps: 10000,
        duplex: "full",
        mtu: 9000,
        // pciconf's bus 24 is decimal
        pcie: { address: "0000:18:00.0", speedGTs: 5, width: 4, maxSpeedGTs: 5, maxWidth: 8 },
        siblingPorts: [{ name: "ix1", speedMbps: 10000 }],
        offloads: { tso: true, gso: null, gro: null, lro: false },
        rings: null,
      },
      missing: [
        "CPU governor: none on FreeBSD (powerd, if it runs, sets the frequency)",
        "GSO, GRO: not BSD interface options",
        "ring sizes: not read on FreeBSD",
      ],
    });
  });

  it("reads a plain FreeBSD guest on Hyper-V: its userland for the OS, hv as microsoft", () => {
    const guest = FREEBSD.replace("truenas=TrueNAS-13.0-U6.1 (1d8b1ee5a8)", "truenas=").replace(
      "kern.vm_guest=none",
      "kern.vm_guest=hv",
    );
    expect(freebsd(guest, "ix0")).toMatchObject({ os: "FreeBSD 13.1-RELEASE-p9", virtualization: "microsoft" });
  });

  it("reads igb0 on its own bus with LRO on; a PCIe link only from pciconf's answer about igb0 itself", () => {
    const env = freebsd(FREEBSD, "igb0");
    expect(env.nic).toMatchObject({ speedMbps: 1000, mtu: 1500, offloads: { tso: true, lro: true }, siblingPorts: [] });
    // this sample's pciconf -lc is ix0's
    expect(env.nic!.pcie).toEqual({
      address: "0000:05:00.0",
      speedGTs: null,
      width: null,
      maxSpeedGTs: null,
      maxWidth: null,
    });
    expect(env.missing.some((m) => m.startsWith("PCIe link: pciconf -lc igb0 shows no PCI Express link"))).toBe(true);
  });

  it("says so when pciconf may not read the bus (a user without access to /dev/pci)", () => {
    const denied = FREEBSD.replace(
      /wirespeed-pciconf\n[\s\S]*?wirespeed-end/,
      "wirespeed-pciconf\npciconf: /dev/pci: Permission denied\nwirespeed-pciconf-caps\npciconf: /dev/pci: Permission denied\nwirespeed-end",
    );
    const env = freebsd(denied, "ix0");
    expect(env.nic).toMatchObject({ speedMbps: 10000, pcie: null, siblingPorts: [] });
    expect(env.missing).toContain(
      "PCIe link: pciconf lists no device named ix0 (pciconf: /dev/pci: Permission denied)",
    );
  });

  it("has no NIC for a name ifconfig does not list", () => {
    const env = freebsd(FREEBSD, "vtnet0");
    expect(env.nic).toBeNull();
    expect(env.missing).toContain('NIC: this host has no interface named "vtnet0"');
  });
});

describe("macOS environment (hand-written in macOS 14's format)", () => {
  it("reads en8, a Thunderbolt 10GbE adapter: the kext and its version, PCIe width, CUBIC, auto-tuning limits", () => {
    expect(macos(MACOS, "en8")).toEqual({
      platform: "macos",
      os: "macOS 14.4.1 (23E224)",
      kernel: "23.4.0",
      virtualization: "none",
      cpu: { model: "Apple M2 Pro", cores: 10, governor: null },
      tcp: {
        congestionControl: "cubic",
        rmemMax: 8388608,
        wmemMax: 8388608,
        tcpRmem: [131072, 131072, 4194304],
        tcpWmem: [131072, 131072, 4194304],
      },
      nic: {
        name: "en8",
        driver: "AppleEthernetAquantiaAqtion",
        driverVersion: "1.0.64",
        firmware: null,
        speedMbps: 10000,
        duplex: "full",
        mtu: 9000,
        pcie: { address: null, speedGTs: null, width: 4, maxSpeedGTs: null, maxWidth: null },
        siblingPorts: [],
        offloads: { tso: true, gso: null, gro: null, lro: false },
        rings: null,
      },
      missing: [
        "CPU governor: none on macOS (the system sets the frequency)",
        "GSO, GRO: not BSD interface options",
        "ring sizes: not read on macOS",
        "firmware: not reported by macOS",
        "PCIe maximum: not reported by macOS",
        "PCIe link speed: not reported by macOS",
      ],
    });
  });

  it("tells a VM by kern.hv_vmm_present, and NewReno when the host asks for it", () => {
    const vm = MACOS.replace("kern.hv_vmm_present=0", "kern.hv_vmm_present=1").replace(
      "net.inet.tcp.use_newreno=0",
      "net.inet.tcp.use_newreno=1",
    );
    expect(macos(vm, "en8")).toMatchObject({ virtualization: "vm-other", tcp: { congestionControl: "newreno" } });
  });

  it("reads the built-in port without a PCIe link, and a NIC system_profiler does not list", () => {
    expect(macos(MACOS, "en0").nic).toMatchObject({
      driver: "AppleBCM5701Ethernet",
      speedMbps: 1000,
      pcie: null,
      offloads: { tso: false, lro: false },
    });
    const env = macos(MACOS.replace("BSD name: en8", "BSD name: en9"), "en8");
    expect(env.nic).toMatchObject({ driver: null, speedMbps: 10000 });
    expect(env.missing).toContain("driver, firmware, PCIe link: system_profiler lists no Ethernet card for en8");
  });
});
