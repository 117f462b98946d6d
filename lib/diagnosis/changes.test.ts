import { describe, expect, it } from "vitest";
import { ixgbeSnapshot } from "@/testing/environment-snapshot";
import { environmentChanges, type RunWithEnvironment } from "./changes";
import type { EnvironmentSnapshot, NicEnvironment, TcpSettings } from "./contract";

type Changes = { nic?: Partial<NicEnvironment>; tcp?: Partial<TcpSettings>; os?: string | null };

/** The shared ixgbe host with driver 5.1, standard frames and a PCIe 3.0 x8 slot, with some fields changed. */
function host({ nic, tcp, os }: Changes = {}): EnvironmentSnapshot {
  return ixgbeSnapshot({
    ...(os === undefined ? {} : { os }),
    tcp,
    nic: {
      driverVersion: "5.1",
      mtu: 1500,
      pcie: { address: "0000:01:00.0", speedGTs: 8, width: 8, maxSpeedGTs: 8, maxWidth: 8 },
      siblingPorts: [],
      ...nic,
    },
  });
}

let nextRunId = 1;
const run = (client: EnvironmentSnapshot | null, server: EnvironmentSnapshot | null): RunWithEnvironment => ({
  runId: nextRunId++,
  environment: { client, server },
});

describe("environmentChanges", () => {
  it("says the issue's changes: MTU on both ends, the driver on the server, congestion control on the client", () => {
    const before = run(host(), host());
    const after = run(
      host({ nic: { mtu: 9000 }, tcp: { congestionControl: "bbr" } }),
      host({ nic: { mtu: 9000, driverVersion: "5.19" } }),
    );
    expect(environmentChanges([before, after])).toEqual([
      "driver ixgbe 5.1 → 5.19 on the server",
      "MTU 1500 → 9000 on both ends",
      "congestion control cubic → bbr on the client",
    ]);
  });

  it("chains the values of more than two runs, a value repeated in the next run said once", () => {
    const runs = [
      run(host(), host()),
      run(host(), host()),
      run(host({ nic: { mtu: 9000 } }), host({ nic: { mtu: 9000 } })),
      run(host(), host()),
    ];
    expect(environmentChanges(runs)).toEqual(["MTU 1500 → 9000 → 1500 on both ends"]);
  });

  it("says each end apart when they changed differently, and a new driver by its name", () => {
    const runs = [
      run(host(), host()),
      run(host({ nic: { mtu: 9000 } }), host({ nic: { mtu: 4000, driver: "i40e", driverVersion: "2.22.18" } })),
    ];
    expect(environmentChanges(runs)).toEqual([
      "driver ixgbe 5.1 → i40e 2.22.18 on the server",
      "MTU 1500 → 9000 on the client",
      "MTU 1500 → 4000 on the server",
    ]);
  });

  it("words each field as format.ts does: PCIe, buffers, offloads, rings", () => {
    const slow = host({
      nic: { pcie: { address: "0000:01:00.0", speedGTs: 5, width: 4, maxSpeedGTs: 8, maxWidth: 8 } },
    });
    const tuned = host({
      nic: {
        offloads: { tso: false, gso: true, gro: true, lro: false },
        rings: { rx: 4096, tx: 4096, rxMax: 4096, txMax: 4096 },
      },
      tcp: { rmemMax: 16_777_216 },
    });
    expect(environmentChanges([run(null, slow), run(null, tuned)])).toEqual([
      "PCIe 2.0 x4 (card: 3.0 x8) → 3.0 x8 on the server",
      "TSO on → off on the server",
      "RX ring 512 (max 4096) → 4096 (max 4096) on the server",
      "TX ring 512 (max 4096) → 4096 (max 4096) on the server",
      "max receive buffer 208 KiB → 16 MiB on the server",
    ]);
  });

  it("skips runs without a snapshot, an end never read, and a value that could not be read", () => {
    const runs: RunWithEnvironment[] = [
      run(host(), host()),
      { runId: 90, environment: null },
      run(null, host({ os: null })),
      run(host({ nic: { mtu: null } }), host()),
      run(host(), null),
    ];
    expect(environmentChanges(runs)).toEqual([]);
  });

  it("says nothing when nothing changed, or with fewer than two snapshots", () => {
    expect(environmentChanges([run(host(), host()), run(host(), host())])).toEqual([]);
    expect(environmentChanges([run(host(), host({ nic: { mtu: 9000 } }))])).toEqual([]);
    expect(environmentChanges([])).toEqual([]);
  });
});
