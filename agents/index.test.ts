import { describe, expect, it } from "vitest";
import { AGENTS, agentInstallHint, detectPlatform, getAgent, PLATFORM_PROBE, PLATFORMS } from "./index";

describe("detectPlatform", () => {
  it("tells the platform from `uname -s` or cmd's `ver`", () => {
    expect(detectPlatform("Linux\n")).toBe("linux");
    expect(detectPlatform("VMkernel\n")).toBe("esxi");
    expect(detectPlatform("Darwin\n")).toBe("macos");
    expect(detectPlatform("FreeBSD\n")).toBe("freebsd");
    // hand-written: cmd.exe prints an empty line, then the version
    expect(detectPlatform("\r\nMicrosoft Windows [Version 10.0.22631.4460]\r\n")).toBe("windows");
    expect(detectPlatform("SunOS\n")).toBeNull();
    expect(detectPlatform("")).toBeNull();
  });

  it("probes with one string that sh and cmd.exe both run", () => {
    expect(PLATFORM_PROBE.quote(PLATFORM_PROBE.argv)).toBe("uname -s || ver");
    expect(PLATFORM_PROBE.argv).toEqual(["uname", "-s"]);
  });
});

describe("AGENTS", () => {
  it("has one agent of the same shape per platform", () => {
    expect(PLATFORMS.sort()).toEqual(["esxi", "freebsd", "linux", "macos", "windows"]);
    for (const platform of PLATFORMS) {
      const agent = getAgent(platform);
      expect(agent.platform).toBe(platform);
      for (const member of ["quote", "command", "detectCommands", "parseDetect", "serverCommand", "clientCommand", "stopCommand", "isRunningCommand", "parseIsRunning", "discoverNicsCommand", "parseNics"] as const) {
        expect(typeof agent[member], `${platform}.${member}`).toBe("function");
      }
      expect(agent.defaultIperf3Path).not.toBe("");
    }
    expect(AGENTS.esxi.firewall).toBeDefined();
    expect(AGENTS.linux.firewall).toBeUndefined();
  });

  it("hands out lib/iperf's install hint per platform", () => {
    expect(agentInstallHint("esxi")).toContain("/usr/lib/vmware/vsan/bin/iperf3");
    expect(agentInstallHint(null)).toMatch(/install iperf3/i);
  });
});
