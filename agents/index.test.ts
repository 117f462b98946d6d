import { describe, expect, it } from "vitest";
import { PLATFORMS } from "@/lib/platforms";
import { AGENTS, detectPlatform, getAgent, PLATFORM_PROBE } from "./index";

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
  it("has exactly one agent per platform of lib/platforms.ts, under its own name", () => {
    expect(Object.keys(AGENTS).sort()).toEqual([...PLATFORMS].sort());
    for (const [platform, agent] of Object.entries(AGENTS)) expect(agent.platform).toBe(platform);
  });

  it("has agents of the same shape", () => {
    expect([...PLATFORMS].sort()).toEqual(["esxi", "freebsd", "linux", "macos", "windows"]);
    for (const platform of PLATFORMS) {
      const agent = getAgent(platform);
      for (const member of [
        "quote",
        "command",
        "detectCommands",
        "parseDetect",
        "serverCommand",
        "clientCommand",
        "stopCommand",
        "isRunningCommand",
        "parseIsRunning",
        "discoverNicsCommand",
        "parseNics",
      ] as const) {
        expect(typeof agent[member], `${platform}.${member}`).toBe("function");
      }
      expect(agent.defaultIperf3Path).not.toBe("");
      // A stateful (g or y) pattern would answer differently on every other call.
      expect(agent.probeAnswer.global || agent.probeAnswer.sticky, `${platform}.probeAnswer`).toBe(false);
    }
    expect(AGENTS.esxi.firewall).toBeDefined();
    expect(AGENTS.linux.firewall).toBeUndefined();
  });

  it("names a PID's program where ps can (POSIX but BusyBox), so a leftover PID is stopped only if it is iperf3", () => {
    const withProgramName = PLATFORMS.filter((platform) => getAgent(platform).programNameCommand !== undefined);
    expect(withProgramName.sort()).toEqual(["freebsd", "linux", "macos"]);
    const command = AGENTS.linux.programNameCommand!(4242);
    expect(command.argv).toEqual(["ps", "-p", "4242", "-o", "comm="]);
  });
});
