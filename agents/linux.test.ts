import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linuxAgent, parseLinuxNics } from "./linux";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");

describe("parseLinuxNics", () => {
  it("reads a lab host (captured): veth NICs with their addresses, MTU and the speed /sys reports; lo left out", () => {
    const nics = parseLinuxNics(fixture("linux-discover-lab-veth.txt"));
    expect(nics.map((n) => n.name)).toEqual(["eth1", "mgmt0"]);
    expect(nics[0]).toEqual({
      name: "eth1",
      mac: "f2:cd:53:12:e7:3c",
      mtu: 9000,
      speedMbps: 10000,
      duplex: "full",
      isUp: true,
      addresses: [{ address: "198.18.16.1", prefixLength: 24, family: "ipv4" }],
      driver: null,
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: null,
    });
  });

  it("reads a physical NIC (hand-written): driver, PCIe link, global IPv6 but no link-local; -1 speed of a down port is null", () => {
    const [up, down] = parseLinuxNics(fixture("linux-discover-physical.txt"));
    expect(up).toMatchObject({
      name: "enp1s0f0",
      speedMbps: 10000,
      driver: "ixgbe",
      pcieLinkSpeed: "8.0 GT/s PCIe",
      pcieLinkWidth: 4,
      addresses: [
        { address: "10.10.10.5", prefixLength: 24, family: "ipv4" },
        { address: "2001:db8::5", prefixLength: 64, family: "ipv6" },
      ],
    });
    expect(down).toMatchObject({ name: "enp1s0f1", speedMbps: null, duplex: null, isUp: false, addresses: [] });
  });

  it("still lists NICs from /sys when ip -j printed nothing", () => {
    const nics = parseLinuxNics(
      "wirespeed-ip-json\n\nwirespeed-nic eth0\nmtu=1500\nspeed=1000\nduplex=full\naddress=aa:bb:cc:dd:ee:ff\noperstate=up\nwirespeed-end\n",
    );
    expect(nics).toEqual([expect.objectContaining({ name: "eth0", mtu: 1500, speedMbps: 1000, addresses: [] })]);
  });
});

describe("linux commands", () => {
  it("detects in one POSIX command that takes the iperf3 path as a parameter", () => {
    const [command] = linuxAgent.detectCommands("/opt/iperf 3/bin/iperf3");
    expect(command!.argv.slice(0, 2)).toEqual(["sh", "-c"]);
    expect(command!.argv.slice(3)).toEqual(["sh", "/opt/iperf 3/bin/iperf3"]);
    expect(command!.quote(command!.argv)).toMatch(/ sh '\/opt\/iperf 3\/bin\/iperf3'$/);
  });

  it("parses detect output: OS, path and version", () => {
    const stdout =
      "wirespeed-os Linux\nwirespeed-iperf3 /usr/bin/iperf3\nwirespeed-version\niperf 3.12 (cJSON 1.7.15)\nLinux alpha 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64\nOptional features available: CPU affinity setting, IPv6 flow label\n";
    const found = linuxAgent.parseDetect([{ exitCode: 0, stdout, stderr: "" }]);
    expect(found).toMatchObject({
      platform: "linux",
      os: "Linux",
      iperf3Path: "/usr/bin/iperf3",
      version: { major: 3, minor: 12, patch: 0 },
    });
    expect(
      linuxAgent.parseDetect([{ exitCode: 0, stdout: "wirespeed-os Linux\nwirespeed-iperf3 \n", stderr: "" }]),
    ).toMatchObject({
      iperf3Path: null,
      version: null,
    });
  });

  it("starts iperf3 through the PID-printing wrapper with argv as separate words", () => {
    const command = linuxAgent.serverCommand({
      iperf3Path: "iperf3",
      args: ["-s", "-1", "-B", "198.18.0.2", "-p", "5201"],
    });
    expect(command.argv.slice(0, 2)).toEqual(["sh", "-c"]);
    expect(command.argv.slice(3)).toEqual(["sh", "iperf3", "-s", "-1", "-B", "198.18.0.2", "-p", "5201"]);
    expect(command.argv[2]).toContain('echo "wirespeed-pid $$"; exec "$@"');
    expect(command.keepStdinOpen).toBe(true);
    expect(command.quote(command.argv)).toMatch(/ sh iperf3 -s -1 -B 198\.18\.0\.2 -p 5201$/);
  });

  it("line-buffers the client's stdout, not the server's (whose -J document comes out at its end)", () => {
    const input = { iperf3Path: "iperf3", args: ["-c", "198.18.0.2", "-P", "2"], gated: true };
    const client = linuxAgent.clientCommand(input);
    expect(client.argv[2]).toContain('set -- stdbuf -oL "$@"');
    expect(client.argv.slice(3)).toEqual(["sh", "iperf3", "-c", "198.18.0.2", "-P", "2"]);
    expect(linuxAgent.serverCommand(input).argv[2]).not.toContain("stdbuf");
  });
});
