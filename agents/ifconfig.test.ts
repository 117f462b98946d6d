import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freebsdAgent } from "./freebsd";
import { mediaSpeedMbps, netmaskToPrefix, parseIfconfig } from "./ifconfig";
import { macosAgent } from "./macos";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");

describe("parseIfconfig", () => {
  it("reads FreeBSD's ifconfig -a (hand-written sample)", () => {
    const nics = parseIfconfig(fixture("freebsd-ifconfig.txt"));
    expect(nics.map((n) => n.name)).toEqual(["igb0", "ix0", "ix1"]);
    expect(nics[0]).toEqual({
      name: "igb0",
      mac: "00:25:90:aa:bb:01",
      mtu: 1500,
      speedMbps: 1000,
      duplex: "full",
      isUp: true,
      addresses: [{ address: "192.168.1.20", prefixLength: 24, family: "ipv4" }],
      driver: null,
      pcieLinkSpeed: null,
      pcieLinkWidth: null,
      description: null,
    });
    expect(nics[1]).toMatchObject({
      mtu: 9000,
      speedMbps: 10000,
      description: "storage uplink",
      addresses: [
        { address: "10.10.10.20", prefixLength: 24, family: "ipv4" },
        { address: "2001:db8::20", prefixLength: 64, family: "ipv6" },
      ],
    });
    expect(nics[2]).toMatchObject({ isUp: false, speedMbps: null, duplex: null, addresses: [] });
  });

  it("reads macOS's ifconfig -a (hand-written sample)", () => {
    const nics = parseIfconfig(fixture("macos-ifconfig.txt"));
    expect(nics.map((n) => n.name)).toEqual(["en0", "en1", "bridge0"]);
    expect(nics[0]).toMatchObject({
      mtu: 9000,
      speedMbps: 10000,
      duplex: "full",
      mac: "1c:1d:d3:aa:bb:cc",
      addresses: [{ address: "10.10.10.40", prefixLength: 24, family: "ipv4" }],
    });
    expect(nics[1]).toMatchObject({ speedMbps: null, isUp: true });
    expect(nics[2]).toMatchObject({ isUp: false, speedMbps: null });
  });

  it("turns media words and netmasks into numbers", () => {
    expect(
      ["10baseT/UTP", "100baseTX", "1000baseT", "2500Base-T", "10Gbase-T", "25GBase-SR", "40Gbase-SR4"].map(
        mediaSpeedMbps,
      ),
    ).toEqual([10, 100, 1000, 2500, 10000, 25000, 40000]);
    expect(mediaSpeedMbps("autoselect")).toBeNull();
    expect([
      netmaskToPrefix("0xffffff00"),
      netmaskToPrefix("255.255.254.0"),
      netmaskToPrefix("0xff000000"),
      netmaskToPrefix("bogus"),
    ]).toEqual([24, 23, 8, null]);
  });
});

describe("macOS and FreeBSD agents", () => {
  it("reuse the POSIX commands and ask ifconfig for NICs", () => {
    for (const agent of [macosAgent, freebsdAgent]) {
      const command = agent.discoverNicsCommand();
      expect(command.quote(command.argv)).toBe("ifconfig -a");
      expect(agent.printsPid).toBe(true);
    }
    expect(
      macosAgent.parseDetect([
        {
          exitCode: 0,
          stdout:
            "wirespeed-os Darwin\nwirespeed-iperf3 /opt/homebrew/bin/iperf3\nwirespeed-version\niperf 3.17.1 (cJSON 1.7.15)\n",
          stderr: "",
        },
      ]),
    ).toMatchObject({
      platform: "macos",
      iperf3Path: "/opt/homebrew/bin/iperf3",
      version: { major: 3, minor: 17, patch: 1 },
    });
  });

  it("macOS detect also tries Homebrew's paths, unless the host names one", () => {
    const [auto] = macosAgent.detectCommands();
    expect(auto!.argv.slice(4)).toEqual(["iperf3", "/opt/homebrew/bin/iperf3", "/usr/local/bin/iperf3"]);
    const [given] = macosAgent.detectCommands("/Users/me/bin/iperf3");
    expect(given!.argv.slice(4)).toEqual(["/Users/me/bin/iperf3"]);
  });
});
