import { describe, expect, it } from "vitest";
import type { EnvironmentSnapshot } from "@/lib/diagnosis/contract";
import { environmentRows } from "@/lib/diagnosis/format";
import { ixgbeSnapshot } from "@/testing/environment-snapshot";
import { pairEnvironmentRows, type EnvironmentRow } from "./environment-table";

/** The shared ixgbe host as another machine reads: a Xeon v2, a PCIe 2.0 x8 slot, no firmware. */
function snapshot({ mtu, driverVersion }: { mtu: number; driverVersion: string }): EnvironmentSnapshot {
  return ixgbeSnapshot({
    readAt: "2026-12-01T10:00:00.000Z",
    cpu: { model: "Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz", cores: 20 },
    nic: {
      name: "enp3s0f0",
      driverVersion,
      firmware: null,
      mtu,
      pcie: { address: "0000:03:00.0", speedGTs: 5, width: 8, maxSpeedGTs: 5, maxWidth: 8 },
      siblingPorts: [],
    },
    missing: ["firmware: ethtool -i printed none"],
  });
}

const row = (key: string, value: string): EnvironmentRow => ({ key, label: key.toUpperCase(), value });

describe("pairEnvironmentRows", () => {
  it("puts both ends' values on one row and marks those that differ", () => {
    const paired = pairEnvironmentRows(
      [row("os", "Debian 12"), row("mtu", "9000"), row("driver", "ixgbe 5.19")],
      [row("os", "Debian 12"), row("mtu", "1500"), row("driver", "ixgbe 5.19")],
    );
    expect(paired).toEqual([
      { key: "os", label: "OS", client: "Debian 12", server: "Debian 12", isDifferent: false },
      { key: "mtu", label: "MTU", client: "9000", server: "1500", isDifferent: true },
      { key: "driver", label: "DRIVER", client: "ixgbe 5.19", server: "ixgbe 5.19", isDifferent: false },
    ]);
  });

  it("keeps a row only one end has where that end has it, without calling it a difference", () => {
    const paired = pairEnvironmentRows(
      [row("os", "Debian 12"), row("mtu", "1500")],
      [row("os", "ESXi 8"), row("pcie", "8 GT/s x8"), row("mtu", "1500"), row("rings", "4096")],
    );
    expect(paired.map((entry) => entry.key)).toEqual(["os", "pcie", "mtu", "rings"]);
    expect(paired.find((entry) => entry.key === "pcie")).toEqual({
      key: "pcie",
      label: "PCIE",
      client: null,
      server: "8 GT/s x8",
      isDifferent: false,
    });
    expect(paired.find((entry) => entry.key === "os")?.isDifferent).toBe(true);
  });

  it("calls nothing a difference that one end could not read", () => {
    const paired = pairEnvironmentRows(
      [row("firmware", "unknown"), row("mtu", "1500")],
      [row("firmware", "0x800003e7"), row("mtu", "1500")],
    );
    expect(paired[0]).toEqual({
      key: "firmware",
      label: "FIRMWARE",
      client: "unknown",
      server: "0x800003e7",
      isDifferent: false,
    });
  });

  it("marks the differences in the rows of two real snapshots, the MTU among them", () => {
    const client = environmentRows(snapshot({ mtu: 9000, driverVersion: "5.19" }));
    const server = environmentRows(snapshot({ mtu: 1500, driverVersion: "5.1" }));
    const differing = pairEnvironmentRows(client, server).filter((entry) => entry.isDifferent);
    expect(differing.map((entry) => [entry.label, entry.client, entry.server])).toEqual([
      ["Driver", "ixgbe 5.19", "ixgbe 5.1"],
      ["MTU", "9000", "1500"],
    ]);
  });

  it("shows one end alone when the other was never read", () => {
    expect(pairEnvironmentRows(null, [row("os", "Debian 12")])).toEqual([
      { key: "os", label: "OS", client: null, server: "Debian 12", isDifferent: false },
    ]);
    expect(pairEnvironmentRows(null, null)).toEqual([]);
  });
});
