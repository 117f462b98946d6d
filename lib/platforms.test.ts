import { describe, expect, it } from "vitest";
import { PlatformSchema } from "@/lib/inventory/schemas";
import {
  HOST_PLATFORMS,
  installHint,
  isPlatform,
  platformLabel,
  platformOfNode,
  PLATFORMS,
  UNKNOWN_PLATFORM,
  type HostPlatform,
} from "./platforms";

describe("PLATFORMS", () => {
  it("lists the platforms with an agent; a host may also be unknown", () => {
    expect(PLATFORMS).toEqual(["linux", "esxi", "windows", "macos", "freebsd"]);
    expect(HOST_PLATFORMS).toEqual([...PLATFORMS, UNKNOWN_PLATFORM]);
    expect(isPlatform("esxi")).toBe(true);
    expect(isPlatform("unknown")).toBe(false);
    expect(isPlatform("toString")).toBe(false);
  });

  it("is what the hosts' zod enum accepts, exactly", () => {
    expect(PlatformSchema.options).toEqual(HOST_PLATFORMS);
    for (const platform of HOST_PLATFORMS) expect(PlatformSchema.parse(platform)).toBe(platform);
    for (const other of ["", "Linux", "plan9", "toString"]) expect(PlatformSchema.safeParse(other).success).toBe(false);
    expect(PlatformSchema.safeParse("plan9").error?.issues[0]?.message).toBe(
      "must be one of linux, esxi, windows, macos, freebsd, unknown",
    );
  });
});

describe("platformLabel", () => {
  it("names every platform for users and shows anything else as it is", () => {
    expect(HOST_PLATFORMS.map(platformLabel)).toEqual([
      "Linux",
      "ESXi",
      "Windows",
      "macOS",
      "FreeBSD / TrueNAS",
      "Unknown",
    ]);
    expect(platformLabel("plan9")).toBe("plan9");
  });
});

describe("installHint", () => {
  it.each<[HostPlatform, string]>([
    ["linux", "apt install iperf3"],
    ["esxi", "iperf3.copy"],
    ["windows", "iperf3.exe"],
    ["macos", "brew install iperf3"],
    ["freebsd", "pkg install iperf3"],
    ["unknown", "install iperf3"],
  ])("%s mentions %s", (platform, text) => {
    expect(installHint(platform)).toContain(text);
  });
});

describe("platformOfNode", () => {
  it("maps Node's platform names to Wirespeed's", () => {
    expect(platformOfNode("linux")).toBe("linux");
    expect(platformOfNode("darwin")).toBe("macos");
    expect(platformOfNode("win32")).toBe("windows");
    expect(platformOfNode("freebsd")).toBe("freebsd");
    expect(platformOfNode("aix")).toBe("unknown");
  });
});
