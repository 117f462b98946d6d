import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENTS, cmdQuote, posixQuote, posixQuoteArg } from "@/agents";
import { CMD_MAX_LINE } from "./windows";
import {
  gtsFromEncoded,
  gtsOrNull,
  hypervisorFromModel,
  pciAddress,
  siblingPorts,
  splitSections,
  tripleOrNull,
  widthOrNull,
} from "./environment";
import type { Platform } from "./types";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "environment", name), "utf8");

// Every recorded or hand-written sample, with the platform and NIC it was read for.
const SAMPLES: [string, Platform, string][] = [
  ["linux-lab-veth.txt", "linux", "eth1"],
  ["linux-physical-ixgbe-x4.txt", "linux", "enp3s0f0"],
  ["linux-vm-virtio.txt", "linux", "eth0"],
  ["linux-no-ethtool.txt", "linux", "enp2s0"],
  ["esxi-vmk-10g.txt", "esxi", "vmk1"],
  ["windows-server2022-x710.txt", "windows", "Ethernet 3"],
  ["freebsd-truenas-ix.txt", "freebsd", "ix0"],
  ["macos-thunderbolt-en8.txt", "macos", "en8"],
];

const HOSTILE_NAMES = [
  "$(touch PWNED)",
  "`touch PWNED`",
  "eth0; touch PWNED",
  "'; touch PWNED; '",
  '"; touch PWNED; "',
  "eth0\ntouch PWNED",
  "../../../etc",
  "-i",
  "",
];

describe("the pieces every reader shares", () => {
  it("cuts output into its sections, dropping a login banner and CRLF line ends", () => {
    const sections = splitSections(
      "Welcome!\r\nwirespeed-facts\r\na=1\r\nwirespeed-ports\nx\ny\nwirespeed-end\nafter\n",
    );
    expect([...sections.entries()]).toEqual([
      ["facts", "a=1\n"],
      ["ports", "x\ny\n"],
    ]);
  });

  it("reads PCIe speeds in each platform's words as GT/s", () => {
    expect(
      ["8.0 GT/s PCIe", "5.0 GT/s", "2.5 GT/s PCIe", "5 GT/s", "16.0 GT/s PCIe", "5.0", "8"].map(gtsOrNull),
    ).toEqual([8, 5, 2.5, 5, 16, 5, 8]);
    expect(["Unknown", "", "x4", "0", undefined].map(gtsOrNull)).toEqual([null, null, null, null, null]);
    expect([0, 1, 2, 3, 4, 5, 9, undefined].map(gtsFromEncoded)).toEqual([null, 2.5, 5, 8, 16, 32, null, null]);
    expect(["4", "x8", 16, 0, "n/a"].map(widthOrNull)).toEqual([4, 8, 16, null, null]);
    expect(tripleOrNull("4096\t131072\t6291456")).toEqual([4096, 131072, 6291456]);
    expect(tripleOrNull("4096 131072")).toBeNull();
  });

  it("finds the other functions of the same PCIe device, and nothing for a NIC without one", () => {
    const ports = [
      { name: "enp3s0f1", address: "0000:03:00.1", speedMbps: 10000 },
      { name: "enp3s0f0", address: "0000:03:00.0", speedMbps: 10000 },
      { name: "enp3s0f3", address: "0000:03:00.3", speedMbps: null },
      { name: "enp4s0", address: "0000:04:00.0", speedMbps: 1000 },
      { name: "enp3s1", address: "0000:03:01.0", speedMbps: 1000 },
      { name: "eth9", address: null, speedMbps: 1000 },
    ];
    expect(siblingPorts("enp3s0f0", "0000:03:00.0", ports)).toEqual([
      { name: "enp3s0f1", speedMbps: 10000 },
      { name: "enp3s0f3", speedMbps: null },
    ]);
    expect(siblingPorts("eth9", null, ports)).toEqual([]);
    expect(pciAddress(0, 24, 0, 1)).toBe("0000:18:00.1");
  });

  it("tells hypervisors by the machine's maker and model, in systemd-detect-virt's words", () => {
    expect(hypervisorFromModel("VMware, Inc.", "VMware7,1")).toBe("vmware");
    expect(hypervisorFromModel("Microsoft Corporation", "Virtual Machine")).toBe("microsoft");
    expect(hypervisorFromModel("QEMU", "Standard PC (Q35 + ICH9, 2009)")).toBe("kvm");
    expect(hypervisorFromModel("innotek GmbH", "VirtualBox")).toBe("oracle");
    expect(hypervisorFromModel("Microsoft Corporation", "Surface Laptop 5")).toBeNull();
    expect(hypervisorFromModel("Supermicro", "SYS-5019C-M")).toBeNull();
  });
});

describe("every platform's parser", () => {
  it.each(SAMPLES)("never throws on any cut of %s, and says why when nothing came", (name, platform, nic) => {
    const lines = fixture(name).split("\n");
    for (let end = 0; end <= lines.length; end++) {
      const stdout = lines.slice(0, end).join("\n");
      const env = AGENTS[platform].environment.parse({ exitCode: 0, stdout, stderr: "" }, nic);
      expect(env.platform).toBe(platform);
      expect(Array.isArray(env.missing)).toBe(true);
    }
    const nothing = AGENTS[platform].environment.parse(
      { exitCode: 127, stdout: "", stderr: "sh: 1: sh: not found\n" },
      nic,
    );
    expect(nothing).toMatchObject({
      platform,
      os: null,
      nic: null,
      missing: ["everything: the command printed none of its sections (exit 127: sh: 1: sh: not found)"],
    });
  });
});

describe("the NIC's name stays data", () => {
  it.each(["linux", "esxi", "freebsd", "macos"] as const)(
    "%s: the name is the script's $1, one quoted word at the end of the line",
    (platform) => {
      const agent = AGENTS[platform];
      const script = agent.environment.command("eth0").argv[2]!;
      for (const name of HOSTILE_NAMES) {
        const command = agent.environment.command(name);
        const line = command.quote(command.argv);
        expect(line).toBe(agent.quote(command.argv));
        // `sh -c SCRIPT sh NAME`: the script does not change with the name, the name is the last word alone.
        expect(command.argv).toEqual(["sh", "-c", script, "sh", name]);
        expect(line).toBe(`${posixQuote(["sh", "-c", script, "sh"])} ${posixQuoteArg(name)}`);
      }
    },
  );

  it("windows: one constant command for every NIC, within cmd.exe's line; the parser picks the adapter", () => {
    const command = AGENTS.windows.environment.command("Ethernet 3");
    const line = cmdQuote(command.argv);
    expect(line.length).toBeLessThan(CMD_MAX_LINE);
    expect(command.quote(command.argv)).toBe(line);
    for (const name of HOSTILE_NAMES) {
      expect(AGENTS.windows.environment.command(name).argv).toEqual(command.argv);
      const env = AGENTS.windows.environment.parse(
        { exitCode: 0, stdout: fixture("windows-server2022-x710.txt"), stderr: "" },
        name,
      );
      expect(env.nic).toBeNull();
      expect(env.missing).toContain(`NIC: this host has no adapter named ${JSON.stringify(name)}`);
    }
  });

  // The scripts run here for real: sh (and BusyBox ash, ESXi's shell) with hostile names. The tools
  // of other platforms are missing on this machine; what matters is that no name ever runs.
  it.each([
    ["linux", ["sh"]],
    ["freebsd", ["sh"]],
    ["macos", ["sh"]],
    ["esxi", ["busybox", "ash"]],
  ] as const)("%s: the script, run by a real shell, treats every hostile name as a name", (platform, shell) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-env-"));
    try {
      for (const template of HOSTILE_NAMES) {
        const name = template.replace("PWNED", path.join(dir, "pwned"));
        const argv = AGENTS[platform].environment.command(name).argv;
        const result = spawnSync(shell[0], [...shell.slice(1), ...argv.slice(1)], { encoding: "utf8", cwd: dir });
        expect(result.error).toBeUndefined();
        const env = AGENTS[platform].environment.parse(
          { exitCode: result.status, stdout: result.stdout, stderr: result.stderr },
          name,
        );
        expect(env.nic, JSON.stringify(name)).toBeNull();
        expect(fs.readdirSync(dir)).toEqual([]);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
