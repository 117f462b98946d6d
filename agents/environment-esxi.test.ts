import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { esxiAgent } from "./esxi";
import { splitSections } from "./environment";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "environment", name), "utf8");
const parse = (stdout: string, nic: string) => esxiAgent.environment.parse({ exitCode: 0, stdout, stderr: "" }, nic);
const SAMPLE = fixture("esxi-vmk-10g.txt");

/** The sample with one section's body replaced (or dropped with null), as another host would print it. */
function withSection(name: string, body: string | null): string {
  const sections = splitSections(SAMPLE);
  if (body === null) sections.delete(name);
  else sections.set(name, body.endsWith("\n") ? body : `${body}\n`);
  return [...[...sections].map(([key, text]) => `wirespeed-${key}\n${text}`), "wirespeed-end\n"].join("");
}

describe("ESXi environment (hand-written in ESXi 8.0's format)", () => {
  it("reads the vmk's uplink: vmnic2 of a dual-port X550 at 10 Gb/s, with driver, firmware, rings and offloads", () => {
    expect(parse(SAMPLE, "vmk1")).toEqual({
      platform: "esxi",
      os: "VMware ESXi 8.0.2 build-22380479",
      kernel: "8.0.2",
      virtualization: "none",
      cpu: { model: "Intel(R) Xeon(R) E-2246G CPU @ 3.60GHz", cores: 12, governor: null },
      tcp: { congestionControl: "newreno", rmemMax: null, wmemMax: null, tcpRmem: null, tcpWmem: null },
      nic: {
        name: "vmk1",
        driver: "ixgben",
        driverVersion: "1.15.1.0",
        firmware: "0x80000d2a, 1.2932.0",
        speedMbps: 10000,
        duplex: "full",
        mtu: 9000,
        pcie: { address: "0000:5e:00.0", speedGTs: null, width: null, maxSpeedGTs: null, maxWidth: null },
        siblingPorts: [{ name: "vmnic3", speedMbps: 10000 }],
        offloads: { tso: true, gso: null, gro: null, lro: true },
        rings: { rx: 1024, tx: 1024, rxMax: 4096, txMax: 4096 },
      },
      missing: [
        "CPU governor: not read on ESXi (its power policy)",
        "socket buffer limits: not exposed by esxcli",
        "PCIe link: not reported on ESXi",
        "GSO, GRO: not ESXi settings",
      ],
    });
  });

  it("reads a vmnic named directly, with its own MTU", () => {
    expect(parse(SAMPLE, "vmnic2").nic).toMatchObject({
      name: "vmnic2",
      driver: "ixgben",
      mtu: 9000,
      speedMbps: 10000,
    });
  });

  it("says nested when ESXi runs on VMware's virtual hardware", () => {
    const nested = withSection(
      "platform",
      "Platform Information\n   Product Name: VMware7,1\n   Vendor Name: VMware, Inc.\n",
    );
    expect(parse(nested, "vmk1").virtualization).toBe("vmware");
  });

  it("keeps the vmk's MTU and says why the rest is missing when it sits on a distributed switch", () => {
    const interfaces = splitSections(SAMPLE)
      .get("interfaces")!
      .replace("Portset: vSwitch1", "Portset: DvsPortset-0")
      .replace(/(Name: vmk1[\s\S]*?)VDS Name: N\/A/, "$1VDS Name: DSwitch");
    let stdout = withSection("interfaces", interfaces);
    for (const name of ["nic-get", "ring-current", "ring-preset", "tso"])
      stdout = stdout.replace(new RegExp(`wirespeed-${name}\\n[\\s\\S]*?(?=wirespeed-)`), "");
    stdout = stdout.replace("uplink=vmnic2", "uplink=");
    const env = parse(stdout, "vmk1");
    expect(env.nic).toMatchObject({ name: "vmk1", mtu: 9000, driver: null, speedMbps: null, pcie: null, rings: null });
    expect(env.missing).toContain(
      "uplink (driver, firmware, speed, PCIe, offloads, ring sizes): vmk1 is on distributed switch DSwitch, whose uplinks are not read",
    );
  });

  it("passes on esxcli's own refusals (rings a driver does not report, an unknown netstack)", () => {
    const refused = withSection("ring-current", "Error: Not supported").replace(
      /wirespeed-ring-preset\n[\s\S]*?(?=wirespeed-)/,
      "wirespeed-ring-preset\nError: Not supported\n",
    );
    const env = parse(withSection("netstack", "Error: Unable to find netstack instance"), "vmk1");
    expect(env.tcp.congestionControl).toBeNull();
    expect(env.missing).toContain("TCP congestion control: Error: Unable to find netstack instance");
    const rings = parse(refused, "vmk1");
    expect(rings.nic!.rings).toBeNull();
    expect(rings.missing).toContain("ring sizes: Error: Not supported");
  });

  it("has no NIC for a name that is neither a vmk nor an uplink", () => {
    const env = parse(SAMPLE.replace("uplink=vmnic2", "uplink="), "vmk7");
    expect(env.nic).toBeNull();
    expect(env.os).toBe("VMware ESXi 8.0.2 build-22380479");
    expect(env.missing).toContain('NIC: this host has no VMkernel interface or uplink named "vmk7"');
  });
});
