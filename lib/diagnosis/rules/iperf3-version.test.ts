import { describe, expect, it } from "vitest";
import { runEvidence, snapshot } from "./evidence-builders";
import { iperf3VersionRule, versionOfText } from "./iperf3-version";

describe("iperf3 version text", () => {
  it("reads a bare version, iperf3 -v's, and a git build's", () => {
    expect(
      ["3.12", "iperf 3.12", "iperf 3.9+", "iperf3 version 3.1.3", "iperf 3.16 (cJSON 1.7.15)"].map(
        (text) => versionOfText(text)?.raw,
      ),
    ).toEqual(["3.12", "3.12", "3.9+", "3.1.3", "3.16"]);
    expect(versionOfText("unknown")).toBeNull();
    expect(versionOfText(null)).toBeNull();
  });
});

describe("iperf3 too old rule", () => {
  const fast = { linkSpeedMbps: 40_000, receivedBitsPerSecond: 22e9, options: { parallel: 4 } };

  it("finds an iperf3 before 3.16 at 40 Gbit/s, critical when the run fell short", () => {
    const run = runEvidence({
      ...fast,
      environment: { client: snapshot({ iperf3Version: "iperf 3.12" }), server: snapshot({ iperf3Version: "3.16" }) },
    });
    expect(iperf3VersionRule(run)).toEqual({
      id: "iperf3-too-old",
      severity: "critical",
      title: "iperf3 too old for the speed",
      evidence:
        "iperf3 3.12 on the client: before 3.16 an iperf3 runs every stream in one thread, and one core does not fill 40 Gbit/s; the run gave 22 Gbit/s, 55% of the 40 Gbit/s line rate.",
      suggestion:
        "Upgrade iperf3 to 3.16 or later on the client, or run channels: several iperf3 processes at once, each on a core of its own (a channels experiment).",
    });
  });

  it("is a warning when the run reached the line rate anyway, naming both ends", () => {
    const run = runEvidence({
      ...fast,
      receivedBitsPerSecond: 38e9,
      environment: { client: snapshot({ iperf3Version: "3.9" }), server: snapshot({ iperf3Version: "3.15" }) },
    });
    const found = iperf3VersionRule(run);
    expect(found?.severity).toBe("warning");
    expect(found?.evidence).toMatch(/^iperf3 3\.9 on the client and 3\.15 on the server:/);
  });

  it("says nothing from 3.16 on, below 40 Gbit/s, for a channel, or when the version is not known", () => {
    const old = { client: snapshot({ iperf3Version: "3.12" }), server: snapshot({ iperf3Version: "3.12" }) };
    expect(
      iperf3VersionRule(
        runEvidence({
          ...fast,
          environment: { client: snapshot({ iperf3Version: "3.17.1" }), server: snapshot({ iperf3Version: "3.16" }) },
        }),
      ),
    ).toBeNull();
    expect(iperf3VersionRule(runEvidence({ ...fast, linkSpeedMbps: 25_000, environment: old }))).toBeNull();
    expect(iperf3VersionRule(runEvidence({ ...fast, isChannel: true, environment: old }))).toBeNull();
    expect(
      iperf3VersionRule(
        runEvidence({ ...fast, environment: { client: snapshot({ iperf3Version: null }), server: null } }),
      ),
    ).toBeNull();
  });
});
