import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { windowsAgent } from "./windows";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "environment", name), "utf8");
const SAMPLE = fixture("windows-server2022-x710.txt");
const parse = (stdout: string, nic: string) => windowsAgent.environment.parse({ exitCode: 0, stdout, stderr: "" }, nic);

/** The sample's document, changed as another host would print it, on one line as -Compress writes it. */
function changed(change: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(SAMPLE.split("\n").find((l) => l.startsWith("{"))!) as Record<string, unknown>;
  change(doc);
  return `${JSON.stringify(doc)}\r\n`;
}

describe("Windows environment (hand-written in Windows PowerShell 5.1's JSON)", () => {
  it("reads Server 2022 with a dual-port X710 at PCIe 3.0 x8: power plan, CUBIC, LSO and RSC, buffers", () => {
    expect(parse(SAMPLE, "Ethernet 3")).toEqual({
      platform: "windows",
      os: "Microsoft Windows Server 2022 Standard",
      kernel: "10.0.20348",
      virtualization: "none",
      cpu: { model: "Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz", cores: 20, governor: "High performance" },
      tcp: { congestionControl: "cubic", rmemMax: null, wmemMax: null, tcpRmem: null, tcpWmem: null },
      nic: {
        name: "Ethernet 3",
        driver: "i40ea68.sys",
        driverVersion: "1.16.202.10",
        firmware: null,
        speedMbps: 10000,
        duplex: "full",
        mtu: 9000,
        pcie: { address: "0000:3b:00.0", speedGTs: 8, width: 8, maxSpeedGTs: 8, maxWidth: 8 },
        siblingPorts: [{ name: "Ethernet 4", speedMbps: 10000 }],
        offloads: { tso: true, gso: null, gro: null, lro: true },
        rings: { rx: 512, tx: 512, rxMax: 4096, txMax: 4096 },
      },
      missing: [
        "socket buffer limits: none to set on Windows (receive window auto-tuning: Normal)",
        "firmware: not reported by Windows",
        "GSO, GRO: not Windows settings",
      ],
    });
  });

  it("finds the adapter whatever the case of its name, as Windows does", () => {
    expect(parse(SAMPLE, "ETHERNET 3").nic).toMatchObject({ mtu: 9000, speedMbps: 10000 });
  });

  it("reads a Hyper-V guest's virtual adapter: a VM, no PCI hardware, no RSC", () => {
    const guest = changed((doc) => {
      doc.system = [{ Manufacturer: "Microsoft Corporation", Model: "Virtual Machine" }];
      doc.hardware = [];
      doc.rsc = [];
    });
    const env = parse(guest, "Ethernet 3");
    expect(env.virtualization).toBe("microsoft");
    expect(env.nic).toMatchObject({ pcie: null, siblingPorts: [], offloads: { tso: true, lro: null } });
    expect(env.missing).toEqual(
      expect.arrayContaining([
        "PCIe link: Ethernet 3 has no PCI hardware (a virtual adapter)",
        "LRO: Ethernet 3 has no receive segment coalescing setting",
      ]),
    );
  });

  it("takes Windows PowerShell 5.1's { value, Count } arrays and a lone object as lists", () => {
    const wrapped = changed((doc) => {
      doc.adapters = { value: doc.adapters, Count: 3 };
      doc.os = (doc.os as unknown[])[0];
    });
    expect(parse(wrapped, "Ethernet 3")).toMatchObject({
      os: "Microsoft Windows Server 2022 Standard",
      nic: { name: "Ethernet 3", mtu: 9000 },
    });
  });

  it("says why when a part or the whole was not readable", () => {
    const env = parse(
      changed((doc) => {
        doc.tcp = [];
        doc.powerPlan = [];
      }),
      "Ethernet 3",
    );
    expect(env.tcp.congestionControl).toBeNull();
    expect(env.cpu.governor).toBeNull();
    expect(env.missing).toEqual(
      expect.arrayContaining([
        "TCP congestion control: Get-NetTCPSetting was not readable",
        'CPU governor (power plan): powercfg answered "nothing"',
      ]),
    );

    const refused = windowsAgent.environment.parse(
      { exitCode: 1, stdout: "", stderr: "'powershell' is not recognized as an internal or external command,\r\n" },
      "Ethernet 3",
    );
    expect(refused.missing).toEqual([
      "everything: the command printed none of its sections (exit 1: 'powershell' is not recognized as an internal or external command,)",
    ]);
  });

  it("holds nothing PowerShell would read as code in cmd.exe's quotes", () => {
    const script = windowsAgent.environment.command("Ethernet 3").argv.at(-1)!;
    expect(script).not.toMatch(/[$`"%!\u2018-\u201E]/);
  });
});
