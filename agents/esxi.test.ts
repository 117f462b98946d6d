import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { esxiAgent, ESXI_IPERF3_PATH, parseEsxcliBlocks, parseEsxcliTable, parseEsxiNics } from "./esxi";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");

describe("esxcli output (hand-written samples in ESXi 8.0's format)", () => {
  it("splits a table on the columns its dashes line marks, keeping spaces inside a column", () => {
    const rows = parseEsxcliTable(fixture("esxi-discover.txt").split("wirespeed-ipv4")[0]!);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toEqual({
      Name: "vmnic2",
      "PCI Device": "0000:5e:00.0",
      Driver: "ixgben",
      "Admin Status": "Up",
      "Link Status": "Up",
      Speed: "10000",
      Duplex: "Full",
      "MAC Address": "3c:ec:ef:ab:cd:01",
      MTU: "9000",
      Description: "Intel(R) Ethernet Controller X550",
    });
  });

  it("reads key: value blocks", () => {
    const blocks = parseEsxcliBlocks("vmk0\n   Name: vmk0\n   MTU: 1500\n\nvmk1\n   Name: vmk1\n   Portgroup: A: B\n");
    expect(blocks).toEqual([
      { Name: "vmk0", MTU: "1500" },
      { Name: "vmk1", Portgroup: "A: B" },
    ]);
  });

  it("lists uplinks with speed and VMkernel interfaces with their addresses", () => {
    const nics = parseEsxiNics(fixture("esxi-discover.txt"));
    expect(nics.map((n) => n.name)).toEqual(["vmnic0", "vmnic1", "vmnic2", "vmk0", "vmk1"]);
    expect(nics[0]).toMatchObject({
      speedMbps: 1000,
      duplex: "full",
      isUp: true,
      driver: "igbn",
      mtu: 1500,
      addresses: [],
    });
    expect(nics[1]).toMatchObject({ speedMbps: null, duplex: null, isUp: false });
    expect(nics[4]).toEqual({
      name: "vmk1",
      mac: "00:50:56:6b:aa:01",
      mtu: 9000,
      speedMbps: null,
      duplex: null,
      isUp: true,
      addresses: [{ address: "10.10.10.20", prefixLength: 24, family: "ipv4" }],
      driver: null,
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: "VMkernel on port group vMotion-Storage",
    });
  });
});

describe("esxi commands", () => {
  it("uses the bundled iperf3 and runs the server from a copy made on demand", () => {
    expect(esxiAgent.defaultIperf3Path).toBe(ESXI_IPERF3_PATH);
    const server = esxiAgent.serverCommand({
      iperf3Path: ESXI_IPERF3_PATH,
      args: ["-s", "-1", "-B", "10.10.10.20", "-p", "5201"],
    });
    expect(server.argv.slice(3)).toEqual(["sh", ESXI_IPERF3_PATH, "-s", "-1", "-B", "10.10.10.20", "-p", "5201"]);
    expect(server.argv[2]).toContain('c="$1.copy"');
    expect(server.argv[2]).toContain('if [ ! -x "$c" ]; then cp "$1" "$c" || exit 126; fi');
    const client = esxiAgent.clientCommand({ iperf3Path: ESXI_IPERF3_PATH, args: ["-c", "10.10.10.21"] });
    expect(client.argv[2]).not.toContain(".copy");
  });

  it("reads, opens and restores the firewall", () => {
    const firewall = esxiAgent.firewall!;
    const get = firewall.stateCommand();
    expect(get.quote(get.argv)).toBe("esxcli network firewall get");
    // hand-written: `esxcli network firewall get` on ESXi 8.0
    const on = "   Default Action: DROP\n   Enabled: true\n   Loaded: true\n";
    expect(firewall.parseState({ exitCode: 0, stdout: on, stderr: "" })).toEqual({ enabled: true });
    expect(
      firewall.parseState({ exitCode: 0, stdout: on.replace("Enabled: true", "Enabled: false"), stderr: "" }),
    ).toEqual({ enabled: false });
    expect(() => firewall.parseState({ exitCode: 1, stdout: "", stderr: "esxcli: not found" })).toThrow(/unexpected/);
    const off = firewall.setCommand(false);
    expect(off.quote(off.argv)).toBe("esxcli network firewall set --enabled false");
    const restore = firewall.setCommand(true);
    expect(restore.quote(restore.argv)).toBe("esxcli network firewall set --enabled true");
  });
});
