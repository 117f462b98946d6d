import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { esxiAgent, ESXI_IPERF3_PATH, parseEsxcliBlocks, parseEsxcliTable, parseEsxiNics } from "./esxi";
import { splitSections } from "./environment";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");
const DISCOVER = fixture("esxi-discover.txt");

/** The discovery sample with one section's body replaced (or dropped with null), as another host would print it. */
function withSection(name: string, body: string | null): string {
  const sections = splitSections(DISCOVER);
  if (body === null) sections.delete(name);
  else sections.set(name, body.endsWith("\n") ? body : `${body}\n`);
  return [...[...sections].map(([key, text]) => `wirespeed-${key}\n${text}`), "wirespeed-end\n"].join("");
}

const nicNamed = (output: string, name: string) => parseEsxiNics(output).find((nic) => nic.name === name);

describe("esxcli output (hand-written samples in ESXi 8.0's format)", () => {
  it("splits a table on the columns its dashes line marks, keeping spaces inside a column", () => {
    const rows = parseEsxcliTable(DISCOVER.split("wirespeed-ipv4")[0]!);
    expect(rows).toHaveLength(5);
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
    const nics = parseEsxiNics(DISCOVER);
    expect(nics.map((n) => n.name)).toEqual([
      "vmnic0",
      "vmnic1",
      "vmnic2",
      "vmnic3",
      "vmnic4",
      "vmk0",
      "vmk1",
      "vmk2",
      "vmk3",
    ]);
    expect(nics[0]).toMatchObject({
      speedMbps: 1000,
      duplex: "full",
      isUp: true,
      driver: "igbn",
      mtu: 1500,
      addresses: [],
    });
    expect(nics[1]).toMatchObject({ speedMbps: null, duplex: null, isUp: false });
    expect(nics[6]).toEqual({
      name: "vmk1",
      mac: "00:50:56:6b:aa:01",
      mtu: 9000,
      speedMbps: 10000,
      duplex: "full",
      isUp: true,
      addresses: [{ address: "10.10.10.20", prefixLength: 24, family: "ipv4" }],
      driver: "ixgben",
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description:
        "VMkernel on port group vMotion-Storage (vSwitch1), uplink vmnic2: Intel(R) Ethernet Controller X550",
    });
  });
});

describe("a VMkernel interface takes the speed of its switch's active uplink", () => {
  it("follows port group → standard vSwitch → the first uplink that is up, and names it", () => {
    // vSwitch0's uplinks are "vmnic1, vmnic0": vmnic1 is down, so vmk0 leaves by vmnic0.
    expect(nicNamed(DISCOVER, "vmk0")).toMatchObject({
      speedMbps: 1000,
      duplex: "full",
      driver: "igbn",
      mtu: 1500,
      description:
        "VMkernel on port group Management Network (vSwitch0), uplink vmnic0: Intel(R) I350 Gigabit Network Connection",
    });
  });

  it("follows a distributed switch (VDS Name instead of a port group) to its uplink", () => {
    expect(nicNamed(DISCOVER, "vmk2")).toMatchObject({
      speedMbps: 2500,
      duplex: "full",
      driver: "ixgben",
      mtu: 9000,
      description:
        "VMkernel on distributed switch DSwitch-Storage (port 12), uplink vmnic3: Intel(R) Ethernet Controller X550",
    });
  });

  it("keeps null on a vSwitch whose uplinks are all down, or that has none", () => {
    const alone = {
      speedMbps: null,
      duplex: null,
      driver: null,
      description: "VMkernel on port group iSCSI-B (vSwitch2)",
    };
    expect(nicNamed(DISCOVER, "vmk3")).toMatchObject(alone);
    const vswitches = splitSections(DISCOVER).get("vswitches")!.replace("Uplinks: vmnic4", "Uplinks: ");
    expect(nicNamed(withSection("vswitches", vswitches), "vmk3")).toMatchObject(alone);
    // An uplink the nic list does not know is no uplink either.
    const unknown = splitSections(DISCOVER).get("vswitches")!.replace("Uplinks: vmnic4", "Uplinks: vmnic9");
    expect(nicNamed(withSection("vswitches", unknown), "vmk3")).toMatchObject(alone);
  });

  it("keeps null for a port group that no vSwitch lists, and for a switch it cannot find", () => {
    const portgroups = splitSections(DISCOVER).get("portgroups")!;
    const withoutVmotion = portgroups
      .split("\n")
      .filter((line) => !line.startsWith("vMotion-Storage"))
      .join("\n");
    expect(nicNamed(withSection("portgroups", withoutVmotion), "vmk1")).toMatchObject({
      speedMbps: null,
      driver: null,
      description: "VMkernel on port group vMotion-Storage",
    });
    // The port group names a vSwitch that `vswitch standard list` does not have.
    expect(nicNamed(withSection("portgroups", portgroups.replace(/vSwitch1(?=\s)/, "vSwitch7")), "vmk1")).toMatchObject(
      { speedMbps: null, description: "VMkernel on port group vMotion-Storage (vSwitch7)" },
    );
    expect(nicNamed(withSection("dvs", ""), "vmk2")).toMatchObject({
      speedMbps: null,
      description: "VMkernel on distributed switch DSwitch-Storage (port 12)",
    });
  });

  it("keeps the vmks' speed null when esxcli failed or the sections are missing (an older script), vmnics intact", () => {
    for (const name of ["vswitches", "portgroups", "dvs"]) {
      const failed = withSection(name, "Error: Unknown command or namespace network vswitch");
      const dropped = withSection(name, null);
      for (const output of [failed, dropped]) {
        const nics = parseEsxiNics(output);
        expect(nics.filter((nic) => nic.name.startsWith("vmnic")).map((nic) => nic.speedMbps)).toEqual([
          1000,
          null,
          10000,
          2500,
          null,
        ]);
        // Only the chain that does not need the broken section still reaches its uplink.
        const reached = nics.filter((nic) => nic.name.startsWith("vmk") && nic.speedMbps !== null).map((n) => n.name);
        expect(reached).toEqual(name === "dvs" ? ["vmk0", "vmk1"] : ["vmk2"]);
      }
    }
  });

  it("never throws on hostile or garbled sections, and never takes a speed from them", () => {
    const hostile = [
      "",
      "wirespeed-end",
      "wirespeed-portgroups\n----\n\n",
      "wirespeed-vswitches\n   Uplinks: vmnic0\n",
      "wirespeed-vswitches\n__proto__\n   Name: __proto__\n   Uplinks: constructor, toString, __proto__\n",
      "wirespeed-portgroups\nName       Virtual Switch\n---------  --------------\n__proto__  constructor\n",
      "\u0000\u0001wirespeed-dvs\r\n\r\n   :\r\n:::\r\n",
      "x".repeat(100_000),
    ];
    for (const text of hostile) {
      expect(() => parseEsxiNics(text)).not.toThrow();
      expect(() => parseEsxiNics(`${DISCOVER}${text}`)).not.toThrow();
      for (const name of ["vswitches", "portgroups", "dvs", "interfaces", "nic-list", "ipv4"]) {
        const nics = parseEsxiNics(withSection(name, text));
        // vmk3's only uplink is down whatever else is read (and with the ipv4 table gone, vmk3 is gone).
        expect(nics.filter((nic) => nic.name === "vmk3").map((nic) => nic.speedMbps)).toEqual(
          name === "ipv4" ? [] : [null],
        );
      }
    }
    // A port group and a switch called like Object's own properties lead nowhere.
    const proto = withSection(
      "interfaces",
      splitSections(DISCOVER).get("interfaces")!.replace("Portgroup: iSCSI-B", "Portgroup: constructor"),
    );
    expect(nicNamed(proto, "vmk3")).toMatchObject({ speedMbps: null });
    // Every truncation of the sample (a connection cut short) parses.
    const lines = DISCOVER.split("\n");
    for (let end = 0; end <= lines.length; end++) {
      expect(() => parseEsxiNics(lines.slice(0, end).join("\n"))).not.toThrow();
    }
    // Lines shuffled (a fixed seed, so that a failure repeats).
    let seed = 27;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const shuffled = [...lines].sort(() => random() - 0.5).join("\n");
      expect(() => parseEsxiNics(shuffled)).not.toThrow();
    }
  });

  it("asks esxcli for the switches and port groups in the one discovery round trip", () => {
    const script = esxiAgent.discoverNicsCommand().argv[2]!;
    for (const call of [
      "esxcli network nic list",
      "esxcli network vswitch standard list",
      "esxcli network vswitch standard portgroup list",
      "esxcli network vswitch dvs vmware list",
    ])
      expect(script).toContain(call);
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
