import { describe, expect, it } from "vitest";
import { IperfOptionsSchema } from "./options";

function errorsOf(input: unknown): string[] {
  const parsed = IperfOptionsSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.message);
}

describe("IperfOptionsSchema", () => {
  it("fills the defaults: tcp, 10 s, 1 stream, 1 s interval", () => {
    expect(IperfOptionsSchema.parse({})).toEqual({
      protocol: "tcp",
      duration: 10,
      parallel: 1,
      reverse: false,
      bidir: false,
      zerocopy: false,
      interval: 1,
    });
  });

  it("takes bytes instead of a duration, without a default duration", () => {
    const options = IperfOptionsSchema.parse({ bytes: 1000 * 1024 * 1024 });
    expect(options.bytes).toBe(1_048_576_000);
    expect(options.duration).toBeUndefined();
  });

  it("keeps every field it knows", () => {
    const options = IperfOptionsSchema.parse({
      protocol: "udp",
      duration: 30,
      parallel: 8,
      bidir: true,
      bitrate: 10_000_000_000,
      omit: 2,
      window: 4 * 1024 * 1024,
      length: 1400,
      zerocopy: true,
      interval: 0.5,
      tos: 0x10,
      port: 5301,
      bind: "198.18.0.1",
    });
    expect(options).toMatchObject({
      protocol: "udp",
      parallel: 8,
      bidir: true,
      bitrate: 1e10,
      interval: 0.5,
      tos: 16,
      bind: "198.18.0.1",
    });
  });

  it.each([
    [{ parallel: 0 }, "parallel must be a whole number from 1 to 128 streams"],
    [{ parallel: 129 }, "parallel must be a whole number from 1 to 128 streams"],
    [{ parallel: 1.5 }, "parallel must be a whole number from 1 to 128 streams"],
    [{ parallel: "4" }, "parallel must be a whole number from 1 to 128 streams"],
    [{ duration: 0 }, "duration must be a whole number from 1 to 86400 seconds"],
    [{ interval: 0.05 }, "interval must be a number of seconds from 0.1 to 60"],
    [{ interval: 61 }, "interval must be a number of seconds from 0.1 to 60"],
    [{ tos: 256 }, "tos must be a whole number from 0 to 255"],
    [{ port: 70000 }, "port must be a whole number from 1 to 65535"],
    [{ mss: 10 }, "mss must be a whole number from 88 to 9216 bytes"],
    [{ bitrate: -1 }, "bitrate must be a whole number from 0 to 10000000000000 bits/s (0 = unlimited)"],
    [{ protocol: "sctp" }, 'protocol must be "tcp" or "udp"'],
    [{ reverse: "yes" }, "reverse must be true or false"],
  ])("refuses %j naming the field and what is allowed", (input, message) => {
    expect(errorsOf(input)).toContain(message);
  });

  it("restricts congestion to a safe character set", () => {
    expect(IperfOptionsSchema.parse({ congestion: "bbr" }).congestion).toBe("bbr");
    expect(IperfOptionsSchema.parse({ congestion: "cubic" }).congestion).toBe("cubic");
    for (const bad of ["bbr; reboot", "BBR", "", "a".repeat(17), "$(id)", "-x"]) {
      expect(errorsOf({ congestion: bad })).toEqual([
        "congestion must be 1 to 16 characters of a-z, 0-9 and _ (e.g. cubic, bbr)",
      ]);
    }
  });

  it("restricts bind to IP addresses", () => {
    for (const good of ["198.18.0.1", "::1", "fe80::1%eth0", "192.168.0.40%vmk1", "2001:db8::5"]) {
      expect(errorsOf({ bind: good })).toEqual([]);
    }
    for (const bad of ["-c", "host name", "a;b", "$(id)", "nas1.local", "1.2.3.4 -p 1"]) {
      expect(errorsOf({ bind: bad })).toEqual(["bind must be an IPv4 or IPv6 address (optionally with %device)"]);
    }
  });

  it("takes affinity as -A does: a client core, or client and server cores", () => {
    for (const good of ["0", "2", "2,3", "1023", "0,1023", "1023,0"]) {
      expect(IperfOptionsSchema.parse({ affinity: good }).affinity, good).toBe(good);
    }
    expect(IperfOptionsSchema.parse({}).affinity).toBeUndefined();
    const message =
      'affinity must be "n" or "n,m": the CPU core of the client (n) and of the server (m), whole numbers from 0 to 1023 without leading zeros, e.g. "2" or "2,3"';
    // 010 would be core 8 to iperf3 (strtol base 0), 0x10 core 16
    for (const bad of [
      2,
      "1024",
      "2,1024",
      "-1",
      "2,",
      ",3",
      "2,3,4",
      "02",
      "010",
      "0x10",
      "2 ,3",
      " 2",
      "2;reboot",
      "$(id)",
      "-A",
      "",
      "99999",
      "1.5",
    ]) {
      expect(errorsOf({ affinity: bad }), JSON.stringify(bad)).toEqual([message]);
    }
    const parsed = IperfOptionsSchema.safeParse({ affinity: "4096" });
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["affinity"]);
  });

  it("refuses combinations iperf3 cannot run", () => {
    expect(errorsOf({ duration: 5, bytes: 1000 })).toEqual(["bytes and duration exclude each other: give one"]);
    expect(errorsOf({ reverse: true, bidir: true })).toEqual(["bidir and reverse exclude each other: give one"]);
    expect(errorsOf({ protocol: "udp" })).toEqual([
      "bitrate is required for udp (bits/s; 0 = unlimited): without it iperf3 sends 1 Mbit/s",
    ]);
    expect(errorsOf({ protocol: "udp", bitrate: 0, congestion: "bbr" })).toEqual(["congestion applies to tcp only"]);
    expect(errorsOf({ duration: 5, omit: 5 })).toEqual(["omit must be shorter than duration"]);
  });

  it("puts each error on its field's path", () => {
    const parsed = IperfOptionsSchema.safeParse({ parallel: 500, protocol: "udp" });
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((issue) => issue.path.join("."));
    expect(paths).toContain("parallel");
  });
});

describe("busyRetrySeconds", () => {
  it("is kept with the options, from 0 to 600 whole seconds, and left out by default", () => {
    expect(IperfOptionsSchema.parse({ busyRetrySeconds: 0 }).busyRetrySeconds).toBe(0);
    expect(IperfOptionsSchema.parse({ busyRetrySeconds: 600 }).busyRetrySeconds).toBe(600);
    expect(IperfOptionsSchema.parse({}).busyRetrySeconds).toBeUndefined();
    for (const value of [-1, 601, 1.5, "60"])
      expect(errorsOf({ busyRetrySeconds: value })).toEqual([
        "busyRetrySeconds must be a whole number from 0 to 600 seconds",
      ]);
  });
});
