import { describe, expect, it } from "vitest";
import { buildClientArgv, buildServerArgv, chooseLiveMode, chooseServerOutput, IperfOptionError } from "./argv";
import { versionFromString } from "./version";

const v312 = versionFromString("3.12");
const v313 = versionFromString("3.1.3");
const v317 = versionFromString("3.17.1");

describe("buildClientArgv", () => {
  it("builds a default TCP test with -V (for the CPU line), rates in Kbits/sec (-f k) and --forceflush on 3.12", () => {
    expect(buildClientArgv({ options: {}, version: v312, serverAddress: "198.18.0.2", hostName: "nas1" })).toEqual({
      argv: ["-c", "198.18.0.2", "-t", "10", "-V", "-f", "k", "--forceflush"],
      liveMode: "forceflush",
    });
  });

  it("uses --json-stream (CPU in its end event, no -V) from 3.17 and a pty (with -V) before 3.1.5", () => {
    expect(buildClientArgv({ options: {}, version: v317, serverAddress: "10.0.0.40", hostName: "h" })).toEqual({
      argv: ["-c", "10.0.0.40", "-t", "10", "--json-stream"],
      liveMode: "json-stream",
    });
    expect(buildClientArgv({ options: {}, version: v313, serverAddress: "10.0.0.40", hostName: "h" })).toEqual({
      argv: ["-c", "10.0.0.40", "-t", "10", "-V", "-f", "k"],
      liveMode: "pty",
    });
    expect(chooseLiveMode(versionFromString("3.1.5"))).toBe("forceflush");
    expect(chooseLiveMode(versionFromString("3.16"))).toBe("forceflush");
  });

  it("maps every option to its flag, as separate argv items", () => {
    const { argv } = buildClientArgv({
      options: {
        protocol: "tcp",
        bytes: 1_048_576_000,
        parallel: 4,
        bidir: true,
        bitrate: 2_500_000_000,
        omit: 2,
        window: 4_194_304,
        mss: 8948,
        length: 131_072,
        zerocopy: true,
        congestion: "bbr",
        interval: 0.5,
        tos: 16,
        port: 5301,
      },
      version: v312,
      serverAddress: "198.18.0.2",
      bindAddress: "198.18.0.1",
      hostName: "nas1",
    });
    expect(argv).toEqual([
      "-c",
      "198.18.0.2",
      "-p",
      "5301",
      "-n",
      "1048576000",
      "-P",
      "4",
      "--bidir",
      "-b",
      "2500000000",
      "-O",
      "2",
      "-w",
      "4194304",
      "-M",
      "8948",
      "-l",
      "131072",
      "-Z",
      "-C",
      "bbr",
      "-i",
      "0.5",
      "-S",
      "16",
      "-B",
      "198.18.0.1",
      "-V",
      "-f",
      "k",
      "--forceflush",
    ]);
  });

  it("always gives UDP a -b, and passes -R", () => {
    const { argv } = buildClientArgv({
      options: { protocol: "udp", bitrate: 0, reverse: true, duration: 3 },
      version: v312,
      serverAddress: "::1",
      hostName: "h",
    });
    expect(argv).toEqual(["-c", "::1", "-u", "-t", "3", "-R", "-b", "0", "-V", "-f", "k", "--forceflush"]);
  });

  it("refuses UDP without a bitrate through the schema", () => {
    expect(() =>
      buildClientArgv({ options: { protocol: "udp" }, version: v312, serverAddress: "10.0.0.1", hostName: "h" }),
    ).toThrow(/bitrate is required for udp/);
  });

  it("refuses --bidir on 3.1.3, naming flag, needed version and the host's", () => {
    const build = () =>
      buildClientArgv({ options: { bidir: true }, version: v313, serverAddress: "10.0.0.40", hostName: "nas1" });
    expect(build).toThrow(IperfOptionError);
    expect(build).toThrow("--bidir needs iperf3 3.7 or newer; host nas1 has 3.1.3");
  });

  it("refuses options older builds lack", () => {
    const v300 = versionFromString("3.0");
    expect(() =>
      buildClientArgv({ options: { window: 65536 }, version: v300, serverAddress: "a", hostName: "old" }),
    ).toThrow("-w needs iperf3 3.0.1 or newer; host old has 3.0");
    expect(() =>
      buildClientArgv({ options: {}, version: v312, serverAddress: "a", bindAddress: "10.0.0.1%eth0", hostName: "h" }),
    ).not.toThrow();
    expect(() =>
      buildClientArgv({
        options: {},
        version: versionFromString("3.11"),
        serverAddress: "a",
        bindAddress: "10.0.0.1%eth0",
        hostName: "h",
      }),
    ).toThrow("-B addr%dev needs iperf3 3.12 or newer; host h has 3.11");
  });

  it("spells -C as --linux-congestion on 3.0.x", () => {
    const { argv } = buildClientArgv({
      options: { congestion: "cubic" },
      version: versionFromString("3.0.11"),
      serverAddress: "10.0.0.1",
      hostName: "h",
    });
    expect(argv).toContain("--linux-congestion");
    expect(argv).not.toContain("-C");
  });

  it("refuses server addresses that argv would read as an option, and iperf2", () => {
    expect(() => buildClientArgv({ options: {}, version: v312, serverAddress: "-s", hostName: "h" })).toThrow(
      IperfOptionError,
    );
    expect(() => buildClientArgv({ options: {}, version: v312, serverAddress: "a b", hostName: "h" })).toThrow(
      /must be a host name or an IP address/,
    );
    expect(() =>
      buildClientArgv({ options: {}, version: v312, serverAddress: "a", bindAddress: "$(id)", hostName: "h" }),
    ).toThrow(/bind address/);
    expect(() =>
      buildClientArgv({ options: {}, version: versionFromString("2.0.13"), serverAddress: "a", hostName: "h" }),
    ).toThrow("host h has iperf 2.0.13; Wirespeed needs iperf3 (3.x)");
  });

  it("lets the caller force a pty, whose text then needs -V for the CPU line", () => {
    const { argv, liveMode } = buildClientArgv({
      options: {},
      version: v317,
      serverAddress: "a",
      hostName: "h",
      liveMode: "pty",
    });
    expect(liveMode).toBe("pty");
    expect(argv).not.toContain("--json-stream");
    expect(argv).toContain("-V");
  });

  it("passes -A n or n,m as one argv item, after -Z", () => {
    const build = (affinity: string) =>
      buildClientArgv({
        options: { affinity, zerocopy: true },
        version: v312,
        serverAddress: "198.18.0.2",
        hostName: "nas1",
        platform: "linux",
        server: { platform: "freebsd", hostName: "truenas" },
      }).argv;
    expect(build("2")).toEqual(["-c", "198.18.0.2", "-t", "10", "-Z", "-A", "2", "-V", "-f", "k", "--forceflush"]);
    expect(build("0,1023")).toEqual([
      "-c",
      "198.18.0.2",
      "-t",
      "10",
      "-Z",
      "-A",
      "0,1023",
      "-V",
      "-f",
      "k",
      "--forceflush",
    ]);
  });

  it("refuses -A on an end whose iperf3 cannot pin itself to a core, naming the host", () => {
    const build = (
      affinity: string,
      platform: "linux" | "macos" | "windows",
      server: { platform: "linux" | "macos" | "windows"; version?: typeof v312 },
      version = v312,
    ) =>
      buildClientArgv({
        options: { affinity },
        version,
        serverAddress: "10.0.0.40",
        hostName: "client1",
        platform,
        server: { ...server, hostName: "server1" },
      });
    expect(() => build("2", "macos", { platform: "linux" })).toThrow(IperfOptionError);
    expect(() => build("2", "macos", { platform: "linux" })).toThrow(
      "-A (CPU affinity) is not available on host client1 (macOS): iperf3 pins itself to a core on Linux, FreeBSD and Windows (3.4+) only",
    );
    // the server's core only matters when m is given
    expect(() => build("2", "linux", { platform: "macos" })).not.toThrow();
    expect(() => build("2,3", "linux", { platform: "macos" })).toThrow(
      "-A n,m (the server's core m) is not available on host server1 (macOS)",
    );
    expect(() => build("2", "windows", { platform: "linux" }, v313)).toThrow(
      "-A (CPU affinity) needs iperf3 3.4 or newer on Windows; host client1 has 3.1.3",
    );
    expect(() => build("2,3", "linux", { platform: "windows", version: v313 })).toThrow("host server1 has 3.1.3");
    expect(() => build("2,3", "windows", { platform: "windows", version: v317 }, v317)).not.toThrow();
    const refusal = (() => {
      try {
        build("2", "macos", { platform: "linux" });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toMatchObject({ field: "affinity", kind: "parameter" });
    // unknown platforms are left to iperf3, which says "not implemented" where it cannot
    expect(() =>
      buildClientArgv({ options: { affinity: "1,1" }, version: v312, serverAddress: "a", hostName: "h" }),
    ).not.toThrow();
    expect(() =>
      buildClientArgv({
        options: { affinity: "1" },
        version: v312,
        serverAddress: "a",
        hostName: "h",
        platform: "esxi",
      }),
    ).not.toThrow();
  });
});

describe("buildServerArgv", () => {
  it("builds a one-off server bound to the NIC under test", () => {
    expect(buildServerArgv({ version: v312, bindAddress: "198.18.0.2", port: 5301, oneOff: true })).toEqual([
      "-s",
      "-1",
      "-B",
      "198.18.0.2",
      "-p",
      "5301",
      "--forceflush",
    ]);
    expect(buildServerArgv({ version: v313, bindAddress: "192.168.0.40", port: 5201, oneOff: true })).toEqual([
      "-s",
      "-1",
      "-B",
      "192.168.0.40",
      "-p",
      "5201",
    ]);
  });

  it("adds --idle-timeout from 3.10 and refuses it before", () => {
    expect(
      buildServerArgv({
        version: v312,
        bindAddress: "::1",
        port: 5302,
        oneOff: true,
        idleTimeoutSeconds: 60,
        forceFlush: false,
      }),
    ).toEqual(["-s", "-1", "-B", "::1", "-p", "5302", "--idle-timeout", "60"]);
    expect(() =>
      buildServerArgv({
        version: versionFromString("3.9"),
        bindAddress: "::1",
        port: 5302,
        oneOff: true,
        idleTimeoutSeconds: 60,
        hostName: "nas1",
      }),
    ).toThrow("--idle-timeout needs iperf3 3.10 or newer; host nas1 has 3.9");
  });

  it("writes one -J document without intervals for a text client, on every version, with none of the text-only flags", () => {
    const json = { oneOff: true, verbose: true, output: "json" } as const;
    expect(
      buildServerArgv({ ...json, version: v312, bindAddress: "198.18.0.2", port: 5301, idleTimeoutSeconds: 60 }),
    ).toEqual(["-s", "-1", "-B", "198.18.0.2", "-p", "5301", "--idle-timeout", "60", "-J", "-i", "0"]);
    // ESXi's and Windows' 3.1.x builds have -J too.
    expect(buildServerArgv({ ...json, version: v313, bindAddress: "192.168.0.40", port: 5201 })).toEqual([
      "-s",
      "-1",
      "-B",
      "192.168.0.40",
      "-p",
      "5201",
      "-J",
      "-i",
      "0",
    ]);
    expect(buildServerArgv({ ...json, version: v317, bindAddress: "10.0.0.40", port: 5201, output: "text" })).toEqual([
      "-s",
      "-1",
      "-B",
      "10.0.0.40",
      "-p",
      "5201",
      "-V",
      "--forceflush",
    ]);
  });

  it("chooses -J for the server of every client that streams text, text for a --json-stream client", () => {
    expect(chooseServerOutput(chooseLiveMode(v313))).toBe("json");
    expect(chooseServerOutput(chooseLiveMode(v312))).toBe("json");
    expect(chooseServerOutput(chooseLiveMode(versionFromString("3.16")))).toBe("json");
    expect(chooseServerOutput(chooseLiveMode(v317))).toBe("text");
  });

  it("refuses -1 before 3.0.11, bad ports and unsafe addresses", () => {
    expect(() =>
      buildServerArgv({
        version: versionFromString("3.0.10"),
        bindAddress: "::1",
        port: 5201,
        oneOff: true,
        hostName: "x",
      }),
    ).toThrow("-1 needs iperf3 3.0.11 or newer; host x has 3.0.10");
    expect(() => buildServerArgv({ version: v312, bindAddress: "::1", port: 0, oneOff: true })).toThrow(/port must be/);
    expect(() => buildServerArgv({ version: v312, bindAddress: "-D", port: 5201, oneOff: true })).toThrow(
      /bind address/,
    );
  });
});

describe("--get-server-output", () => {
  it("is asked for where the client has it (3.0.5+), after the options and before the live-output flags", () => {
    const { argv } = buildClientArgv({
      options: { duration: 5 },
      version: v312,
      serverAddress: "198.18.0.2",
      hostName: "a",
      getServerOutput: true,
    });
    expect(argv).toEqual(["-c", "198.18.0.2", "-t", "5", "--get-server-output", "-V", "-f", "k", "--forceflush"]);
    const old = buildClientArgv({
      options: { duration: 5 },
      version: versionFromString("3.0.1"),
      serverAddress: "198.18.0.2",
      hostName: "a",
      getServerOutput: true,
    });
    expect(old.argv).not.toContain("--get-server-output");
    expect(buildClientArgv({ options: {}, version: v317, serverAddress: "h", hostName: "a" }).argv).not.toContain(
      "--get-server-output",
    );
  });

  it("never takes busyRetrySeconds to the command line", () => {
    const { argv } = buildClientArgv({
      options: { busyRetrySeconds: 30 },
      version: v317,
      serverAddress: "h",
      hostName: "a",
    });
    expect(argv.join(" ")).not.toMatch(/30|busy/);
  });
});
