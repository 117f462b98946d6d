import { describe, expect, it } from "vitest";
import { compareVersions, isVersionAtLeast, parseIperfVersion, versionFromString } from "./version";
import { readFileSync } from "node:fs";

describe("parseIperfVersion", () => {
  it("reads the output of iperf3 -v on Debian 12", () => {
    expect(
      parseIperfVersion(
        "iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.1.0 #1 SMP x86_64\nOptional features available: CPU affinity setting",
      ),
    ).toEqual({
      major: 3,
      minor: 12,
      patch: 0,
      raw: "3.12",
    });
  });

  it("reads three-part, plus and Windows versions", () => {
    expect(parseIperfVersion("iperf 3.1.3")).toEqual({ major: 3, minor: 1, patch: 3, raw: "3.1.3" });
    expect(parseIperfVersion("iperf 3.9+ (cJSON 1.7.13)")).toEqual({ major: 3, minor: 9, patch: 0, raw: "3.9+" });
    expect(parseIperfVersion("iperf 3.17.1 (cJSON 1.7.15)")).toEqual({ major: 3, minor: 17, patch: 1, raw: "3.17.1" });
    expect(parseIperfVersion("iperf 3.1.3\r\nCYGWIN_NT-10.0 WIN 2.5.1(0.297/5/3) 2016-04-21 22:14 x86_64")?.raw).toBe(
      "3.1.3",
    );
  });

  it("reads the version of the real fixture and of -J output", async () => {
    const text = readFileSync(new URL("./fixtures/real/version.stdout.txt", import.meta.url), "utf8");
    expect(parseIperfVersion(text)?.minor).toBe(12);
    expect(parseIperfVersion('"version":\t"iperf 3.12",')?.raw).toBe("3.12");
  });

  it("returns null when there is no version", () => {
    expect(parseIperfVersion("bash: iperf3: command not found")).toBeNull();
    expect(parseIperfVersion("")).toBeNull();
  });

  it("reads iperf2's wording too, so that the caller can refuse it", () => {
    expect(parseIperfVersion("iperf version 2.0.13 (21 Jan 2019) pthreads")?.major).toBe(2);
  });
});

describe("compareVersions", () => {
  it("orders by major, minor, patch, numerically", () => {
    expect(compareVersions("3.12", "3.9")).toBeGreaterThan(0);
    expect(compareVersions("3.1.3", "3.1.5")).toBeLessThan(0);
    expect(compareVersions("3.7", "3.7.0")).toBe(0);
    expect(compareVersions(versionFromString("3.9+"), "3.9")).toBe(0);
    expect(compareVersions("3.17.1", "3.17")).toBeGreaterThan(0);
  });

  it("answers isVersionAtLeast", () => {
    expect(isVersionAtLeast(versionFromString("3.1.5"), "3.1.5")).toBe(true);
    expect(isVersionAtLeast(versionFromString("3.1.3"), "3.1.5")).toBe(false);
  });

  it("refuses text that is not a version", () => {
    expect(() => versionFromString("latest")).toThrow(/not an iperf3 version/);
  });
});
